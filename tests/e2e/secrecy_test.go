//go:build e2e

package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

var (
	uuidRE  = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	tokenRE = regexp.MustCompile(`(/l/|"token":"|/shared/)[A-Za-z0-9_-]{43}`)
	timeRE  = regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})`)
	seqRE   = regexp.MustCompile(`"id":\d+`)
)

func normalised(b []byte) string {
	s := tokenRE.ReplaceAllString(string(b), "$1<token>")
	s = uuidRE.ReplaceAllString(s, "<id>")
	s = seqRE.ReplaceAllString(s, `"id":<seq>`)
	return timeRE.ReplaceAllString(s, "<time>")
}

// The secrecy suite through the gateway, with Firebase tokens: two owners of the same name
// play the same story; the family claims on one list only. Every answer either owner can get
// (lists, items, their shared view, their notices, refusals, edits, deletes) is compared
// byte for byte once ids, tokens, sequence numbers and times are normalised.
func TestTheOwnersAnswersDoNotDependOnClaims(t *testing.T) {
	aunt := newNamedUser(t, "aunt", "Aunt Mary")
	story := func(claims bool) []string {
		owner := newNamedUser(t, "kid", "Kid")
		var out []string
		say := func(method, path string, body any) []byte {
			var raw []byte
			if body != nil {
				raw = mustMarshal(t, body)
			}
			code, b, _ := owner.do(method, path, raw)
			out = append(out, fmt.Sprintf("%s %s -> %d %s", method, normalised([]byte(path)), code, normalised(b)))
			return b
		}
		var lists []struct{ ID string }
		owner.must(200, "GET", "/api/lists", nil, &lists)
		var bike, kite item
		owner.must(201, "POST", "/api/wishlist", map[string]any{"name": "Red bicycle", "description": "A red bicycle with a bell",
			"category": "Toys", "quantity": 2}, &bike)
		owner.must(201, "POST", "/api/wishlist", map[string]any{"name": "Blue kite", "description": "A kite with a long tail",
			"category": "Toys"}, &kite)
		var share struct{ Token string }
		owner.must(200, "POST", "/api/lists/"+lists[0].ID+"/share", nil, &share)
		aunt.must(200, "GET", "/api/shared/"+share.Token, nil, nil)
		if claims {
			aunt.must(200, "PUT", "/api/shared/"+share.Token+"/items/"+bike.ID+"/claim", map[string]any{"quantity": 2, "purchased": true}, nil)
			aunt.must(200, "PUT", "/api/shared/"+share.Token+"/items/"+kite.ID+"/claim", map[string]any{"quantity": 1}, nil)
		}
		settled := func() { // every event has reached notification: its notices stop changing
			prev := ""
			for i := 0; i < 15; i++ {
				time.Sleep(time.Second)
				_, b, _ := owner.do("GET", "/api/notifications", nil)
				if now := normalised(b); now == prev {
					return
				} else {
					prev = now
				}
			}
		}
		// A fixed second was not always enough on the cluster (three NATS servers, a busy node).
		settled()
		say("GET", "/api/wishlist", nil)
		say("GET", "/api/wishlist/recent", nil)
		say("GET", "/api/lists", nil)
		say("GET", "/api/shared/"+share.Token, nil)
		say("GET", "/api/notifications", nil)
		say("GET", "/api/claims", nil)
		say("PUT", "/api/shared/"+share.Token+"/items/"+bike.ID+"/claim", map[string]any{"quantity": 1})
		say("PATCH", "/api/wishlist/"+bike.ID, map[string]any{"quantity": 1})
		say("DELETE", "/api/wishlist/"+kite.ID, nil)
		settled()
		say("GET", "/api/wishlist", nil)
		say("GET", "/api/notifications", nil)
		return out
	}
	plain, claimed := story(false), story(true)
	if len(plain) != len(claimed) {
		t.Fatalf("%d answers against %d", len(plain), len(claimed))
	}
	for i := range plain {
		if plain[i] != claimed[i] {
			t.Errorf("answer %d differs:\n without claims: %s\n    with claims: %s", i, plain[i], claimed[i])
		}
	}
	if !strings.Contains(strings.Join(plain, "\n"), "wishlist-count") {
		t.Fatal("the owner's notices were not in the transcript")
	}
}
