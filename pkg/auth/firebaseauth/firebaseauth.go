// Package firebaseauth verifies Firebase ID tokens at the gateway.
package firebaseauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	fbauth "firebase.google.com/go/v4/auth"
	"github.com/gin-gonic/gin"
	"golang.org/x/sync/singleflight"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
)

// ErrEmulatorNotAllowed stops a service that would accept unsigned tokens in production.
var ErrEmulatorNotAllowed = errors.New("FIREBASE_AUTH_EMULATOR_HOST is set, which makes every unsigned token valid; " +
	"set ALLOW_AUTH_EMULATOR=true only in development and tests")

// ErrEmulatorNeedsDemoProject refuses the emulator with a real project id: a switch left on,
// or two environment keys copied into a production release, must not make a real project's
// users forgeable. Firebase's own convention: emulator-only projects start with "demo-".
var ErrEmulatorNeedsDemoProject = errors.New("the Auth emulator is only allowed for a demo- project id")

// checkedAuthClient is the project's Auth client. With FIREBASE_AUTH_EMULATOR_HOST set the
// Admin SDK accepts unsigned tokens, so the emulator is refused unless allowEmulator says this
// is a development or test run, and then only for a demo- project.
func checkedAuthClient(ctx context.Context, projectID string, allowEmulator bool) (*fbauth.Client, error) {
	if os.Getenv("FIREBASE_AUTH_EMULATOR_HOST") != "" {
		if !allowEmulator {
			return nil, ErrEmulatorNotAllowed
		}
		if !strings.HasPrefix(projectID, "demo-") {
			return nil, fmt.Errorf("%w: FIREBASE_PROJECT_ID is %q", ErrEmulatorNeedsDemoProject, projectID)
		}
	}
	return newAuthClient(ctx, projectID)
}

// Verifier checks Firebase ID tokens.
type Verifier struct {
	client   *fbauth.Client
	cache    *tokenCache
	inFlight singleflight.Group
}

// NewVerifier builds a verifier for one Firebase project. It refuses the Auth emulator unless
// allowEmulator says this is a development or test run.
func NewVerifier(ctx context.Context, projectID string, allowEmulator bool) (*Verifier, error) {
	client, err := checkedAuthClient(ctx, projectID, allowEmulator)
	if err != nil {
		return nil, err
	}
	return &Verifier{client: client, cache: newTokenCache(time.Minute, 50_000)}, nil
}

// Verify checks a raw ID token and returns its user.
func (v *Verifier) Verify(ctx context.Context, idToken string) (auth.User, error) {
	now := time.Now()
	if u, ok := v.cache.get(idToken, now); ok {
		return u, nil
	}
	// A household's devices come back together (the app opened on Christmas morning, a pod
	// gone): the same token arrives many times at once, and is checked once for all of them.
	// The check outlives a caller that gives up, so the others still get its answer.
	u, err, _ := v.inFlight.Do(idToken, func() (any, error) {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), verifyTimeout)
		defer cancel()
		tok, err := v.client.VerifyIDToken(ctx, idToken)
		if err != nil {
			return auth.User{}, err
		}
		u := auth.User{UID: tok.UID}
		// Claims are untyped JSON: check each assertion instead of trusting the shape.
		if email, ok := tok.Claims["email"].(string); ok {
			u.Email = email
		}
		if name, ok := tok.Claims["name"].(string); ok {
			u.Name = name
		}
		v.cache.put(idToken, u, time.Unix(tok.Expires, 0), now)
		return u, nil
	})
	return u.(auth.User), err
}

// verifyTimeout bounds one token check (a certificate fetch, or the emulator's user lookup).
const verifyTimeout = 10 * time.Second

// Authenticate verifies the bearer token when there is one. With required set, a request
// without one is refused; a request with a bad token is always refused, so a client with an
// expired session learns it instead of silently acting as a visitor.
func (v *Verifier) Authenticate(required bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		token, err := auth.BearerToken(c.Request)
		if errors.Is(err, auth.ErrNoToken) {
			if required {
				httpserver.Abort(c, http.StatusUnauthorized, "unauthenticated", "You need to log in to do this.")
				return
			}
			c.Next()
			return
		}
		if err != nil {
			httpserver.Abort(c, http.StatusUnauthorized, "invalid_token", "The sign-in token is malformed. Please log in again.")
			return
		}
		user, err := v.Verify(c.Request.Context(), token)
		switch {
		case err == nil:
			auth.SetUser(c, user)
			c.Next()
		case fbauth.IsIDTokenExpired(err):
			httpserver.Abort(c, http.StatusUnauthorized, "token_expired", "Your session has expired. Please log in again.")
		case fbauth.IsCertificateFetchFailed(err):
			httpserver.Abort(c, http.StatusServiceUnavailable, "auth_unavailable", "Sign-in cannot be checked right now. Please try again shortly.")
		default:
			httpserver.Abort(c, http.StatusUnauthorized, "invalid_token", "The sign-in token is not valid. Please log in again.")
		}
	}
}

// DeleteUser deletes a Firebase user through the Admin SDK (a deleted account). A
// user already gone is not an error, so the call is idempotent.
func (v *Verifier) DeleteUser(ctx context.Context, uid string) error {
	if err := v.client.DeleteUser(ctx, uid); err != nil && !fbauth.IsUserNotFound(err) {
		return fmt.Errorf("delete firebase user: %w", err)
	}
	return nil
}
