package auth_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
)

// A generated server's routes share one middleware, so CallerFor reads each route's sign-in
// from the table apigen makes of the spec's security: a visitor is let in where the spec lets
// anyone in, and refused where it needs a token or where the table does not know the route.
func TestCallerForFollowsTheTable(t *testing.T) {
	table := map[string]bool{"GET /open/:id": false, "POST /closed": true}
	r := gin.New()
	r.Use(func(c *gin.Context) {
		if c.GetHeader("X-Test-User") != "" {
			auth.SetUser(c, auth.User{UID: c.GetHeader("X-Test-User")})
		}
	})
	check := auth.CallerFor(table)
	ok := func(c *gin.Context) {
		if check(c); !c.IsAborted() {
			c.Status(http.StatusNoContent)
		}
	}
	r.GET("/open/:id", ok)
	r.POST("/closed", ok)
	r.GET("/unknown", ok)
	for _, tc := range []struct {
		method, path, user string
		want               int
	}{
		{"GET", "/open/1", "", http.StatusNoContent},
		{"POST", "/closed", "", http.StatusUnauthorized},
		{"POST", "/closed", "alice", http.StatusNoContent},
		{"GET", "/unknown", "", http.StatusUnauthorized},
		{"GET", "/unknown", "alice", http.StatusNoContent},
	} {
		w := httptest.NewRecorder()
		req := httptest.NewRequest(tc.method, tc.path, nil)
		if tc.user != "" {
			req.Header.Set("X-Test-User", tc.user)
		}
		r.ServeHTTP(w, req)
		if w.Code != tc.want {
			t.Errorf("%s %s as %q: %d, want %d (%s)", tc.method, tc.path, tc.user, w.Code, tc.want, w.Body)
		}
	}
}
