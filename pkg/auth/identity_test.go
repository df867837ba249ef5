package auth_test

import (
	"crypto/ed25519"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
)

func newSigner(t *testing.T, issuer string) *auth.IdentitySigner {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := auth.NewIdentitySigner(issuer, base64.StdEncoding.EncodeToString(priv.Seed()), 0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// An internal service answers only requests with a valid assertion for itself: a forged
// X-User-Id, a wrong or untrusted signature, another audience or an expired assertion are 401.
func TestInternalServicesRefuseRequestsWithoutAValidAssertion(t *testing.T) {
	gin.SetMode(gin.TestMode)
	gateway, attacker := newSigner(t, "gateway"), newSigner(t, "gateway") // same name, other key
	keys, err := auth.ParsePublicKeys("gateway=" + gateway.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	r := gin.New()
	r.Use(auth.RequireIdentity(auth.NewIdentityVerifier("family", keys)))
	r.GET("/api/me", auth.Caller(true), func(c *gin.Context) {
		u, _ := auth.UserFrom(c)
		c.String(http.StatusOK, u.UID+"|"+u.Name)
	})
	r.GET("/api/open", auth.Caller(false), func(c *gin.Context) {
		_, ok := auth.UserFrom(c)
		c.JSON(http.StatusOK, ok)
	})
	r.DELETE("/api/me", auth.Caller(true), func(c *gin.Context) { c.Status(http.StatusNoContent) })
	call := func(path string, header ...string) (int, string) {
		method := http.MethodGet
		if m, p, found := strings.Cut(path, " "); found {
			method, path = m, p
		}
		req := httptest.NewRequest(method, path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		return w.Code, w.Body.String()
	}
	assertFor := func(s *auth.IdentitySigner, aud, method, path string) string {
		tok, err := s.Assert(auth.User{UID: "alice", Name: "Alice"}, true, aud, method, path)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	assert := func(s *auth.IdentitySigner, aud string) string {
		tok, err := s.Assert(auth.User{UID: "alice", Name: "Alice"}, true, aud, http.MethodGet, "/api/me")
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	expired := assert(gateway.WithTTL(-time.Minute), "family")
	for name, header := range map[string][]string{
		"forged X-User-Id, no assertion": {auth.HeaderUserID, "alice"},
		"forged X-User-Id, garbage":      {auth.HeaderUserID, "alice", auth.HeaderIdentity, "not-a-jwt"},
		"signed by an untrusted key":     {auth.HeaderIdentity, assert(attacker, "family")},
		"for another service":            {auth.HeaderIdentity, assert(gateway, "wishlist")},
		"expired":                        {auth.HeaderIdentity, expired},
		"too long-lived":                 {auth.HeaderIdentity, assert(gateway.WithTTL(time.Hour), "family")},
		"alg none with the right claims": {auth.HeaderIdentity, "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJpc3MiOiJnYXRld2F5Iiwic3ViIjoiYWxpY2UiLCJhdWQiOlsiZmFtaWx5Il0sImV4cCI6NDEwMjQ0NDgwMH0."},
		// Captured on its way to another route of the same service, or unbound (no htm/htu).
		"made for another route":  {auth.HeaderIdentity, assertFor(gateway, "family", http.MethodGet, "/api/open")},
		"made for another method": {auth.HeaderIdentity, assertFor(gateway, "family", http.MethodDelete, "/api/me")},
		"made for no request":     {auth.HeaderIdentity, assertFor(gateway, "family", "", "")},
	} {
		if code, body := call("/api/me", header...); code != http.StatusUnauthorized {
			t.Errorf("%s: %d %s, want 401", name, code, body)
		}
	}
	if code, body := call("/api/me", auth.HeaderIdentity, assert(gateway, "family"), auth.HeaderUserID, "mallory"); code != http.StatusOK || body != "alice|Alice" {
		t.Errorf("valid assertion: %d %q, want alice (the header is ignored)", code, body)
	}
	// The GET's assertion replayed as a DELETE of the same path is refused; its own works.
	if code, _ := call("DELETE /api/me", auth.HeaderIdentity, assert(gateway, "family")); code != http.StatusUnauthorized {
		t.Errorf("a GET's assertion replayed on DELETE: %d, want 401", code)
	}
	if code, _ := call("DELETE /api/me", auth.HeaderIdentity, assertFor(gateway, "family", http.MethodDelete, "/api/me")); code != http.StatusNoContent {
		t.Errorf("DELETE with its own assertion: %d, want 204", code)
	}
	visitor, err := gateway.Assert(auth.User{}, false, "family", http.MethodGet, "/api/me")
	if err != nil {
		t.Fatal(err)
	}
	if code, _ := call("/api/me", auth.HeaderIdentity, visitor); code != http.StatusUnauthorized {
		t.Errorf("visitor on a signed-in route: %d, want 401", code)
	}
	visitor, err = gateway.Assert(auth.User{}, false, "family", http.MethodGet, "/api/open")
	if err != nil {
		t.Fatal(err)
	}
	if code, body := call("/api/open", auth.HeaderIdentity, visitor); code != http.StatusOK || body != "false" {
		t.Errorf("visitor on an open route: %d %s", code, body)
	}
	if code, _ := call("/api/open"); code != http.StatusUnauthorized {
		t.Errorf("open route without any assertion: %d, want 401", code)
	}
}

// Both ends remember recent assertions (signing and checking one is most of a proxied
// request's CPU). From the attacker's side: a remembered token is accepted for nothing it would
// not be accepted for afresh: not past its expiry, not on another method or path, not with a
// byte changed, and never for another user.
func TestRememberedAssertionsAreAcceptedForNothingMore(t *testing.T) {
	gateway := newSigner(t, "gateway")
	keys, err := auth.ParsePublicKeys("gateway=" + gateway.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	family := auth.NewIdentityVerifier("family", keys)
	t0 := time.Now()
	now := t0
	auth.SetClock(gateway, family, func() time.Time { return now })
	alice, bob := auth.User{UID: "alice", Name: "Alice"}, auth.User{UID: "bob", Name: "Bob"}
	sign := func(u auth.User, signedIn bool, method, path string) string {
		t.Helper()
		tok, err := gateway.Assert(u, signedIn, "family", method, path)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	verify := func(tok, method, path string) (string, error) {
		u, _, _, err := family.Verify(tok, method, path)
		return u.UID, err
	}

	first := sign(alice, true, http.MethodGet, "/api/me")
	if uid, err := verify(first, http.MethodGet, "/api/me"); err != nil || uid != "alice" {
		t.Fatalf("first check: %q %v", uid, err)
	}
	now = t0.Add(5 * time.Second)
	if again := sign(alice, true, http.MethodGet, "/api/me"); again != first {
		t.Error("the same request 5 s later was signed afresh, want the recent assertion")
	}
	// An assertion names the user, not the address they called from.
	fromElsewhere := alice
	fromElsewhere.IP = "203.0.113.7"
	if again := sign(fromElsewhere, true, http.MethodGet, "/api/me"); again != first {
		t.Error("the same user from another address was signed afresh, want the recent assertion")
	}
	for name, tok := range map[string]string{
		"another user":   sign(bob, true, http.MethodGet, "/api/me"),
		"a visitor":      sign(alice, false, http.MethodGet, "/api/me"),
		"another path":   sign(alice, true, http.MethodGet, "/api/other"),
		"another method": sign(alice, true, http.MethodDelete, "/api/me"),
	} {
		if tok == first {
			t.Errorf("%s got alice's GET /api/me assertion", name)
		}
	}
	if uid, err := verify(sign(bob, true, http.MethodGet, "/api/me"), http.MethodGet, "/api/me"); err != nil || uid != "bob" {
		t.Errorf("bob's own assertion: %q %v", uid, err)
	}
	// The remembered token, replayed elsewhere or altered.
	if _, err := verify(first, http.MethodDelete, "/api/me"); err == nil {
		t.Error("a remembered GET assertion was accepted on DELETE")
	}
	if _, err := verify(first, http.MethodGet, "/api/other"); err == nil {
		t.Error("a remembered assertion was accepted on another path")
	}
	sig := first[strings.LastIndex(first, ".")+1:]
	flipped := "A"
	if sig[0] == 'A' {
		flipped = "B"
	}
	if _, err := verify(first[:len(first)-len(sig)]+flipped+sig[1:], http.MethodGet, "/api/me"); err == nil {
		t.Error("a remembered assertion with its signature altered was accepted")
	}
	// A third of its life on, the signer makes a new one; past its expiry and the leeway, the
	// verifier refuses the old one though it remembers it.
	now = t0.Add(11 * time.Second)
	if renewed := sign(alice, true, http.MethodGet, "/api/me"); renewed == first {
		t.Error("an assertion was handed out again after a third of its life")
	}
	now = t0.Add(auth.DefaultAssertionTTL + 6*time.Second)
	if _, err := verify(first, http.MethodGet, "/api/me"); err == nil {
		t.Error("a remembered assertion was accepted after its expiry")
	}
}

func TestSignerKeysAreCheckedAtStartup(t *testing.T) {
	if _, err := auth.NewIdentitySigner("gateway", "c2hvcnQ=", 0); err == nil {
		t.Error("a short key was accepted")
	}
	if _, err := auth.ParsePublicKeys("gateway"); err == nil {
		t.Error("a key list without keys was accepted")
	}
	if _, err := auth.NewIdentitySigner("gateway", base64.StdEncoding.EncodeToString(make([]byte, 32)), time.Hour); err == nil {
		t.Error("an hour-long assertion lifetime was accepted")
	}
}

// The chart generates keys as PKCS #8 and certificates (Helm's genPrivateKey and
// genSelfSignedCertWithKey); both forms are read.
func TestKeysAreReadAsSeedsOrPKCS8AndCertificates(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "gateway"},
		NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour)}
	cert, err := x509.CreateCertificate(nil, tmpl, tmpl, pub, priv)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := auth.NewIdentitySigner("gateway", base64.StdEncoding.EncodeToString(der), 0)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := auth.ParsePublicKeys("gateway=" + base64.StdEncoding.EncodeToString(cert))
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := signer.Assert(auth.User{UID: "u"}, true, "media", http.MethodPost, "/internal/uploads")
	if u, ok, _, err := auth.NewIdentityVerifier("media", keys).Verify(tok, http.MethodPost, "/internal/uploads"); err != nil || !ok || u.UID != "u" {
		t.Fatalf("PKCS #8 key and certificate: %v %v %v", u, ok, err)
	}
}
