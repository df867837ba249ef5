// Package auth verifies Firebase ID tokens at the gateway and carries the verified caller to
// the internal services in headers.
package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	firebase "firebase.google.com/go/v4"
	fbauth "firebase.google.com/go/v4/auth"
	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/apierror"
)

// Headers the gateway sets after verifying a token. Internal services trust them because the
// network policy lets only the gateway reach them; the gateway strips any a client sends.
const (
	HeaderUserID    = "X-User-Id"
	HeaderUserEmail = "X-User-Email"
	HeaderUserName  = "X-User-Name"
)

const userKey = "auth.user"

// User is the verified caller.
type User struct {
	UID   string
	Email string
	Name  string
}

// ErrEmulatorNotAllowed stops a service that would accept unsigned tokens in production.
var ErrEmulatorNotAllowed = errors.New("FIREBASE_AUTH_EMULATOR_HOST is set, which makes every unsigned token valid; " +
	"set ALLOW_AUTH_EMULATOR=true only in development and tests")

// Verifier checks Firebase ID tokens.
type Verifier struct {
	client *fbauth.Client
	cache  *tokenCache
}

// NewVerifier builds a verifier for one Firebase project. It refuses the Auth emulator unless
// allowEmulator says this is a development or test run.
func NewVerifier(ctx context.Context, projectID string, allowEmulator bool) (*Verifier, error) {
	if os.Getenv("FIREBASE_AUTH_EMULATOR_HOST") != "" && !allowEmulator {
		return nil, ErrEmulatorNotAllowed
	}
	app, err := firebase.NewApp(ctx, &firebase.Config{ProjectID: projectID})
	if err != nil {
		return nil, fmt.Errorf("firebase app: %w", err)
	}
	client, err := app.Auth(ctx)
	if err != nil {
		return nil, fmt.Errorf("firebase auth client: %w", err)
	}
	return &Verifier{client: client, cache: newTokenCache(time.Minute, 50_000)}, nil
}

// ErrNoToken means the request carried no bearer token.
var ErrNoToken = errors.New("no bearer token")

// Verify checks a raw ID token and returns its user.
func (v *Verifier) Verify(ctx context.Context, idToken string) (User, error) {
	now := time.Now()
	if u, ok := v.cache.get(idToken, now); ok {
		return u, nil
	}
	tok, err := v.client.VerifyIDToken(ctx, idToken)
	if err != nil {
		return User{}, err
	}
	u := User{UID: tok.UID}
	// Claims are untyped JSON: check each assertion instead of trusting the shape.
	if email, ok := tok.Claims["email"].(string); ok {
		u.Email = email
	}
	if name, ok := tok.Claims["name"].(string); ok {
		u.Name = name
	}
	v.cache.put(idToken, u, time.Unix(tok.Expires, 0), now)
	return u, nil
}

// BearerToken returns the token of an "Authorization: Bearer ..." header.
func BearerToken(r *http.Request) (string, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", ErrNoToken
	}
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return "", errors.New("malformed authorization header")
	}
	return strings.TrimSpace(token), nil
}

// Authenticate verifies the bearer token when there is one. With required set, a request
// without one is refused; a request with a bad token is always refused, so a client with an
// expired session learns it instead of silently acting as a visitor.
func (v *Verifier) Authenticate(required bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		token, err := BearerToken(c.Request)
		if errors.Is(err, ErrNoToken) {
			if required {
				apierror.Abort(c, http.StatusUnauthorized, "unauthenticated", "You need to log in to do this.")
				return
			}
			c.Next()
			return
		}
		if err != nil {
			apierror.Abort(c, http.StatusUnauthorized, "invalid_token", "The sign-in token is malformed. Please log in again.")
			return
		}
		user, err := v.Verify(c.Request.Context(), token)
		switch {
		case err == nil:
			c.Set(userKey, user)
			c.Next()
		case fbauth.IsIDTokenExpired(err):
			apierror.Abort(c, http.StatusUnauthorized, "token_expired", "Your session has expired. Please log in again.")
		case fbauth.IsCertificateFetchFailed(err):
			apierror.Abort(c, http.StatusServiceUnavailable, "auth_unavailable", "Sign-in cannot be checked right now. Please try again shortly.")
		default:
			apierror.Abort(c, http.StatusUnauthorized, "invalid_token", "The sign-in token is not valid. Please log in again.")
		}
	}
}

// UserFrom returns the verified user of a request, if any.
func UserFrom(c *gin.Context) (User, bool) {
	v, ok := c.Get(userKey)
	if !ok {
		return User{}, false
	}
	u, ok := v.(User)
	return u, ok
}

// FromGatewayHeaders is the internal services' side: it reads the caller the gateway
// verified. With required set, a request without one is refused.
func FromGatewayHeaders(required bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		uid := c.GetHeader(HeaderUserID)
		if uid == "" {
			if required {
				apierror.Abort(c, http.StatusUnauthorized, "unauthenticated", "You need to log in to do this.")
				return
			}
			c.Next()
			return
		}
		name, err := url.QueryUnescape(c.GetHeader(HeaderUserName))
		if err != nil {
			name = ""
		}
		c.Set(userKey, User{UID: uid, Email: c.GetHeader(HeaderUserEmail), Name: name})
		c.Next()
	}
}

// SetHeaders writes the verified user into headers for an internal call, replacing any the
// client sent.
func SetHeaders(h http.Header, u User, ok bool) {
	h.Del(HeaderUserID)
	h.Del(HeaderUserEmail)
	h.Del(HeaderUserName)
	if !ok {
		return
	}
	h.Set(HeaderUserID, u.UID)
	if u.Email != "" {
		h.Set(HeaderUserEmail, u.Email)
	}
	if u.Name != "" {
		// Header values must be printable ASCII; names may not be, so they travel escaped.
		h.Set(HeaderUserName, url.QueryEscape(u.Name))
	}
}
