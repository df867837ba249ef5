package service_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

// Lists for someone else (docs/family.md). The promise protects a list's recipient: a
// teenager whose parents keep their list must not be able to tell, through anything they can
// request, that anybody claimed or suggested anything on it.

// recipientView is the part of a list answer these tests read.
type recipientView struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Role      string `json:"role"`
	ItemCount int    `json:"itemCount"`
	Recipient struct {
		Kind        string `json:"kind"`
		Name        string `json:"name"`
		UID         string `json:"uid"`
		DisplayName string `json:"displayName"`
	} `json:"recipient"`
	Managers []struct {
		UID         string `json:"uid"`
		DisplayName string `json:"displayName"`
	} `json:"managers"`
	Share *struct {
		Token string `json:"token"`
	} `json:"share"`
}

// family makes everyone a member of one new family in wishlist's projection.
func family(t *testing.T, bus familyBus, uids ...string) string {
	t.Helper()
	id := uuid.NewString()
	at := time.Now().UTC().Add(-time.Hour)
	for _, u := range uids {
		bus.joined(id, u, at)
	}
	return id
}

// waitMembers waits until the projection holds every membership.
func waitMembers(t *testing.T, w *wishlist, familyID string, uids ...string) {
	t.Helper()
	for _, u := range uids {
		member(t, w.pool, familyID, u, true)
	}
}

// teenStory plays a family around a teenager's lists and returns every answer the teenager
// got, normalised (the story's tag, ids, tokens and times replaced). With busy, the relatives
// suggest and claim; without, they only look.
func teenStory(t *testing.T, w *wishlist, bus familyBus, tag string, busy bool) []string {
	mum, dad, teen, gran, aunt := "mum-"+tag, "dad-"+tag, "teen-"+tag, "gran-"+tag, "aunt-"+tag
	fam := family(t, bus, mum, dad, teen, gran, aunt)
	waitMembers(t, w, fam, mum, dad, teen, gran, aunt)

	// A list made for the teenager, and one made for "Sam" (no account yet) handed over later.
	var forTeen, forSam recipientView
	w.must(201, "POST", "/api/lists", mum, map[string]any{"recipient": map[string]any{"kind": "member", "uid": teen}}, &forTeen)
	w.must(201, "POST", "/api/lists", mum, map[string]any{"recipient": map[string]any{"kind": "person", "name": "Sam"}}, &forSam)
	w.must(201, "POST", "/api/lists/"+forTeen.ID+"/managers", mum, map[string]any{"uid": dad}, nil)
	w.must(200, "PATCH", "/api/lists/"+forTeen.ID, mum, map[string]any{"familyIds": []string{fam}}, nil)
	w.refused(404, "not_found", "PATCH", "/api/lists/"+forSam.ID, dad, map[string]any{"name": "Sam's"}) // dad does not keep it
	token := w.share(mum, forTeen.ID)
	samToken := w.share(mum, forSam.ID)

	bike := w.addTo(teen, forTeen.ID, "Red bicycle", 2)
	book := w.addTo(mum, forTeen.ID, "Story book", 1)
	samGame := w.addTo(mum, forSam.ID, "Board game", 1)
	for _, who := range []string{gran, aunt} {
		w.must(200, "GET", "/api/shared/"+token, who, nil, nil)
		w.must(200, "GET", "/api/shared/"+samToken, who, nil, nil)
	}
	// What the teenager's reads answer, ETags included, before the relatives act: the same after.
	reads := []string{"/api/lists", "/api/wishlist?listId=" + forTeen.ID, "/api/wishlist", "/api/shared/" + token, "/api/claims"}
	snapshot := func() []string {
		var out []string
		for _, p := range reads {
			_, b := w.as("GET", p, teen, "Teen", nil)
			out = append(out, p+" "+w.raw("GET", p, teen, "").Header.Get("ETag")+" "+string(b))
		}
		return out
	}
	before := snapshot()
	telescope := uuid.NewString()
	if busy {
		var s struct {
			ID          string `json:"id"`
			Suggested   bool   `json:"suggested"`
			SuggestedBy struct {
				DisplayName string `json:"displayName"`
			} `json:"suggestedBy"`
		}
		w.must(201, "POST", "/api/shared/"+token+"/suggestions", gran, map[string]any{"name": "Telescope"}, &s)
		if !s.Suggested || s.SuggestedBy.DisplayName == "" {
			t.Fatalf("suggestion answer %+v", s)
		}
		telescope = s.ID
		w.must(200, "PATCH", "/api/shared/"+token+"/suggestions/"+telescope, gran, map[string]any{"notes": "the big one"}, nil)
		w.must(201, "POST", "/api/shared/"+samToken+"/suggestions", aunt, map[string]any{"name": "Kite for Sam"}, nil)
		claim := func(who, tok, item string, q int) {
			w.must(200, "PUT", "/api/shared/"+tok+"/items/"+item+"/claim", who, map[string]any{"quantity": q}, nil)
		}
		// Gran and the aunt start to club together for the bike; the claims then take its units.
		w.must(201, "POST", "/api/shared/"+token+"/items/"+bike+"/group-gift", gran, map[string]any{"amount": "5.00"}, nil)
		w.must(200, "PUT", "/api/shared/"+token+"/items/"+bike+"/pledge", aunt, map[string]any{"amount": "3.00"}, nil)
		w.must(201, "POST", "/api/shared/"+samToken+"/items/"+samGame+"/group-gift", aunt, map[string]any{"amount": "10.00"}, nil)
		w.must(200, "PUT", "/api/budgets/u:"+teen, gran, map[string]any{"amount": "40.00", "currency": "USD", "displayName": "Teen"}, nil)
		claim(aunt, token, telescope, 1)
		claim(aunt, token, bike, 1)
		claim(dad, token, bike, 1) // a manager gives too
		claim(gran, token, book, 1)
	}
	if after := snapshot(); !slices.Equal(before, after) {
		t.Fatalf("the teenager's answers changed:\nbefore %s\n after %s", before, after)
	}
	// Sam gets an account: the list becomes the teenager's second list, claims still secret.
	w.must(200, "PATCH", "/api/lists/"+forSam.ID, mum, map[string]any{"recipient": map[string]any{"kind": "member", "uid": teen}}, nil)

	var transcript []string
	say := func(method, path string, body any, tokens ...string) {
		code, b := w.as(method, path, teen, "Teen", body)
		line := fmt.Sprintf("%s %s -> %d %s", method, path, code, b)
		line = strings.ReplaceAll(normalise([]byte(line), append(tokens, token, samToken)...), tag, "<tag>")
		transcript = append(transcript, line)
	}
	say("GET", "/api/lists", nil)
	say("GET", "/api/wishlist?listId="+forTeen.ID, nil)
	say("GET", "/api/wishlist?listId="+forSam.ID, nil)
	say("GET", "/api/wishlist", nil)
	say("GET", "/api/wishlist/recent", nil)
	say("GET", "/api/shared/"+token, nil)
	say("GET", "/api/shared/"+samToken, nil)
	say("GET", "/api/claims", nil)
	say("GET", "/api/budgets", nil)
	say("GET", "/api/gifts/given", nil)
	say("POST", "/api/shared/"+token+"/items/"+bike+"/group-gift", map[string]any{})
	say("PUT", "/api/shared/"+token+"/items/"+bike+"/pledge", map[string]any{"amount": "1.00"})
	say("POST", "/api/wishlist/"+bike+"/thanks", map[string]any{"message": "Thanks!"})
	say("PUT", "/api/shared/"+token+"/items/"+bike+"/claim", map[string]any{"quantity": 1})
	say("POST", "/api/shared/"+token+"/suggestions", map[string]any{"name": "Drone"})
	say("PATCH", "/api/wishlist/"+telescope, map[string]any{"notes": "x"})
	say("DELETE", "/api/wishlist/"+telescope, nil)
	say("PATCH", "/api/shared/"+token+"/suggestions/"+telescope, map[string]any{"notes": "x"})
	say("POST", "/api/lists/"+forTeen.ID+"/share", nil)
	say("POST", "/api/lists/"+forTeen.ID+"/managers", map[string]any{"uid": teen})
	// The teenager edits their wishes: lowering a claimed quantity, deleting a claimed item.
	say("PATCH", "/api/wishlist/"+bike, map[string]any{"quantity": 1, "notes": "blue is fine too"})
	say("DELETE", "/api/wishlist/"+book, nil)
	say("POST", "/api/wishlist", gift("Headphones", map[string]any{"listId": forTeen.ID}))
	say("GET", "/api/wishlist?listId="+forTeen.ID, nil)
	say("GET", "/api/lists", nil)
	// Anonymous, as the teenager opening their own link in a private window.
	code, b := w.as("GET", "/api/shared/"+token, "", "", nil)
	transcript = append(transcript, strings.ReplaceAll(normalise([]byte(fmt.Sprintf("anonymous %d %s", code, b)), token), tag, "<tag>"))
	return transcript
}

func TestATeenagerCannotTellAnythingHappenedOnTheListsKeptForThem(t *testing.T) {
	pool, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())
	w.pool = pool
	bus := familyBus{t, broker.URL()}

	quiet := teenStory(t, w, bus, "q1", false)
	busy := teenStory(t, w, bus, "b1", true)
	if len(quiet) != len(busy) {
		t.Fatalf("%d answers against %d", len(quiet), len(busy))
	}
	for i := range quiet {
		if quiet[i] != busy[i] {
			t.Errorf("answer %d differs:\n  quiet: %s\n   busy: %s", i, quiet[i], busy[i])
		}
	}
	all := strings.Join(quiet, "\n")
	for _, want := range []string{`"role":"recipient"`, "Red bicycle", "Board game", `"recipient":{"kind":"member"`, "-> 403", "own_list"} {
		if !strings.Contains(all, want) {
			t.Fatalf("the transcript lacks %s:\n%s", want, all)
		}
	}
	for _, never := range []string{"Telescope", "Kite for Sam", "suggested", "Aunt", "Gran", "claimed", `"mine"`} {
		if strings.Contains(strings.Join(busy, "\n"), never) {
			t.Fatalf("the teenager was shown %q:\n%s", never, strings.Join(busy, "\n"))
		}
	}

	// Nothing on the stream is addressed to a teenager, or names one as a viewer.
	teenEvents := func(tag string) []string {
		var out []string
		for _, e := range streamEvents(t, broker.URL()) {
			conformsToSchema(t, e)
			if e.UserID == "teen-"+tag {
				out = append(out, e.Type+" "+strings.ReplaceAll(normalise(e.Data), tag, "<tag>"))
			}
			if e.Type == "list.changed" && strings.Contains(string(e.Data), `"teen-`) {
				t.Fatalf("list.changed would reach the teenager: %s", e.Data)
			}
			// Claims and suggestions belong to the givers: never addressed to the teenager (the
			// list's name, which holds theirs, may appear: the giver knows whose list it is).
			if (e.Type == "item.claimed" || e.Type == "list.suggestion.created") &&
				(strings.HasPrefix(e.UserID, "teen-") || strings.Contains(string(e.Data), `"claimerId":"teen-`)) {
				t.Fatalf("%s is the teenager's: %s %s", e.Type, e.UserID, e.Data)
			}
		}
		return out
	}
	var quietEvents, busyEvents []string
	testenv.Eventually(t, 15*time.Second, func() error {
		// Every event committed so far is on the stream before the two are compared.
		if n := count(t, pool, "SELECT count(*) FROM outbox WHERE published_at IS NULL"); n > 0 {
			return fmt.Errorf("%d events not yet published", n)
		}
		quietEvents, busyEvents = teenEvents("q1"), teenEvents("b1")
		if len(quietEvents) < 1 || len(busyEvents) < len(quietEvents) {
			return fmt.Errorf("%d and %d teenager events so far", len(quietEvents), len(busyEvents))
		}
		return nil
	})
	time.Sleep(300 * time.Millisecond)
	quietEvents, busyEvents = teenEvents("q1"), teenEvents("b1")
	if strings.Join(quietEvents, "\n") != strings.Join(busyEvents, "\n") {
		t.Fatalf("the teenager's events differ:\nquiet:\n%s\nbusy:\n%s", strings.Join(quietEvents, "\n"), strings.Join(busyEvents, "\n"))
	}
}

// Managers are givers: they see who is getting what, claim themselves and keep the list.
func TestManagersSeeWhoIsGivingWhatAndKeepTheList(t *testing.T) {
	pool, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())
	w.pool = pool
	bus := familyBus{t, broker.URL()}
	fam := family(t, bus, "ann", "ben", "gran", "aunt", "c1", "c2", "c3", "c4")
	waitMembers(t, w, fam, "ann", "ben", "gran", "aunt", "c1", "c2", "c3", "c4")

	var emma recipientView
	w.must(201, "POST", "/api/lists", "ann", map[string]any{"recipient": map[string]any{"kind": "person", "name": "Emma"}}, &emma)
	if emma.Name != "Emma's wishlist" || emma.Role != "manager" || emma.Recipient.Kind != "person" || emma.Recipient.Name != "Emma" ||
		len(emma.Managers) != 1 || emma.Managers[0].UID != "ann" {
		t.Fatalf("new list for Emma: %+v", emma)
	}
	// Ben keeps it too, and sees it among his lists as a manager.
	var added struct {
		Managers []struct{ UID, DisplayName string } `json:"managers"`
	}
	w.must(201, "POST", "/api/lists/"+emma.ID+"/managers", "ann", map[string]any{"uid": "ben"}, &added)
	if len(added.Managers) != 2 || added.Managers[1].UID != "ben" || added.Managers[1].DisplayName != "ben" {
		t.Fatalf("managers %+v", added)
	}
	var benLists []recipientView
	w.must(200, "GET", "/api/lists", "ben", nil, &benLists)
	if len(benLists) != 2 || benLists[1].ID != emma.ID || benLists[1].Role != "manager" {
		t.Fatalf("ben's lists %+v", benLists)
	}
	doll := w.addTo("ben", emma.ID, "Rag doll", 2)
	token := w.share("ben", emma.ID)
	w.must(200, "PATCH", "/api/lists/"+emma.ID, "ben", map[string]any{"revealAt": time.Now().AddDate(1, 0, 0).Format(time.RFC3339)}, nil)
	w.must(200, "PUT", "/api/shared/"+token+"/items/"+doll+"/claim", "aunt", map[string]any{"quantity": 1}, nil)
	w.must(200, "PUT", "/api/shared/"+token+"/items/"+doll+"/claim", "ann", map[string]any{"quantity": 1, "purchased": true}, nil)
	w.must(409, "PUT", "/api/shared/"+token+"/items/"+doll+"/claim", "gran", map[string]any{"quantity": 1}, nil)

	// Both parents see who is getting what, on the list and on the shared view.
	var items []struct {
		ID      string `json:"id"`
		Claimed int    `json:"claimed"`
		Mine    int    `json:"mine"`
		Claims  []struct {
			DisplayName string `json:"displayName"`
			Quantity    int    `json:"quantity"`
			Purchased   bool   `json:"purchased"`
		} `json:"claims"`
	}
	w.must(200, "GET", "/api/wishlist?listId="+emma.ID, "ben", nil, &items)
	if len(items) != 1 || items[0].Claimed != 2 || len(items[0].Claims) != 2 || items[0].Claims[0].DisplayName != "Aunt" ||
		items[0].Claims[1].DisplayName != "Ann" || !items[0].Claims[1].Purchased {
		t.Fatalf("ben's view of Emma's list: %+v", items)
	}
	var shared struct {
		Viewer string `json:"viewer"`
		List   struct {
			ManagedBy []string `json:"managedBy"`
		} `json:"list"`
		Items []struct {
			Claims []struct{ DisplayName string } `json:"claims"`
			Mine   int                            `json:"mine"`
		} `json:"items"`
	}
	w.must(200, "GET", "/api/shared/"+token, "ann", nil, &shared)
	if shared.Viewer != "member" || len(shared.Items) != 1 || len(shared.Items[0].Claims) != 2 || shared.Items[0].Mine != 1 ||
		!slices.Equal(shared.List.ManagedBy, []string{"Ann", "ben"}) {
		t.Fatalf("ann's shared view: %+v", shared)
	}
	// A relative who does not keep the list sees what is taken, not by whom.
	gran := string(w.must(200, "GET", "/api/shared/"+token, "gran", nil, nil))
	if strings.Contains(gran, `"claims"`) || strings.Contains(gran, "Aunt") || !strings.Contains(gran, `"claimed":2`) {
		t.Fatalf("gran's shared view: %s", gran)
	}
	w.refused(404, "not_found", "GET", "/api/wishlist?listId="+emma.ID, "gran", nil)

	// Limits: up to four co-managers, only family, never a self list's, never the recipient.
	w.refused(404, "not_found", "POST", "/api/lists/"+emma.ID+"/managers", "ann", map[string]any{"uid": "stranger"})
	w.refused(404, "not_found", "POST", "/api/lists/"+emma.ID+"/managers", "gran", map[string]any{"uid": "gran"})
	for _, c := range []string{"c1", "c2", "c3"} {
		w.must(201, "POST", "/api/lists/"+emma.ID+"/managers", "ann", map[string]any{"uid": c}, nil)
	}
	w.refused(409, "too_many_managers", "POST", "/api/lists/"+emma.ID+"/managers", "c1", map[string]any{"uid": "c4"})
	w.refused(409, "own_list", "POST", "/api/lists/"+w.defaultList("ann").ID+"/managers", "ann", map[string]any{"uid": "ben"})
	w.refused(422, "validation_failed", "POST", "/api/lists/"+emma.ID+"/managers", "ann", map[string]any{})
	for _, c := range []string{"c1", "c2", "c3"} {
		w.must(204, "DELETE", "/api/lists/"+emma.ID+"/managers/"+c, c, nil, nil) // each leaves
	}
	// Ann, whose account holds the list, leaves: Ben keeps it, with its items and claims.
	w.must(204, "DELETE", "/api/lists/"+emma.ID+"/managers/ann", "ann", nil, nil)
	w.refused(404, "not_found", "GET", "/api/wishlist?listId="+emma.ID, "ann", nil)
	w.refused(404, "not_found", "PATCH", "/api/wishlist/"+doll, "ann", map[string]any{"notes": "mine now"})
	w.refused(409, "last_manager", "DELETE", "/api/lists/"+emma.ID+"/managers/ben", "ben", nil)
	w.must(200, "PATCH", "/api/wishlist/"+doll, "ben", map[string]any{"notes": "the one with red hair"}, nil)
	w.must(200, "GET", "/api/wishlist?listId="+emma.ID, "ben", nil, &items)
	if len(items) != 1 || len(items[0].Claims) != 2 {
		t.Fatalf("after ann left: %+v", items)
	}

	// Bad input, in the error shape of api/openapi.yaml.
	for _, bad := range []map[string]any{
		{"recipient": map[string]any{"kind": "person", "name": ""}},
		{"recipient": map[string]any{"kind": "person", "name": strings.Repeat("n", 41)}},
		{"recipient": map[string]any{"kind": "robot"}},
		{"recipient": map[string]any{"kind": "member", "uid": "stranger"}},
		{"recipient": map[string]any{"kind": "member", "uid": "gran"}, "name": ""},
	} {
		e := w.refused(422, "validation_failed", "POST", "/api/lists", "ben", bad)
		if e.Error.Fields["recipient"] == "" && e.Error.Fields["name"] == "" {
			t.Fatalf("%v: fields %v", bad, e.Error.Fields)
		}
	}
	w.refused(409, "recipient_cannot_manage", "POST", "/api/lists", "ben", map[string]any{"recipient": map[string]any{"kind": "member", "uid": "ben"}})
	// A hand-over goes only from a list for a person, to a member of the family.
	var mine recipientView
	w.must(201, "POST", "/api/lists", "ben", map[string]any{"name": "Ben's own"}, &mine)
	w.refused(422, "validation_failed", "PATCH", "/api/lists/"+mine.ID, "ben", map[string]any{"recipient": map[string]any{"kind": "member", "uid": "gran"}})
	w.refused(422, "validation_failed", "PATCH", "/api/lists/"+emma.ID, "ben", map[string]any{"recipient": map[string]any{"kind": "member", "uid": "stranger"}})
	w.refused(422, "validation_failed", "PATCH", "/api/lists/"+emma.ID, "ben", map[string]any{"recipient": map[string]any{"kind": "person", "name": "Em"}})
	w.refused(409, "recipient_cannot_manage", "PATCH", "/api/lists/"+emma.ID, "ben", map[string]any{"recipient": map[string]any{"kind": "member", "uid": "ben"}})
	w.must(200, "PATCH", "/api/lists/"+emma.ID, "ben", map[string]any{"recipient": map[string]any{"kind": "member", "uid": "gran"}}, &emma)
	if emma.Recipient.Kind != "member" || emma.Recipient.UID != "gran" {
		t.Fatalf("handed over: %+v", emma)
	}
	w.refused(409, "recipient_cannot_manage", "POST", "/api/lists/"+emma.ID+"/managers", "ben", map[string]any{"uid": "gran"})
	// Nothing saved was lost along the way.
	w.must(200, "GET", "/api/wishlist?listId="+emma.ID, "ben", nil, &items)
	if len(items) != 1 || items[0].Claimed != 2 {
		t.Fatalf("after the refusals: %+v", items)
	}
}

func TestSuggestionsReachGiversOnly(t *testing.T) {
	pool, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())
	w.pool = pool

	tom := w.defaultList("tom")
	w.addTo("tom", tom.ID, "Scarf", 1)
	token := w.share("tom", tom.ID)
	before := w.raw("GET", "/api/wishlist", "tom", "").Header.Get("ETag")

	var s struct {
		ID          string `json:"id"`
		Name        string `json:"name"`
		Description string `json:"description"`
		Suggested   bool   `json:"suggested"`
		SuggestedBy struct {
			DisplayName string `json:"displayName"`
			Mine        bool   `json:"mine"`
		} `json:"suggestedBy"`
	}
	w.must(201, "POST", "/api/shared/"+token+"/suggestions", "gran", map[string]any{"name": "Warm gloves", "price": "€20", "quantity": 2}, &s)
	if !s.Suggested || s.SuggestedBy.DisplayName != "Gran" || !s.SuggestedBy.Mine || s.Description == "" {
		t.Fatalf("suggestion %+v", s)
	}
	// Givers see it, marked; anonymous visitors and the owner do not.
	var view struct {
		Items []struct {
			Name        string `json:"name"`
			Suggested   *bool  `json:"suggested"`
			SuggestedBy *struct {
				DisplayName string `json:"displayName"`
				Mine        bool   `json:"mine"`
			} `json:"suggestedBy"`
		} `json:"items"`
	}
	w.must(200, "GET", "/api/shared/"+token, "aunt", nil, &view)
	if len(view.Items) != 2 || view.Items[0].SuggestedBy == nil || view.Items[0].SuggestedBy.Mine || view.Items[1].SuggestedBy != nil {
		t.Fatalf("aunt's view %+v", view)
	}
	for _, who := range []string{"", "tom"} {
		b := string(w.must(200, "GET", "/api/shared/"+token, who, nil, nil))
		if strings.Contains(b, "gloves") || strings.Contains(b, "suggest") {
			t.Fatalf("%q sees the suggestion: %s", who, b)
		}
	}
	if after := w.raw("GET", "/api/wishlist", "tom", "").Header.Get("ETag"); after != before {
		t.Fatalf("the owner's ETag changed with a suggestion: %s → %s", before, after)
	}
	// The aunt claims it like any item; the suggester edits, another giver cannot.
	w.must(200, "PUT", "/api/shared/"+token+"/items/"+s.ID+"/claim", "aunt", map[string]any{"quantity": 2}, nil)
	w.must(200, "PATCH", "/api/shared/"+token+"/suggestions/"+s.ID, "gran", map[string]any{"name": "Warm wool gloves"}, nil)
	w.refused(404, "not_found", "PATCH", "/api/shared/"+token+"/suggestions/"+s.ID, "aunt", map[string]any{"name": "Hat"})
	w.refused(404, "not_found", "DELETE", "/api/shared/"+token+"/suggestions/"+s.ID, "aunt", nil)
	w.refused(404, "not_found", "PATCH", "/api/wishlist/"+s.ID, "tom", map[string]any{"name": "Hat"})

	// Refusals: the owner, anonymous, an unknown token, bad fields; nothing saved is lost.
	w.refused(403, "own_list", "POST", "/api/shared/"+token+"/suggestions", "tom", map[string]any{"name": "Drone"})
	code, _ := w.as("POST", "/api/shared/"+token+"/suggestions", "", "", map[string]any{"name": "Drone"})
	if code != 401 {
		t.Fatalf("anonymous suggestion: %d", code)
	}
	w.refused(404, "share_not_found", "POST", "/api/shared/"+strings.Repeat("A", 43)+"/suggestions", "gran", map[string]any{"name": "Drone"})
	e := w.refused(422, "validation_failed", "POST", "/api/shared/"+token+"/suggestions", "gran", map[string]any{"name": "x", "quantity": 0})
	if e.Error.Fields["name"] == "" || e.Error.Fields["quantity"] == "" {
		t.Fatalf("fields %v", e.Error.Fields)
	}
	// Fifty suggestions a list.
	for i := 1; i < 50; i++ {
		w.must(201, "POST", "/api/shared/"+token+"/suggestions", "gran", map[string]any{"name": fmt.Sprintf("Idea %d", i)}, nil)
	}
	w.refused(409, "too_many_suggestions", "POST", "/api/shared/"+token+"/suggestions", "aunt", map[string]any{"name": "One more"})
	var lists []recipientView
	w.must(200, "GET", "/api/lists", "tom", nil, &lists)
	if lists[0].ItemCount != 1 {
		t.Fatalf("the owner's count shows suggestions: %+v", lists[0])
	}
	w.must(200, "GET", "/api/shared/"+token, "aunt", nil, &view)
	if len(view.Items) != 51 {
		t.Fatalf("aunt sees %d items", len(view.Items))
	}
	w.must(204, "DELETE", "/api/shared/"+token+"/suggestions/"+s.ID, "gran", nil, nil)
}

// A relative removed from the family loses what the family gave them: keeping a list and
// suggesting on the family's lists.
func TestARemovedFamilyMemberLosesManagerAndSuggestionRights(t *testing.T) {
	pool, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())
	w.pool = pool
	bus := familyBus{t, broker.URL()}
	fam := family(t, bus, "ann", "ben", "uncle")
	waitMembers(t, w, fam, "ann", "ben", "uncle")

	var emma recipientView
	w.must(201, "POST", "/api/lists", "ann", map[string]any{"recipient": map[string]any{"kind": "person", "name": "Emma"}}, &emma)
	w.must(201, "POST", "/api/lists/"+emma.ID+"/managers", "ann", map[string]any{"uid": "uncle"}, nil)
	w.must(200, "PATCH", "/api/lists/"+emma.ID, "ann", map[string]any{"familyIds": []string{fam}}, &emma)
	token := emma.Share.Token
	w.must(201, "POST", "/api/shared/"+token+"/suggestions", "ben", map[string]any{"name": "Puzzle"}, nil)
	w.must(200, "GET", "/api/wishlist?listId="+emma.ID, "uncle", nil, nil)

	bus.left(fam, "uncle", time.Now().UTC(), false)
	bus.left(fam, "ben", time.Now().UTC(), false)
	member(t, pool, fam, "uncle", false)
	member(t, pool, fam, "ben", false)
	testenv.Eventually(t, 10*time.Second, func() error {
		if code, b := w.as("GET", "/api/wishlist?listId="+emma.ID, "uncle", "Uncle", nil); code != 404 {
			return fmt.Errorf("uncle still keeps the list: %d %s", code, b)
		}
		return nil
	})
	w.refused(404, "share_not_found", "POST", "/api/shared/"+token+"/suggestions", "ben", map[string]any{"name": "Another puzzle"})
	var managers []recipientView
	w.must(200, "GET", "/api/lists", "ann", nil, &managers)
	if len(managers) != 2 || len(managers[1].Managers) != 1 {
		t.Fatalf("ann's lists after uncle left: %+v", managers)
	}
}

// Deleting an account: a list kept by others stays with them; a list kept for the deleted
// member becomes a list for a person; a list nobody else keeps goes.
func TestAccountDeletionLeavesListsWithTheirOtherKeepers(t *testing.T) {
	pool, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())
	w.pool = pool
	bus := familyBus{t, broker.URL()}
	fam := family(t, bus, "ann", "ben", "teen")
	waitMembers(t, w, fam, "ann", "ben", "teen")

	var emma, forTeen, annOnly recipientView
	w.must(201, "POST", "/api/lists", "ann", map[string]any{"recipient": map[string]any{"kind": "person", "name": "Emma"}}, &emma)
	w.must(201, "POST", "/api/lists/"+emma.ID+"/managers", "ann", map[string]any{"uid": "ben"}, nil)
	w.addTo("ann", emma.ID, "Rag doll", 1)
	w.must(201, "POST", "/api/lists", "ben", map[string]any{"recipient": map[string]any{"kind": "member", "uid": "teen"}}, &forTeen)
	w.addTo("teen", forTeen.ID, "Skateboard", 1)
	w.must(201, "POST", "/api/lists", "ann", map[string]any{"recipient": map[string]any{"kind": "person", "name": "Rex the dog"}}, &annOnly)

	for _, uid := range []string{"ann", "teen"} {
		if code, body := w.accountCall("DELETE", uid, uid+"@example.com", `{"confirm": "`+uid+`@example.com"}`); code != 202 {
			t.Fatalf("delete %s: %d %s", uid, code, body)
		}
	}
	testenv.Eventually(t, 15*time.Second, func() error {
		if n := count(t, pool, "SELECT count(*) FROM lists WHERE user_id = 'ann' OR recipient_uid = 'teen'"); n != 0 {
			return fmt.Errorf("%d lists still held by ann or kept for teen", n)
		}
		return nil
	})
	var lists []recipientView
	w.must(200, "GET", "/api/lists", "ben", nil, &lists)
	names := map[string]recipientView{}
	for _, l := range lists {
		names[l.ID] = l
	}
	if l, ok := names[emma.ID]; !ok || l.ItemCount != 1 || len(l.Managers) != 1 || l.Managers[0].UID != "ben" {
		t.Fatalf("Emma's list after ann's deletion: %+v", lists)
	}
	if l, ok := names[forTeen.ID]; !ok || l.Recipient.Kind != "person" || l.Recipient.Name != "teen" || l.ItemCount != 1 {
		t.Fatalf("the teenager's list after their deletion: %+v", lists)
	}
	if n := count(t, pool, "SELECT count(*) FROM lists WHERE id = $1", annOnly.ID); n != 0 {
		t.Fatalf("the list only ann kept is still there")
	}
	var items []json.RawMessage
	w.must(200, "GET", "/api/wishlist?listId="+emma.ID, "ben", nil, &items)
	if len(items) != 1 {
		t.Fatalf("Emma's items: %s", items)
	}
}
