//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The promise, attacked: a list's owner never learns of a claim before the claim's own
// reveal date. Each test below is a curious owner's request sequence written as the owner
// would try it through the gateway, and asserts that the owner learned nothing: no claim
// field, no claimer's name, the same bytes (and ETag) as before the claim. The legitimate
// sides are tested beside them: the owner sees a claim once its own date has passed, a
// signed-in member sees what is taken, and a new season's claims are secret while last
// season's stay visible.

// promiseList is an owner's list shared by link, with one item the aunt has claimed.
type promiseList struct {
	owner, aunt *client
	listID      string
	token       string
	itemID      string
}

type listAnswer struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	RevealAt time.Time `json:"revealAt"`
	Share    *struct {
		Token string `json:"token"`
	} `json:"share"`
}

// ownerItem is an item as its owner reads it, with the revealed claims.
type ownerItem struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Claims []struct {
		DisplayName string    `json:"displayName"`
		Quantity    int       `json:"quantity"`
		RevealedAt  time.Time `json:"revealedAt"`
	} `json:"claims"`
}

func newList(t *testing.T, owner *client, name string, revealAt *time.Time) listAnswer {
	t.Helper()
	body := map[string]any{"name": name}
	if revealAt != nil {
		body["revealAt"] = revealAt.UTC().Format(time.RFC3339Nano)
	}
	var l listAnswer
	owner.must(http.StatusCreated, "POST", "/api/lists", body, &l)
	return l
}

func shareList(t *testing.T, owner *client, listID string) string {
	t.Helper()
	var share struct{ Token string }
	owner.must(http.StatusOK, "POST", "/api/lists/"+listID+"/share", nil, &share)
	return share.Token
}

// claimedList makes the story every attack starts from: the owner's list (reveal date
// revealAt, nil for the default 26 December), shared by link, with a bicycle the aunt claimed.
func claimedList(t *testing.T, revealAt *time.Time) promiseList {
	t.Helper()
	p := promiseList{owner: newNamedUser(t, "kid", "Kid"), aunt: newNamedUser(t, "aunt", "Aunt Mary")}
	l := newList(t, p.owner, "Christmas", revealAt)
	p.listID = l.ID
	p.token = shareList(t, p.owner, l.ID)
	var bike struct{ ID string }
	p.owner.must(http.StatusCreated, "POST", "/api/wishlist", map[string]any{"name": "Red bicycle",
		"description": "A red bicycle with a bell", "listId": l.ID}, &bike)
	p.itemID = bike.ID
	p.aunt.must(http.StatusOK, "PUT", "/api/shared/"+p.token+"/items/"+bike.ID+"/claim", map[string]any{"quantity": 1}, nil)
	return p
}

// ownerItems reads one of the owner's lists as the owner and fails on any claim in it.
func (p promiseList) ownerItems(t *testing.T, listID string) []ownerItem {
	t.Helper()
	var items []ownerItem
	p.owner.must(http.StatusOK, "GET", "/api/wishlist?listId="+listID, nil, &items)
	return items
}

// learnedNothing fails if any answer the owner can get about the list shows the claim.
func (p promiseList) learnedNothing(t *testing.T, listID, how string) {
	t.Helper()
	for _, path := range []string{"/api/wishlist?listId=" + listID, "/api/shared/" + p.token, "/api/lists"} {
		body := p.owner.must(http.StatusOK, "GET", path, nil, nil)
		for _, leak := range []string{"Aunt Mary", `"claimed"`, `"mine"`, `"displayName"`} {
			if strings.Contains(string(body), leak) {
				t.Fatalf("%s: GET %s told the owner %s: %s", how, path, leak, body)
			}
		}
	}
}

// future is a moment d from now, in milliseconds (what the API keeps is microseconds).
func future(d time.Duration) *time.Time {
	t := time.Now().Add(d).Truncate(time.Millisecond)
	return &t
}

// Attack 1: the owner moves the reveal date into the past, reads, and moves it back. A past
// date is refused; a date seconds ahead is allowed but reveals only claims made under it.
func TestPromiseMovingTheRevealDateDoesNotRevealClaims(t *testing.T) {
	p := claimedList(t, nil)
	code, body, _ := p.owner.do("PATCH", "/api/lists/"+p.listID, mustMarshal(t, map[string]any{"revealAt": "2000-01-01T00:00:00Z"}))
	if code != http.StatusUnprocessableEntity || !strings.Contains(string(body), `"revealAt":"The reveal date must be in the future."`) {
		t.Fatalf("a reveal date in the past: %d %s, want 422 with fields.revealAt", code, body)
	}
	soon := future(2 * time.Second)
	p.owner.must(http.StatusOK, "PATCH", "/api/lists/"+p.listID, map[string]any{"revealAt": soon.Format(time.RFC3339Nano)}, nil)
	time.Sleep(time.Until(*soon) + time.Second)
	p.learnedNothing(t, p.listID, "after moving the list's date to a moment that has passed")
}

// Attack 2: the owner makes a list with a past reveal date (refused), then one whose date
// passes in seconds, moves the claimed item into it and reads it.
func TestPromiseMovingAClaimedItemToAnEarlyListDoesNotRevealIt(t *testing.T) {
	p := claimedList(t, nil)
	past := time.Now().Add(-time.Hour)
	code, body, _ := p.owner.do("POST", "/api/lists", mustMarshal(t, map[string]any{"name": "Early", "revealAt": past.Format(time.RFC3339)}))
	if code != http.StatusUnprocessableEntity || !strings.Contains(string(body), `"revealAt"`) {
		t.Fatalf("a list with a past reveal date: %d %s, want 422", code, body)
	}
	soon := future(2 * time.Second)
	early := newList(t, p.owner, "Early", soon)
	p.owner.must(http.StatusOK, "PATCH", "/api/wishlist/"+p.itemID, map[string]any{"listId": early.ID}, nil)
	time.Sleep(time.Until(*soon) + time.Second)
	for _, it := range p.ownerItems(t, early.ID) {
		if len(it.Claims) != 0 {
			t.Fatalf("the moved item shows its claim on the early list: %+v", it)
		}
	}
	p.learnedNothing(t, early.ID, "after moving the item to a list whose date passed")
}

// Attack 3 and the seasons: when a list's date passes, the claims made before it are revealed
// (the gift history), the list rolls to the same day a year later, and the claims of the new
// season are secret until then, also from the live view a member has.
func TestPromiseANewSeasonKeepsItsClaimsSecretAndLastSeasonsVisible(t *testing.T) {
	soon := future(3 * time.Second)
	p := claimedList(t, soon)
	uncle := newNamedUser(t, "uncle", "Uncle Bob")
	p.learnedNothing(t, p.listID, "before the reveal date")
	time.Sleep(time.Until(*soon) + time.Second)

	// Last season's claim is the owner's to see now, with its date.
	items := p.ownerItems(t, p.listID)
	if len(items) != 1 || len(items[0].Claims) != 1 || items[0].Claims[0].DisplayName != "Aunt Mary" ||
		!items[0].Claims[0].RevealedAt.Equal(*soon) {
		t.Fatalf("after the reveal date the owner sees %+v, want Aunt Mary's claim revealed at %s", items, soon)
	}
	// The list rolled to the same moment a year later.
	var lists []listAnswer
	p.owner.must(http.StatusOK, "GET", "/api/lists", nil, &lists)
	for _, l := range lists {
		if l.ID == p.listID && !l.RevealAt.Equal(soon.AddDate(1, 0, 0)) {
			t.Fatalf("the list's reveal date is %s, want %s", l.RevealAt, soon.AddDate(1, 0, 0))
		}
	}
	// A new season: what last season claimed no longer counts as taken, and a new claim is
	// secret again.
	var seen struct {
		Items []struct {
			Claimed *int `json:"claimed"`
			Mine    *int `json:"mine"`
		} `json:"items"`
	}
	uncle.must(http.StatusOK, "GET", "/api/shared/"+p.token, nil, &seen)
	if len(seen.Items) != 1 || seen.Items[0].Claimed == nil || *seen.Items[0].Claimed != 0 {
		t.Fatalf("a member's view of the new season: %+v, want nothing claimed yet", seen)
	}
	before := p.owner.must(http.StatusOK, "GET", "/api/wishlist?listId="+p.listID, nil, nil)
	uncle.must(http.StatusOK, "PUT", "/api/shared/"+p.token+"/items/"+p.itemID+"/claim", map[string]any{"quantity": 1}, nil)
	after := p.owner.must(http.StatusOK, "GET", "/api/wishlist?listId="+p.listID, nil, nil)
	if !bytes.Equal(before, after) || strings.Contains(string(after), "Uncle Bob") {
		t.Fatalf("the new season's claim changed the owner's list:\n before %s\n after  %s", before, after)
	}
	uncle.must(http.StatusOK, "GET", "/api/shared/"+p.token, nil, &seen)
	if *seen.Items[0].Claimed != 1 || *seen.Items[0].Mine != 1 {
		t.Fatalf("the member does not see what is taken this season: %+v", seen)
	}
	// The uncle lets it go and the aunt claims the same gift again this season: a claim of its
	// own, while last season's stays in the history, and the owner still sees nothing new.
	uncle.must(http.StatusNoContent, "DELETE", "/api/shared/"+p.token+"/items/"+p.itemID+"/claim", nil, nil)
	p.aunt.must(http.StatusOK, "PUT", "/api/shared/"+p.token+"/items/"+p.itemID+"/claim", map[string]any{"quantity": 1}, nil)
	if again := p.owner.must(http.StatusOK, "GET", "/api/wishlist?listId="+p.listID, nil, nil); !bytes.Equal(before, again) {
		t.Fatalf("the aunt's new claim changed the owner's list:\n before %s\n after  %s", before, again)
	}
}

// Attack 4: the owner opens their own link in a private window. The anonymous view carries no
// claim field at all, and its bytes and ETag do not move when someone claims.
func TestPromiseTheAnonymousViewCarriesNoClaims(t *testing.T) {
	owner, aunt := newNamedUser(t, "kid", "Kid"), newNamedUser(t, "aunt", "Aunt Mary")
	privateWindow := &client{t: t, base: baseURL(t)}
	l := newList(t, owner, "Christmas", nil)
	token := shareList(t, owner, l.ID)
	var bike struct{ ID string }
	owner.must(http.StatusCreated, "POST", "/api/wishlist", map[string]any{"name": "Red bicycle",
		"description": "A red bicycle with a bell", "listId": l.ID, "quantity": 2}, &bike)

	code, before, beforeHeader := privateWindow.do("GET", "/api/shared/"+token, nil)
	aunt.must(http.StatusOK, "PUT", "/api/shared/"+token+"/items/"+bike.ID+"/claim", map[string]any{"quantity": 2, "purchased": true}, nil)
	_, after, afterHeader := privateWindow.do("GET", "/api/shared/"+token, nil)
	if code != http.StatusOK || !bytes.Equal(before, after) || beforeHeader.Get("ETag") != afterHeader.Get("ETag") {
		t.Fatalf("the anonymous view changed with a claim:\n before %s %s\n after  %s %s",
			before, beforeHeader.Get("ETag"), after, afterHeader.Get("ETag"))
	}
	for _, leak := range []string{`"claimed"`, `"mine"`, "Aunt Mary"} {
		if strings.Contains(string(after), leak) {
			t.Fatalf("the anonymous view carries %s: %s", leak, after)
		}
	}
	if !strings.Contains(string(after), `"viewer":"anonymous"`) {
		t.Fatalf("the anonymous view: %s", after)
	}
	// The owner's own signed-in views keep their ETag too: a revalidation says "not modified".
	_, _, h := owner.do("GET", "/api/wishlist?listId="+l.ID, nil)
	aunt.must(http.StatusOK, "PUT", "/api/shared/"+token+"/items/"+bike.ID+"/claim", map[string]any{"quantity": 1}, nil)
	if code, _, _ := owner.do("GET", "/api/wishlist?listId="+l.ID, nil, "If-None-Match", h.Get("ETag")); code != http.StatusNotModified {
		t.Fatalf("the owner's list after a claim answered %d to its old ETag, want 304", code)
	}
}

// Attack 5: the claimer's shopping list hands over the link the claim was made through only
// while it works, and never another list's link or name when the owner moves the item.
func TestPromiseTheShoppingListGivesOnlyTheLinkTheClaimWasMadeThrough(t *testing.T) {
	p := claimedList(t, nil)
	type entry struct {
		List struct {
			Name  string  `json:"name"`
			Token *string `json:"token"`
		} `json:"list"`
		Item struct {
			ID     string `json:"id"`
			ListID string `json:"listId"`
		} `json:"item"`
	}
	claims := func() []entry {
		var out []entry
		p.aunt.must(http.StatusOK, "GET", "/api/claims", nil, &out)
		if len(out) != 1 {
			t.Fatalf("the aunt's shopping list: %+v", out)
		}
		return out
	}
	if c := claims(); c[0].List.Token == nil || *c[0].List.Token != p.token || c[0].List.Name != "Christmas" {
		t.Fatalf("before any change: %+v", c)
	}
	// The owner moves the claimed item to another shared list.
	secret := newList(t, p.owner, "Birthday surprise", nil)
	secretToken := shareList(t, p.owner, secret.ID)
	p.owner.must(http.StatusOK, "PATCH", "/api/wishlist/"+p.itemID, map[string]any{"listId": secret.ID}, nil)
	body := p.aunt.must(http.StatusOK, "GET", "/api/claims", nil, nil)
	for _, leak := range []string{secretToken, "Birthday surprise", secret.ID} {
		if strings.Contains(string(body), leak) {
			t.Fatalf("the claimer's shopping list names the other list (%s): %s", leak, body)
		}
	}
	if c := claims(); c[0].List.Token == nil || *c[0].List.Token != p.token || c[0].Item.ListID != p.listID {
		t.Fatalf("after the move: %+v, want the list the claim was made through", c)
	}
	// The owner rotates the link: the old one stops working, and the shopping list stops
	// handing it out (the claim itself stays).
	newToken := shareList(t, p.owner, p.listID)
	if c := claims(); c[0].List.Token != nil {
		t.Fatalf("after the link was rotated the shopping list still gives %q", *c[0].List.Token)
	}
	if strings.Contains(string(p.aunt.must(http.StatusOK, "GET", "/api/claims", nil, nil)), newToken) {
		t.Fatal("the shopping list hands out the new link")
	}
	p.aunt.must(http.StatusNotFound, "GET", "/api/shared/"+p.token, nil, nil)
}

// Attack 9: the owner's notice numbers count only the owner's notices, however many other
// users got in between.
func TestPromiseNoticeNumbersCountOnlyTheOwnersNotices(t *testing.T) {
	owner := newNamedUser(t, "kid", "Kid")
	busy := newNamedUser(t, "busy", "Busy")
	owner.add("First wish")
	for i := 0; i < 5; i++ {
		busy.add("Someone else's wish")
	}
	owner.add("Second wish")
	var notices []struct {
		ID    int64  `json:"id"`
		Event string `json:"event"`
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		owner.must(http.StatusOK, "GET", "/api/notifications", nil, &notices)
		if len(notices) >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if len(notices) != 2 || notices[0].ID != 2 || notices[1].ID != 1 {
		t.Fatalf("the owner's notices are numbered %+v, want 2 and 1", notices)
	}
}

// Attack 10: a barcode answer does not say whether someone looked the code up before: the
// first and the second lookup answer the same bytes and headers.
func TestPromiseABarcodeAnswerDoesNotTellWhetherItWasCached(t *testing.T) {
	visitor := &client{t: t, base: baseURL(t)}
	const code = "4006381333931"
	_, first, h1 := visitor.do("POST", "/api/lookup/barcode", []byte(`{"code":"`+code+`"}`))
	_, second, h2 := visitor.do("POST", "/api/lookup/barcode", []byte(`{"code":"`+code+`"}`))
	if !bytes.Equal(first, second) {
		t.Fatalf("two lookups answered differently:\n%s\n%s", first, second)
	}
	for name := range h2 {
		if strings.Contains(strings.ToLower(name), "cache") && name != "Cache-Control" {
			t.Fatalf("the answer has a header %s: %v (first %v)", name, h2[name], h1[name])
		}
	}
	var problem map[string]any
	_ = json.Unmarshal(second, &problem)
	if len(problem) == 0 {
		t.Fatalf("no answer: %s", second)
	}
}
