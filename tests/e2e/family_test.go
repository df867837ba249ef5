//go:build e2e

package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

func newNamedUser(t *testing.T, prefix, name string) *client {
	s := testenv.SignUp(t, testenv.UniqueEmail(prefix), "secret123", name)
	return &client{t: t, base: baseURL(t), token: s.IDToken}
}

// must calls through the gateway and fails unless the status is want.
func (c *client) must(want int, method, path string, body, out any) []byte {
	c.t.Helper()
	var raw []byte
	if body != nil {
		raw, _ = json.Marshal(body)
	}
	code, b, _ := c.do(method, path, raw)
	if code != want {
		c.t.Fatalf("%s %s: %d %s (want %d)", method, path, code, b, want)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			c.t.Fatalf("%s %s: %v", method, path, err)
		}
	}
	return b
}

// nothingFor fails if the stream delivers any event within d.
func nothingFor(t *testing.T, c <-chan liveEvent, d time.Duration) {
	t.Helper()
	select {
	case e := <-c:
		t.Fatalf("unexpected live event %s %s", e.Event, e.Data)
	case <-time.After(d):
	}
}

// The whole family story through the gateway with Firebase tokens: a visitor opens the link,
// the family claims, a viewer hears of it live, the owner hears and sees nothing until the
// reveal date, and strangers get 404s.
func TestFamilyClaimsThroughTheGatewayNeverReachTheOwner(t *testing.T) {
	owner := newNamedUser(t, "emma", "Emma")
	aunt := newNamedUser(t, "aunt", "Aunt Mary")
	uncle := newNamedUser(t, "uncle", "Uncle Bob")
	mallory := newNamedUser(t, "mallory", "Mallory")
	visitor := &client{t: t, base: baseURL(t)}

	ownerLive := owner.stream(t)
	expect(t, ownerLive, "hello", "count")
	var lists []struct {
		ID        string `json:"id"`
		IsDefault bool   `json:"isDefault"`
	}
	owner.must(200, "GET", "/api/lists", nil, &lists)
	listID := lists[0].ID
	var bike item
	owner.must(201, "POST", "/api/wishlist", map[string]any{"name": "Red bicycle", "description": "A red bicycle with a bell",
		"category": "Toys", "quantity": 2, "priority": 3, "listId": listID}, &bike)
	expect(t, ownerLive, "wishlist-count", bike.ID)
	var share struct{ Token, URL string }
	owner.must(200, "POST", "/api/lists/"+listID+"/share", nil, &share)
	if share.URL != "/l/"+share.Token {
		t.Fatalf("share %+v", share)
	}

	var seen struct {
		Viewer string
		List   struct{ Name, OwnerName string }
		Items  []map[string]any
	}
	visitor.must(200, "GET", "/api/shared/"+share.Token, nil, &seen)
	if seen.Viewer != "anonymous" || seen.List.OwnerName != "Emma" || len(seen.Items) != 1 {
		t.Fatalf("visitor's view: %+v", seen)
	}
	if _, has := seen.Items[0]["claimed"]; has { // nobody signed out learns what is taken
		t.Fatalf("visitor's view has claim fields: %+v", seen.Items[0])
	}
	claim := "/api/shared/" + share.Token + "/items/" + bike.ID + "/claim"
	if code, b := visitor.json("PUT", claim, map[string]any{"quantity": 1}); code != http.StatusUnauthorized {
		t.Fatalf("anonymous claim: %d %s", code, b)
	}
	unknown := visitor.must(404, "GET", "/api/shared/"+strings.Repeat("x", 43), nil, nil)

	uncleLive := uncle.stream(t)
	expect(t, uncleLive, "hello", "count")
	uncle.must(200, "GET", "/api/shared/"+share.Token, nil, &seen)
	if seen.Viewer != "member" {
		t.Fatalf("uncle is %q", seen.Viewer)
	}
	auntLive := aunt.stream(t)
	expect(t, auntLive, "hello", "count")

	before := owner.must(200, "GET", "/api/wishlist", nil, nil)
	beforeShared := owner.must(200, "GET", "/api/shared/"+share.Token, nil, nil)
	var got struct{ Claimed, Mine int }
	aunt.must(200, "PUT", claim, map[string]any{"quantity": 1, "purchased": true}, &got)
	if got.Claimed != 1 || got.Mine != 1 {
		t.Fatalf("aunt's claim: %+v", got)
	}
	expect(t, uncleLive, "shared-list-changed", listID)
	uncle.must(200, "GET", "/api/shared/"+share.Token, nil, &seen)
	if seen.Items[0]["claimed"] != 1.0 || seen.Items[0]["mine"] != 0.0 {
		t.Fatalf("uncle does not see it taken: %v", seen.Items[0])
	}

	// The owner: the same bytes as before the claim, a 403 that says nothing of claims, no event.
	if after := owner.must(200, "GET", "/api/wishlist", nil, nil); string(after) != string(before) {
		t.Fatalf("the owner's list changed with a claim:\n%s\n%s", before, after)
	}
	if after := owner.must(200, "GET", "/api/shared/"+share.Token, nil, nil); string(after) != string(beforeShared) {
		t.Fatalf("the owner's shared view changed with a claim:\n%s\n%s", beforeShared, after)
	}
	var refused struct {
		Error struct{ Code, Message string }
	}
	owner.must(403, "PUT", claim, map[string]any{"quantity": 1}, &refused)
	if refused.Error.Code != "own_list" {
		t.Fatalf("owner's claim: %+v", refused)
	}
	nothingFor(t, ownerLive, 1500*time.Millisecond)

	// Strangers: another user's list, share and claims are 404s or empty.
	mallory.must(404, "GET", "/api/wishlist?listId="+listID, nil, nil)
	mallory.must(404, "PATCH", "/api/lists/"+listID, map[string]any{"name": "Mine"}, nil)
	mallory.must(404, "POST", "/api/lists/"+listID+"/share", nil, nil)
	mallory.must(404, "DELETE", "/api/wishlist/"+bike.ID, nil, nil)
	if b := mallory.must(200, "GET", "/api/claims", nil, nil); string(b) != "[]" {
		t.Fatalf("mallory's claims: %s", b)
	}
	var auntClaims []struct {
		Quantity int
		List     struct{ OwnerName string }
	}
	aunt.must(200, "GET", "/api/claims", nil, &auntClaims)
	if len(auntClaims) != 1 || auntClaims[0].List.OwnerName != "Emma" {
		t.Fatalf("aunt's shopping list: %+v", auntClaims)
	}

	// Moving the reveal date into the past to read who gave what is refused; the owner sees the
	// claim once its own date has passed (tests/e2e/promise_test.go waits for one).
	code, body, _ := owner.do("PATCH", "/api/lists/"+listID, mustMarshal(t, map[string]any{"revealAt": time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)}))
	if code != http.StatusUnprocessableEntity {
		t.Fatalf("moving the reveal date into the past: %d %s, want 422", code, body)
	}
	if after := owner.must(200, "GET", "/api/wishlist", nil, nil); string(after) != string(before) {
		t.Fatalf("the owner's list changed:\n%s\n%s", before, after)
	}

	// Revoked links look like unknown ones; the owner's delete tells the claimer.
	owner.must(204, "DELETE", "/api/lists/"+listID+"/share", nil, nil)
	if b := visitor.must(404, "GET", "/api/shared/"+share.Token, nil, nil); string(b) != string(unknown) {
		t.Fatalf("revoked %s, unknown %s", b, unknown)
	}
	owner.must(204, "DELETE", "/api/wishlist/"+bike.ID, nil, nil)
	expect(t, auntLive, "claim-removed", "Red bicycle was removed from Emma's list")
	expect(t, ownerLive, "wishlist-count", `"count":0`)
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
