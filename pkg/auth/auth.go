// Package auth carries the verified caller from the gateway to the internal services in a
// signed identity assertion (identity.go). Token verification itself lives in auth/firebaseauth, so that only the gateway links
// the Firebase SDK (and its large dependency tree).
package auth

import (
	"errors"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/caller"
	"github.com/santa-wishlist/santa/pkg/httpserver"
)

// Headers that once carried the caller in plain text. Nothing trusts them any more (the user
// travels in the signed HeaderIdentity); callers still strip any a client sends.
const (
	HeaderUserID    = "X-User-Id"
	HeaderUserEmail = "X-User-Email"
	HeaderUserName  = "X-User-Name"
)

const userKey = "auth.user"

// User is the verified caller. It is caller.Caller itself, not a copy, so that a service's port
// hands the user it got from the identity assertion straight to its app layer.
type User = caller.Caller

// ErrNoToken means the request carried no bearer token.
var ErrNoToken = errors.New("no bearer token")

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

// SetUser records the verified user of a request.
func SetUser(c *gin.Context, u User) { c.Set(userKey, u) }

// UserFrom returns the verified user of a request, if any.
func UserFrom(c *gin.Context) (User, bool) {
	v, ok := c.Get(userKey)
	if !ok {
		return User{}, false
	}
	u, ok := v.(User)
	return u, ok
}

// Caller is the internal services' side of a route: the user comes from the identity
// assertion RequireIdentity verified (never from a plain header). With required set, a request
// without a user (a visitor's) is refused.
func Caller(required bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		if _, ok := UserFrom(c); !ok && required {
			unauthenticated(c)
			return
		}
		c.Next()
	}
}

// CallerFor is Caller for the routes of a server oapi-codegen generates from the spec, as an
// entry of its GinServerOptions.Middlewares (which every route shares): signedIn is the table
// apigen writes beside that server, each route's method and gin path with whether the spec's
// security needs a signed-in caller. A route the table does not know needs one.
func CallerFor(signedIn map[string]bool) func(*gin.Context) {
	return func(c *gin.Context) {
		required, known := signedIn[c.Request.Method+" "+c.FullPath()]
		if _, ok := UserFrom(c); !ok && (required || !known) {
			unauthenticated(c)
		}
	}
}

func unauthenticated(c *gin.Context) {
	httpserver.Abort(c, http.StatusUnauthorized, "unauthenticated", "You need to log in to do this.")
}
