//go:build e2e

package e2e

import (
	"net/http"
	"strings"
	"testing"
)

// The family reopening a shared list gets 304 while nothing changed; and the owner, polling
// with If-None-Match from the attacker's side, gets 304 after a claim too: their answer (and so
// its tag) holds nothing a claim changes before the reveal date.
func TestListReadsRevalidateWithoutTellingTheOwnerOfClaims(t *testing.T) {
	owner := newNamedUser(t, "etagkid", "Kid")
	aunt := newNamedUser(t, "etagaunt", "Aunt Mary")
	var lists []struct{ ID string }
	owner.must(200, "GET", "/api/lists", nil, &lists)
	var bike item
	owner.must(201, "POST", "/api/wishlist", map[string]any{"name": "Red bicycle", "description": "A red bicycle with a bell",
		"category": "Toys"}, &bike)
	var share struct{ Token string }
	owner.must(200, "POST", "/api/lists/"+lists[0].ID+"/share", nil, &share)
	shared := "/api/shared/" + share.Token

	tag := func(c *client, path string) string {
		t.Helper()
		code, body, h := c.do("GET", path, nil)
		if code != http.StatusOK || h.Get("ETag") == "" {
			t.Fatalf("GET %s: %d, ETag %q: %s", path, code, h.Get("ETag"), body)
		}
		if !strings.Contains(h.Get("Vary"), "Authorization") {
			t.Errorf("GET %s: Vary %q, want Authorization: one caller's answer must not be served to another", path, h.Get("Vary"))
		}
		return h.Get("ETag")
	}
	revalidate := func(c *client, path, etag string) int {
		t.Helper()
		code, body, _ := c.do("GET", path, nil, "If-None-Match", etag)
		if code == http.StatusNotModified && len(body) != 0 {
			t.Errorf("GET %s: 304 with a body of %d bytes", path, len(body))
		}
		return code
	}

	ownerPaths := []string{"/api/wishlist", "/api/wishlist/recent", "/api/lists", shared}
	ownerTags := map[string]string{}
	for _, p := range ownerPaths {
		ownerTags[p] = tag(owner, p)
		if code := revalidate(owner, p, ownerTags[p]); code != http.StatusNotModified {
			t.Errorf("owner GET %s with its own ETag: %d, want 304", p, code)
		}
	}
	auntTag := tag(aunt, shared)
	if auntTag == ownerTags[shared] {
		t.Error("the aunt's view and the owner's view of the shared list have the same tag")
	}
	if code := revalidate(aunt, shared, auntTag); code != http.StatusNotModified {
		t.Errorf("aunt revalidating an unchanged list: %d, want 304", code)
	}

	aunt.must(200, "PUT", shared+"/items/"+bike.ID+"/claim", map[string]any{"quantity": 1}, nil)

	for _, p := range ownerPaths {
		if code := revalidate(owner, p, ownerTags[p]); code != http.StatusNotModified {
			t.Errorf("after a claim, the owner's GET %s with the old ETag: %d, want 304 (a change would tell of the claim)", p, code)
		}
	}
	if code := revalidate(aunt, shared, auntTag); code != http.StatusOK {
		t.Errorf("after her claim, the aunt's old tag still answered %d, want 200 with the taken item", code)
	}

	// An edit by the owner is a change for everyone.
	owner.must(200, "PATCH", "/api/wishlist/"+bike.ID, map[string]any{"notes": "Size 24"}, nil)
	if code := revalidate(owner, "/api/wishlist", ownerTags["/api/wishlist"]); code != http.StatusOK {
		t.Errorf("after an edit, the owner's old tag answered %d, want 200", code)
	}

	// Visitors who are not signed in share one answer, which a cache may keep briefly; a
	// signed-in caller's answer is private.
	visitor := &client{t: t, base: baseURL(t)}
	_, _, h := visitor.do("GET", shared, nil)
	if cc := h.Get("Cache-Control"); cc != "public, max-age=10" {
		t.Errorf("anonymous shared view: Cache-Control %q", cc)
	}
	_, _, h = aunt.do("GET", shared, nil)
	if cc := h.Get("Cache-Control"); !strings.Contains(cc, "private") {
		t.Errorf("signed-in shared view: Cache-Control %q, want private", cc)
	}
}
