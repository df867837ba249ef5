package ports_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/family/internal/ports"
)

// The family service's public routes are the paths api/openapi.yaml gives it (the gateway
// forwards them unchanged). They are generated from the spec now; this holds Register to it.
func TestRoutesAreTheSpecs(t *testing.T) {
	r := gin.New()
	ports.Register(r, nil)
	testenv.RoutesMatchSpec(t, r, "family")
}

// A visitor is refused before anything else, even with a header parameter sent twice (which
// the generated wrapper alone would answer 400); the invitation page stays open to visitors.
func TestVisitorsAreRefusedAsBefore(t *testing.T) {
	r := gin.New()
	ports.Register(r, nil)
	for _, tc := range []struct {
		method, path string
		want         int
	}{
		{"POST", "/api/families", http.StatusUnauthorized},
		{"POST", "/api/families/f1/invites", http.StatusUnauthorized},
		{"GET", "/api/families/not-a-uuid", http.StatusUnauthorized},
		{"POST", "/api/invites/t1/accept", http.StatusUnauthorized},
	} {
		w := httptest.NewRecorder()
		req := httptest.NewRequest(tc.method, tc.path, nil)
		req.Header.Add("Idempotency-Key", "a")
		req.Header.Add("Idempotency-Key", "b")
		req.Header.Add("Accept-Language", "de")
		req.Header.Add("Accept-Language", "fr")
		r.ServeHTTP(w, req)
		if w.Code != tc.want {
			t.Errorf("%s %s: %d, want %d (%s)", tc.method, tc.path, w.Code, tc.want, w.Body)
		}
	}
}
