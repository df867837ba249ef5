package service_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

// THE SECRECY PROMISE (docs/family.md, "how the surprise is kept"): before the reveal date nothing the owner can
// request tells whether an item was claimed. The same story is played twice, by two owners
// with the same name and the same gifts; the family claims in one of them only. Every answer
// the owner gets and every event on the owner's account must be the same in both, byte for
// byte once ids, tokens and times are normalised.

var (
	uuidPattern  = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	tokenPattern = regexp.MustCompile(`(/l/|"token":"|/shared/)[A-Za-z0-9_-]{43}`)
	timePattern  = regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})`)
)

func normalise(b []byte, tokens ...string) string {
	s := string(b)
	for _, t := range tokens {
		s = strings.ReplaceAll(s, t, "<token>")
	}
	s = tokenPattern.ReplaceAllString(s, "$1<token>")
	s = uuidPattern.ReplaceAllString(s, "<id>")
	return timePattern.ReplaceAllString(s, "<time>")
}

// ownerStory plays the owner's side and returns every answer the owner got, normalised.
func ownerStory(t *testing.T, w *wishlist, owner string, familyClaims bool) []string {
	var transcript []string
	say := func(method, path string, body any, tokens ...string) []byte {
		code, b := w.as(method, path, owner, "Kid", body)
		transcript = append(transcript, fmt.Sprintf("%s %s -> %d %s", method, normalise([]byte(path), tokens...), code, normalise(b, tokens...)))
		return b
	}
	var lists []listView
	_ = json.Unmarshal(say("GET", "/api/lists", nil), &lists)
	def := lists[0].ID
	ids := map[string]string{}
	for _, g := range []struct {
		name string
		qty  int
	}{{"Red bicycle", 2}, {"Board game", 1}, {"Snow globe", 1}} {
		var item struct{ ID string }
		_ = json.Unmarshal(say("POST", "/api/wishlist", gift(g.name, map[string]any{"quantity": g.qty, "priority": 3})), &item)
		ids[g.name] = item.ID
	}
	var share struct{ Token string }
	_ = json.Unmarshal(say("POST", "/api/lists/"+def+"/share", nil), &share)
	token := share.Token

	// The family opens the list in both stories; only in one do they claim.
	w.must(200, "GET", "/api/shared/"+token, "aunt", nil, nil)
	w.must(200, "GET", "/api/shared/"+token, "uncle", nil, nil)
	if familyClaims {
		claim := func(who, item string, q int, purchased bool) {
			w.must(200, "PUT", "/api/shared/"+token+"/items/"+ids[item]+"/claim", who, map[string]any{"quantity": q, "purchased": purchased}, nil)
		}
		claim("aunt", "Red bicycle", 1, true)
		claim("uncle", "Red bicycle", 1, false)
		claim("aunt", "Board game", 1, false)
		claim("uncle", "Snow globe", 1, true)
		w.must(204, "DELETE", "/api/shared/"+token+"/items/"+ids["Snow globe"]+"/claim", "uncle", nil, nil)
		// Aunt and uncle give the snow globe together, and each keeps a budget for the owner.
		globe := "/api/shared/" + token + "/items/" + ids["Snow globe"]
		w.must(201, "POST", globe+"/group-gift", "aunt", map[string]any{"amount": "4.00"}, nil)
		w.must(200, "PUT", globe+"/pledge", "uncle", map[string]any{"amount": "6.00"}, nil)
		w.must(200, "PUT", "/api/budgets/u:"+owner, "aunt", map[string]any{"amount": "50.00", "currency": "USD", "displayName": "Kid"}, nil)
	}

	say("GET", "/api/wishlist", nil, token)
	say("GET", "/api/wishlist?listId="+def, nil, token)
	say("GET", "/api/wishlist/recent", nil, token)
	say("GET", "/api/lists", nil, token)
	say("GET", "/api/shared/"+token, nil, token)
	say("PUT", "/api/shared/"+token+"/items/"+ids["Red bicycle"]+"/claim", map[string]any{"quantity": 1}, token)
	say("DELETE", "/api/shared/"+token+"/items/"+ids["Red bicycle"]+"/claim", nil, token)
	say("GET", "/api/claims", nil, token)
	// Giving together, budgets and thanks, tried by the owner.
	globe := "/api/shared/" + token + "/items/" + ids["Snow globe"]
	say("POST", globe+"/group-gift", map[string]any{}, token)
	say("PUT", globe+"/pledge", map[string]any{"amount": "1.00"}, token)
	say("DELETE", globe+"/pledge", nil, token)
	say("DELETE", globe+"/group-gift", nil, token)
	say("PUT", globe+"/claim", map[string]any{"quantity": 1}, token)
	say("POST", "/api/wishlist/"+ids["Snow globe"]+"/thanks", map[string]any{"message": "Thank you!"}, token)
	say("GET", "/api/budgets", nil, token)
	say("GET", "/api/gifts/given", nil, token)
	// Editing: lowering a claimed quantity, renaming, then deleting a claimed item.
	say("PATCH", "/api/wishlist/"+ids["Red bicycle"], map[string]any{"quantity": 1}, token)
	say("PATCH", "/api/wishlist/"+ids["Red bicycle"], map[string]any{"quantity": 0}, token)
	say("PATCH", "/api/wishlist/"+ids["Board game"], map[string]any{"name": "Board game deluxe", "notes": "the big box"}, token)
	say("DELETE", "/api/wishlist/"+ids["Board game"], nil, token)
	say("DELETE", "/api/wishlist/"+ids["Board game"], nil, token)
	// Moving a claimed item to another list and deleting that list.
	var other listView
	_ = json.Unmarshal(say("POST", "/api/lists", map[string]any{"name": "Birthday"}, token), &other)
	say("PATCH", "/api/wishlist/"+ids["Red bicycle"], map[string]any{"listId": other.ID}, token)
	say("DELETE", "/api/lists/"+other.ID, nil, token)
	say("GET", "/api/wishlist", nil, token)
	say("GET", "/api/lists", nil, token)
	say("POST", "/api/lists/"+def+"/share", nil)
	return transcript
}

func TestTheOwnerCannotTellAClaimedListFromAnUnclaimedOne(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())

	plain := ownerStory(t, w, "kid-plain", false)
	claimed := ownerStory(t, w, "kid-claimed", true)
	if len(plain) != len(claimed) {
		t.Fatalf("%d answers against %d", len(plain), len(claimed))
	}
	for i := range plain {
		if plain[i] != claimed[i] {
			t.Errorf("answer %d differs:\n without claims: %s\n    with claims: %s", i, plain[i], claimed[i])
		}
	}
	if !strings.Contains(strings.Join(plain, "\n"), `"quantity":2`) {
		t.Fatal("the transcript does not show the items at all")
	}

	// The owner's events: the same types and data in the same order. Claim events belong to
	// the claimers, list.changed goes to the viewers (aunt and uncle in both stories).
	ownerEvents := func(owner string) []string {
		var out []string
		for _, e := range streamEvents(t, broker.URL()) {
			conformsToSchema(t, e)
			if e.UserID == owner {
				out = append(out, e.Type+" "+normalise(e.Data))
			}
			if e.Type == "item.claimed" || e.Type == "item.unclaimed" {
				if strings.HasPrefix(e.UserID, "kid") || strings.Contains(string(e.Data), `"kid`) {
					t.Fatalf("a claim event names the owner: %s %s", e.UserID, e.Data)
				}
			}
			if e.Type == "list.changed" && strings.Contains(string(e.Data), `"kid`) {
				t.Fatalf("list.changed would reach the owner: %s", e.Data)
			}
		}
		return out
	}
	var plainEvents, claimedEvents []string
	testenv.Eventually(t, 15*time.Second, func() error {
		plainEvents, claimedEvents = ownerEvents("kid-plain"), ownerEvents("kid-claimed")
		if len(plainEvents) < 12 || len(claimedEvents) < len(plainEvents) {
			return fmt.Errorf("%d and %d owner events so far", len(plainEvents), len(claimedEvents))
		}
		return nil
	})
	time.Sleep(300 * time.Millisecond)
	plainEvents, claimedEvents = ownerEvents("kid-plain"), ownerEvents("kid-claimed")
	if strings.Join(plainEvents, "\n") != strings.Join(claimedEvents, "\n") {
		t.Fatalf("the owner's events differ:\nwithout claims:\n%s\nwith claims:\n%s",
			strings.Join(plainEvents, "\n"), strings.Join(claimedEvents, "\n"))
	}
	// And the claimers were told when the owner removed what they claimed.
	removed := 0
	for _, e := range streamEvents(t, broker.URL()) {
		if e.Type == "item.unclaimed" && (strings.Contains(string(e.Data), `"reason":"removed"`) ||
			strings.Contains(string(e.Data), `"reason":"quantity_lowered"`)) {
			removed++
		}
	}
	if removed < 2 {
		t.Fatalf("%d claimers told of removals", removed)
	}
}
