package firebaseauth_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santa-wishlist/santa/pkg/auth/firebaseauth"
)

// With a service account key (GOOGLE_APPLICATION_CREDENTIALS, as the chart mounts one), the
// Admin SDK's user lookups ask Google's token endpoint for the Auth scopes: without any, the
// endpoint refuses the key's assertion and every lookup fails. The key's token_uri points at a
// local server here, which records the assertion and refuses it, so nothing leaves the machine.
func TestUserLookupsWithAKeyAskForTheAuthScopes(t *testing.T) {
	t.Setenv("FIREBASE_AUTH_EMULATOR_HOST", "")
	assertions := make(chan string, 10)
	tokens := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err == nil {
			assertions <- r.PostForm.Get("assertion")
		}
		http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
	}))
	defer tokens.Close()

	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	key, _ := json.Marshal(map[string]string{
		"type":           "service_account",
		"project_id":     "santa-test",
		"private_key_id": "k1",
		"private_key":    string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		"client_email":   "santa-firebase@santa-test.iam.gserviceaccount.com",
		"client_id":      "1",
		"token_uri":      tokens.URL,
	})
	file := filepath.Join(t.TempDir(), "firebase-admin.json")
	if err := os.WriteFile(file, key, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", file)

	d, err := firebaseauth.NewDirectory(context.Background(), "santa-test", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.Email(context.Background(), "someone"); err == nil {
		t.Fatal("the lookup succeeded although the token endpoint refused the key")
	}
	var assertion string
	select {
	case assertion = <-assertions:
	default:
		t.Fatal("the lookup never asked the key's token endpoint")
	}
	parts := strings.Split(assertion, ".")
	if len(parts) != 3 {
		t.Fatalf("assertion %q is not a JWT", assertion)
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var claims struct {
		Scope string `json:"scope"`
		Iss   string `json:"iss"`
	}
	if err := json.Unmarshal(payload, &claims); err != nil {
		t.Fatal(err)
	}
	if claims.Iss != "santa-firebase@santa-test.iam.gserviceaccount.com" {
		t.Errorf("assertion issued by %q, want the key's account", claims.Iss)
	}
	got := strings.Fields(claims.Scope)
	for _, want := range firebaseauth.AdminScopes {
		found := false
		for _, g := range got {
			found = found || g == want
		}
		if !found {
			t.Errorf("assertion asks for scopes %q, want %s among them", claims.Scope, want)
		}
	}
}
