package adapters_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"testing"

	webpush "github.com/SherClockHolmes/webpush-go"

	"github.com/santa-wishlist/santa/services/notification/internal/adapters"
)

// The key is read in webpush-go's raw form (stack.sh) and as the DER key Helm makes, armoured
// or not (the chart), and gives the same public key a browser subscribes with.
func TestParseVAPIDKey(t *testing.T) {
	priv, pub, err := webpush.GenerateVAPIDKeys()
	if err != nil {
		t.Fatal(err)
	}
	got, err := adapters.ParseVAPIDKey(priv)
	if err != nil || got.PublicKey != pub || got.PrivateKey != priv {
		t.Fatalf("raw key: %+v %v, want public %s", got, err, pub)
	}
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sec1, _ := x509.MarshalECPrivateKey(ec)
	pkcs8, _ := x509.MarshalPKCS8PrivateKey(ec)
	wantPub := base64.RawURLEncoding.EncodeToString(elliptic.Marshal(elliptic.P256(), ec.X, ec.Y)) //nolint:staticcheck // the uncompressed point, as browsers take it
	for name, in := range map[string]string{
		"SEC1 PEM":       string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: sec1})),
		"SEC1 unwrapped": base64.StdEncoding.EncodeToString(sec1),
		"PKCS8 PEM":      string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8})),
	} {
		got, err := adapters.ParseVAPIDKey(in)
		if err != nil || got.PublicKey != wantPub {
			t.Fatalf("%s: %+v %v", name, got, err)
		}
	}
	ed := "MC4CAQAwBQYDK2VwBCIEIGd7PxLkGzdRuQfvhbFQ6y9nKcuGQ6jSZ2i5sTjW4bU2" // an Ed25519 PKCS#8 key
	for _, bad := range []string{"not a key!", ed, base64.RawURLEncoding.EncodeToString(make([]byte, 32))} {
		if _, err := adapters.ParseVAPIDKey(bad); err == nil {
			t.Fatalf("%q was taken for a VAPID key", bad)
		}
	}
}
