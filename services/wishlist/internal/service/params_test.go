package service_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

// The generated server binds each route's parameters before its handler; what its binding
// would refuse (an empty path segment, a repeated listId or Idempotency-Key) is still answered
// by the handler, as it was before the server was generated: never the wrapper's 400.
func TestParametersTheWrapperRefusesReachTheHandler(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	w := start(t, dbURL, testenv.StartNATS(t).URL())
	c := testenv.NewClient(t, w.base)
	testenv.AsUser(t, c, "wishlist", auth.User{UID: "alice"})

	c.Header["Idempotency-Key"] = []string{"one", "two"}
	r := c.Send("POST", "/api/wishlist", map[string]any{"name": "Kite", "description": "A red kite for the beach"})
	if r.Status != http.StatusCreated {
		t.Errorf("POST /api/wishlist with two Idempotency-Keys: %d %s", r.Status, r.Body)
	}
	delete(c.Header, "Idempotency-Key")

	one := c.Send("GET", "/api/wishlist?listId=00000000-0000-0000-0000-000000000001", nil)
	two := c.Send("GET", "/api/wishlist?listId=00000000-0000-0000-0000-000000000001&listId=x", nil)
	if one.Status != two.Status || string(one.Body) != string(two.Body) {
		t.Errorf("a repeated listId is the first one: %d %s, not %d %s", two.Status, two.Body, one.Status, one.Body)
	}

	for _, call := range [][2]string{
		{"DELETE", "/api/lists//share"},
		{"POST", "/api/lists//managers"},
		{"DELETE", "/api/shared//items/x/claim"},
		{"POST", "/api/wishlist//thanks"},
	} {
		r := c.Send(call[0], call[1], map[string]any{})
		if r.Status == http.StatusBadRequest && strings.Contains(string(r.Body), "invalid_parameter") {
			t.Errorf("%s %s: the wrapper's %d %s", call[0], call[1], r.Status, r.Body)
		}
		t.Logf("%s %s: %d %s", call[0], call[1], r.Status, r.Body)
	}
}
