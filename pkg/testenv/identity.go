package testenv

import (
	"crypto/ed25519"
	"encoding/base64"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/santa-wishlist/santa/pkg/auth"
)

// The test run's identity keys: one Ed25519 key per issuer, made once per process.
var (
	signersOnce sync.Once
	signers     map[string]*auth.IdentitySigner
	seeds       map[string]string
)

func testSigners() map[string]*auth.IdentitySigner {
	signersOnce.Do(func() {
		signers, seeds = map[string]*auth.IdentitySigner{}, map[string]string{}
		for _, issuer := range []string{"gateway", "wishlist", "vision", "attacker"} {
			_, priv, err := ed25519.GenerateKey(nil)
			if err != nil {
				panic(err)
			}
			seeds[issuer] = base64.StdEncoding.EncodeToString(priv.Seed())
			s, err := auth.NewIdentitySigner(issuer, seeds[issuer], 0)
			if err != nil {
				panic(err)
			}
			signers[issuer] = s
		}
	})
	return signers
}

// IdentitySigner is the test signer for issuer ("gateway", "wishlist", "vision", or
// "attacker", whose key no service trusts).
func IdentitySigner(issuer string) *auth.IdentitySigner { return testSigners()[issuer] }

// IdentityVerifier is what a service called audience is configured with in tests: it trusts
// the test gateway, wishlist and vision keys (not the attacker's).
func IdentityVerifier(audience string) *auth.IdentityVerifier {
	keys := map[string]ed25519.PublicKey{}
	for _, issuer := range []string{"gateway", "wishlist", "vision"} {
		raw, _ := base64.StdEncoding.DecodeString(IdentitySigner(issuer).PublicKey())
		keys[issuer] = raw
	}
	return auth.NewIdentityVerifier(audience, keys)
}

// Assertion is the header value the gateway would send to audience for uid ("" for a
// signed-out visitor), for the request method path.
func Assertion(t testing.TB, audience, uid, method, path string) string {
	t.Helper()
	token, err := IdentitySigner("gateway").Assert(auth.User{UID: uid}, uid != "", audience, method, path)
	if err != nil {
		t.Fatal(err)
	}
	return token
}

// AsUser makes c send each request with the assertion the gateway would send to audience
// for u, made for that request.
func AsUser(t testing.TB, c *Client, audience string, u auth.User) {
	c.Sign = func(req *http.Request) { SignRequest(t, req, audience, u) }
}

// SignRequest sets on req the assertion the gateway would send to audience for u.
func SignRequest(t testing.TB, req *http.Request, audience string, u auth.User) {
	t.Helper()
	if err := IdentitySigner("gateway").SetHeaders(req, u, u.UID != "", audience); err != nil {
		t.Fatal(err)
	}
}

// IdentitySigningKey is the test key of issuer, as IDENTITY_SIGNING_KEY takes it.
func IdentitySigningKey(issuer string) string {
	testSigners()
	return seeds[issuer]
}

// IdentityPublicKeys is IDENTITY_PUBLIC_KEYS trusting the test signers of issuers.
func IdentityPublicKeys(issuers ...string) string {
	var parts []string
	for _, issuer := range issuers {
		parts = append(parts, issuer+"="+IdentitySigner(issuer).PublicKey())
	}
	return strings.Join(parts, ",")
}

// AssertedUser verifies the assertion a request to audience carries (as that service would)
// and returns its user ("" for a visitor) and issuer.
func AssertedUser(r *http.Request, audience string) (auth.User, string, error) {
	u, _, issuer, err := IdentityVerifier(audience).Verify(r.Header.Get(auth.HeaderIdentity), r.Method, r.URL.Path)
	return u, issuer, err
}
