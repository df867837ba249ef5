package auth

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/golang-jwt/jwt/v5"

	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/httpserver"
)

// HeaderIdentity carries the identity assertion: a short-lived JWT (EdDSA, Ed25519) that the
// caller (the gateway, or a service calling another) signs for one audience, the service it
// calls. Internal services refuse every request without a valid one, so reaching a service's
// port is not enough to act as a user. A signed-out visitor's request
// carries one too, without a subject: it proves the request came through the gateway.
const HeaderIdentity = "X-Identity-Assertion"

// Assertion lifetimes: the signer's default, and the longest a verifier accepts (so that a
// leaked assertion, or one minted with a far expiry, is of little use).
const (
	DefaultAssertionTTL = 30 * time.Second
	MaxAssertionTTL     = 2 * time.Minute
	assertionLeeway     = 5 * time.Second
)

// identityClaims are the assertion's claims: the registered ones (iss = the signing service,
// sub = the user's uid or empty for a visitor, aud = the called service, iat, exp), the
// user's email and display name, and the one request it was made for: its method and path,
// named as DPoP names them (RFC 9449: htm, htu). An assertion captured inside the cluster
// therefore cannot be replayed to another route, or with another method, while it lives.
type identityClaims struct {
	jwt.RegisteredClaims
	Email  string `json:"email,omitempty"`
	Name   string `json:"name,omitempty"`
	Method string `json:"htm"`
	Path   string `json:"htu"`
}

// IdentitySigner mints assertions as one issuer (IDENTITY_SIGNING_KEY).
type IdentitySigner struct {
	issuer string
	key    ed25519.PrivateKey
	ttl    time.Duration
	now    func() time.Time
	recent *signedAssertions // nil: every assertion is signed afresh
}

// NewIdentitySigner signs as issuer with the Ed25519 key given in standard base64, either as
// its 32-byte seed or as a PKCS #8 DER key (what the chart generates). ttl 0 means
// DefaultAssertionTTL.
func NewIdentitySigner(issuer, keyB64 string, ttl time.Duration) (*IdentitySigner, error) {
	seed, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(keyB64), ""))
	if err == nil && len(seed) != ed25519.SeedSize {
		var key any
		if key, err = x509.ParsePKCS8PrivateKey(seed); err == nil {
			if k, ok := key.(ed25519.PrivateKey); ok {
				seed = k.Seed()
			}
		}
	}
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, errors.New("IDENTITY_SIGNING_KEY must be the base64 of a 32-byte Ed25519 seed or of a PKCS #8 Ed25519 key")
	}
	if ttl <= 0 {
		ttl = DefaultAssertionTTL
	}
	if ttl > MaxAssertionTTL {
		return nil, fmt.Errorf("identity assertions may live at most %s, got %s", MaxAssertionTTL, ttl)
	}
	return &IdentitySigner{issuer: issuer, key: ed25519.NewKeyFromSeed(seed), ttl: ttl, now: time.Now,
		recent: newSignedAssertions()}, nil
}

// PublicKey is the base64 public key verifiers are given for this signer.
func (s *IdentitySigner) PublicKey() string {
	return base64.StdEncoding.EncodeToString(s.key.Public().(ed25519.PublicKey))
}

// Issuer is the name the signer signs as.
func (s *IdentitySigner) Issuer() string { return s.issuer }

// WithTTL returns a signer whose assertions live ttl (tests: an expired one), each signed
// afresh.
func (s *IdentitySigner) WithTTL(ttl time.Duration) *IdentitySigner {
	cp := *s
	cp.ttl = ttl
	cp.recent = nil
	return &cp
}

// Assert signs an assertion of u (a visitor when ok is false) for the audience, for one
// request: method and path (the URL's path, without the query).
func (s *IdentitySigner) Assert(u User, ok bool, audience, method, path string) (string, error) {
	now := s.now()
	if !ok {
		u = User{}
	}
	// The assertion names the user, not the address they called from (each hop sees its
	// own), so the address is no part of what is signed nor of the key it is reused by.
	u.IP = ""
	req := assertionRequest{user: u, signedIn: ok, audience: audience, method: method, path: path}
	if token, found := s.recent.get(req, now); found {
		return token, nil
	}
	claims := identityClaims{RegisteredClaims: jwt.RegisteredClaims{
		Issuer:    s.issuer,
		Audience:  jwt.ClaimStrings{audience},
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(s.ttl)),
	}, Method: method, Path: path}
	if ok {
		claims.Subject, claims.Email, claims.Name = u.UID, u.Email, u.Name
	}
	token, err := jwt.NewWithClaims(jwt.SigningMethodEdDSA, claims).SignedString(s.key)
	if err == nil {
		s.recent.put(req, token, now, s.ttl)
	}
	return token, err
}

// SetHeaders prepares an internal call to audience: any identity headers the client sent are
// removed, and the assertion of u (a visitor when ok is false), bound to req's method and
// path, is set. Call it once req's method and URL are final.
func (s *IdentitySigner) SetHeaders(req *http.Request, u User, ok bool, audience string) error {
	h := req.Header
	h.Del(HeaderIdentity)
	h.Del(HeaderUserID)
	h.Del(HeaderUserEmail)
	h.Del(HeaderUserName)
	token, err := s.Assert(u, ok, audience, req.Method, req.URL.Path)
	if err != nil {
		return err
	}
	h.Set(HeaderIdentity, token)
	return nil
}

// IdentityVerifier checks assertions addressed to one service, signed by the issuers it trusts.
type IdentityVerifier struct {
	audience string
	keys     map[string]ed25519.PublicKey
	parser   *jwt.Parser
	recent   *verifiedAssertions
	now      func() time.Time
}

// ParsePublicKeys reads "issuer=base64key,issuer=base64key" (IDENTITY_PUBLIC_KEYS); a key is
// the 32-byte Ed25519 public key or a DER certificate holding one (what the chart generates),
// in standard base64.
func ParsePublicKeys(s string) (map[string]ed25519.PublicKey, error) {
	keys := map[string]ed25519.PublicKey{}
	for _, entry := range strings.Split(s, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		issuer, b64, ok := strings.Cut(entry, "=")
		issuer = strings.TrimSpace(issuer)
		raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(b64), ""))
		if err == nil && len(raw) != ed25519.PublicKeySize {
			var cert *x509.Certificate
			if cert, err = x509.ParseCertificate(raw); err == nil {
				if k, isEd := cert.PublicKey.(ed25519.PublicKey); isEd {
					raw = k
				}
			}
		}
		if !ok || issuer == "" || err != nil || len(raw) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("IDENTITY_PUBLIC_KEYS: %q is not issuer=<base64 of a 32-byte Ed25519 public key>", entry)
		}
		keys[issuer] = ed25519.PublicKey(raw)
	}
	if len(keys) == 0 {
		return nil, errors.New("IDENTITY_PUBLIC_KEYS names no trusted issuer")
	}
	return keys, nil
}

// NewIdentityVerifier accepts assertions for audience signed by one of keys' issuers.
func NewIdentityVerifier(audience string, keys map[string]ed25519.PublicKey) *IdentityVerifier {
	v := &IdentityVerifier{audience: audience, keys: keys, recent: newVerifiedAssertions(), now: time.Now}
	v.parser = jwt.NewParser(
		jwt.WithValidMethods([]string{jwt.SigningMethodEdDSA.Alg()}),
		jwt.WithAudience(audience),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(assertionLeeway),
		jwt.WithTimeFunc(func() time.Time { return v.now() }),
	)
	return v
}

// Issuers lists the trusted issuers (for the startup log).
func (v *IdentityVerifier) Issuers() []string {
	if v == nil {
		return nil
	}
	names := make([]string, 0, len(v.keys))
	for k := range v.keys {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// Verify checks an assertion: signature by a trusted issuer, audience, expiry, and that it was
// made for this request (method and path). It returns the user it asserts (ok false for a
// visitor) and the issuer.
func (v *IdentityVerifier) Verify(token, method, path string) (u User, ok bool, issuer string, err error) {
	if seen, found := v.recent.get(token, v.now()); found {
		if seen.method != method || seen.path != path {
			return User{}, false, "", fmt.Errorf("assertion was made for %s %s, not %s %s", seen.method, seen.path, method, path)
		}
		return seen.user, seen.signedIn, seen.issuer, nil
	}
	var claims identityClaims
	_, err = v.parser.ParseWithClaims(token, &claims, func(t *jwt.Token) (any, error) {
		iss, _ := t.Claims.GetIssuer()
		key, found := v.keys[iss]
		if !found {
			return nil, fmt.Errorf("issuer %q is not trusted", iss)
		}
		return key, nil
	})
	if err != nil {
		return User{}, false, "", err
	}
	if claims.IssuedAt == nil || claims.ExpiresAt.Sub(claims.IssuedAt.Time) > MaxAssertionTTL {
		return User{}, false, "", errors.New("assertion lives longer than allowed")
	}
	if claims.Method != method || claims.Path != path {
		return User{}, false, "", fmt.Errorf("assertion was made for %s %s, not %s %s", claims.Method, claims.Path, method, path)
	}
	seen := verifiedAssertion{issuer: claims.Issuer, method: claims.Method, path: claims.Path,
		acceptTill: claims.ExpiresAt.Add(assertionLeeway)}
	if claims.Subject != "" {
		seen.user, seen.signedIn = User{UID: claims.Subject, Email: claims.Email, Name: claims.Name}, true
	}
	v.recent.put(token, seen)
	return seen.user, seen.signedIn, seen.issuer, nil
}

const issuerKey = "auth.issuer"

// RequireIdentity refuses (401) every request without a valid assertion for this service and
// records the user it asserts. Register it before the routes (gin applies Use to routes added
// after it), after /healthz.
func RequireIdentity(v *IdentityVerifier) gin.HandlerFunc {
	return func(c *gin.Context) {
		token := c.GetHeader(HeaderIdentity)
		if v == nil || token == "" {
			httpserver.Abort(c, http.StatusUnauthorized, "unauthenticated", "This service answers only calls from inside Santa Wishlist.")
			return
		}
		u, ok, iss, err := v.Verify(token, c.Request.Method, c.Request.URL.Path)
		if err != nil {
			httpserver.Abort(c, http.StatusUnauthorized, "unauthenticated", "This service answers only calls from inside Santa Wishlist.")
			return
		}
		c.Set(issuerKey, iss)
		if ok {
			SetUser(c, u)
		}
		c.Next()
	}
}

// IssuerFrom returns which service signed the request's assertion.
func IssuerFrom(c *gin.Context) string { return c.GetString(issuerKey) }

// IdentityVerifierFromEnv reads IDENTITY_PUBLIC_KEYS (required) for a service called audience.
func IdentityVerifierFromEnv(env *config.Env, audience string) *IdentityVerifier {
	raw := env.Required("IDENTITY_PUBLIC_KEYS")
	if raw == "" {
		return nil
	}
	keys, err := ParsePublicKeys(raw)
	if err != nil {
		env.Problem("%v", err)
		return nil
	}
	return NewIdentityVerifier(audience, keys)
}

// IdentitySignerFromEnv reads IDENTITY_SIGNING_KEY (required) and IDENTITY_ASSERTION_TTL for
// a service that calls others as issuer.
func IdentitySignerFromEnv(env *config.Env, issuer string) *IdentitySigner {
	raw := env.Required("IDENTITY_SIGNING_KEY")
	ttl := env.Duration("IDENTITY_ASSERTION_TTL", DefaultAssertionTTL)
	if raw == "" {
		return nil
	}
	s, err := NewIdentitySigner(issuer, raw, ttl)
	if err != nil {
		env.Problem("%v", err)
		return nil
	}
	return s
}
