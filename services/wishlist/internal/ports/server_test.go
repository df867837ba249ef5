package ports

import (
	"strings"
	"testing"
)

// Every generated route with a parameter the wrapper could refuse (a path parameter, listId,
// Idempotency-Key) reaches its handler through bindFailed, and unbound names no other route.
func TestEveryRouteWithParametersIsUnbound(t *testing.T) {
	withParams := map[string]bool{"GET /api/wishlist": true, "POST /api/wishlist": true, "POST /api/santa": true, "POST /api/lists": true}
	for route := range signedIn {
		if strings.Contains(route, ":") {
			withParams[route] = true
		}
	}
	for route := range withParams {
		if _, ok := unbound[route]; !ok {
			t.Errorf("%s is not in unbound", route)
		}
	}
	for route := range unbound {
		if !withParams[route] {
			t.Errorf("unbound names %s, which has no parameter or is not generated", route)
		}
	}
}
