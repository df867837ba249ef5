package service_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// as calls the service as the gateway would for a signed-in user with a display name.
func (w *wishlist) as(method, path, uid, name string, body any) (int, []byte) {
	w.t.Helper()
	u := auth.User{UID: uid}
	if uid != "" {
		u.Name = name
	}
	return w.send(method, path, u, body)
}

// must calls and fails the test unless the status is want; it decodes the answer into out.
func (w *wishlist) must(want int, method, path, uid string, body, out any) []byte {
	w.t.Helper()
	name := uid
	if uid != "" {
		name = strings.ToUpper(uid[:1]) + uid[1:]
	}
	code, b := w.as(method, path, uid, name, body)
	if code != want {
		w.t.Fatalf("%s %s as %s: %d %s (want %d)", method, path, uid, code, b, want)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			w.t.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
	return b
}

type apiError struct {
	Error struct {
		Code    string            `json:"code"`
		Message string            `json:"message"`
		Fields  map[string]string `json:"fields"`
	} `json:"error"`
}

// refused checks a 4xx answer's status and code.
func (w *wishlist) refused(want int, code, method, path, uid string, body any) apiError {
	w.t.Helper()
	var e apiError
	w.must(want, method, path, uid, body, &e)
	if e.Error.Code != code {
		w.t.Fatalf("%s %s: code %q, want %q (%s)", method, path, e.Error.Code, code, e.Error.Message)
	}
	return e
}

type listView struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	IsDefault bool      `json:"isDefault"`
	ItemCount int       `json:"itemCount"`
	RevealAt  time.Time `json:"revealAt"`
	Share     *struct {
		Token string `json:"token"`
		URL   string `json:"url"`
	} `json:"share"`
	FamilyIDs []string `json:"familyIds"`
}

func gift(name string, more map[string]any) map[string]any {
	g := map[string]any{"name": name, "description": "A lovely present for Christmas", "category": "Toys", "price": "$10"}
	for k, v := range more {
		g[k] = v
	}
	return g
}

func (w *wishlist) addTo(uid, listID, name string, quantity int) string {
	w.t.Helper()
	var item struct{ ID string }
	w.must(201, "POST", "/api/wishlist", uid, gift(name, map[string]any{"listId": listID, "quantity": quantity}), &item)
	return item.ID
}

func (w *wishlist) share(uid, listID string) string {
	w.t.Helper()
	var s struct{ Token, URL string }
	w.must(200, "POST", "/api/lists/"+listID+"/share", uid, nil, &s)
	return s.Token
}

func (w *wishlist) defaultList(uid string) listView {
	w.t.Helper()
	var lists []listView
	w.must(200, "GET", "/api/lists", uid, nil, &lists)
	if len(lists) == 0 || !lists[0].IsDefault {
		w.t.Fatalf("%s has no default list first: %+v", uid, lists)
	}
	return lists[0]
}

func TestEveryUserHasADefaultListAndAtMostTwenty(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	w := start(t, dbURL, testenv.StartNATS(t).URL())

	def := w.defaultList("alice")
	if def.Name != domain.DefaultListName || def.ItemCount != 0 || def.Share != nil || def.FamilyIDs == nil {
		t.Fatalf("default list: %+v", def)
	}
	if want := domain.DefaultRevealAt(time.Now()); !def.RevealAt.Equal(want) {
		t.Fatalf("reveal date %v, want %v", def.RevealAt, want)
	}
	// An item added without a listId lands in the default list, as before lists existed.
	w.add("alice", "Old style gift")
	if def = w.defaultList("alice"); def.ItemCount != 1 {
		t.Fatalf("default list after add: %+v", def)
	}

	for _, bad := range []any{"", "   ", strings.Repeat("x", 61), nil} {
		e := w.refused(422, "validation_failed", "POST", "/api/lists", "alice", map[string]any{"name": bad})
		if e.Error.Message != domain.MsgListName || e.Error.Fields["name"] != domain.MsgListName {
			t.Fatalf("name %q: %+v", bad, e)
		}
	}
	var made listView
	w.must(201, "POST", "/api/lists", "alice", map[string]any{"name": strings.Repeat("é", 60)}, &made)
	if made.IsDefault || made.Name != strings.Repeat("é", 60) {
		t.Fatalf("made %+v", made)
	}
	for i := 3; i <= domain.MaxListsPerUser; i++ {
		w.must(201, "POST", "/api/lists", "alice", map[string]any{"name": fmt.Sprintf("List %d", i)}, nil)
	}
	w.refused(409, "too_many_lists", "POST", "/api/lists", "alice", map[string]any{"name": "One too many"})
	var lists []listView
	w.must(200, "GET", "/api/lists", "alice", nil, &lists)
	if len(lists) != domain.MaxListsPerUser {
		t.Fatalf("%d lists", len(lists))
	}

	w.refused(409, "default_list", "DELETE", "/api/lists/"+def.ID, "alice", nil)
	var renamed listView
	w.must(200, "PATCH", "/api/lists/"+made.ID, "alice", map[string]any{"name": " Birthday "}, &renamed)
	if renamed.Name != "Birthday" {
		t.Fatalf("renamed %+v", renamed)
	}
	w.must(204, "DELETE", "/api/lists/"+made.ID, "alice", nil, nil)
	w.must(201, "POST", "/api/lists", "alice", map[string]any{"name": "Room again"}, nil)
}

// Another user's list, item or share is a 404, answered exactly like one that does not exist.
func TestAnotherUsersListAndItemAreNotFound(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	w := start(t, dbURL, testenv.StartNATS(t).URL())
	var list listView
	w.must(201, "POST", "/api/lists", "alice", map[string]any{"name": "Birthday"}, &list)
	item := w.addTo("alice", list.ID, "Kite with a tail", 1)
	missing := "00000000-0000-4000-8000-000000000000"

	for _, id := range []string{list.ID, missing} {
		for _, c := range []struct{ method, path string }{
			{"GET", "/api/wishlist?listId=" + id}, {"PATCH", "/api/lists/" + id}, {"DELETE", "/api/lists/" + id},
			{"POST", "/api/lists/" + id + "/share"}, {"DELETE", "/api/lists/" + id + "/share"},
		} {
			var body any = map[string]any{"name": "Mine now"}
			if c.method != "PATCH" {
				body = nil
			}
			code, b := w.as(c.method, c.path, "mallory", "Mallory", body)
			if code != 404 || !strings.Contains(string(b), `"code":"not_found"`) {
				t.Errorf("%s %s as another user: %d %s", c.method, c.path, code, b)
			}
		}
	}
	for _, id := range []string{item, missing} {
		w.refused(404, "not_found", "PATCH", "/api/wishlist/"+id, "mallory", map[string]any{"name": "Stolen kite"})
		w.refused(404, "not_found", "DELETE", "/api/wishlist/"+id, "mallory", nil)
	}
	// Nor can an item be put into someone else's list.
	e := w.refused(422, "validation_failed", "POST", "/api/wishlist", "mallory", gift("Planted gift", map[string]any{"listId": list.ID}))
	if e.Error.Fields["listId"] != domain.MsgListUnknown {
		t.Fatalf("foreign listId: %+v", e)
	}
	mine := w.add("mallory", "Mallory's own gift")
	e = w.refused(422, "validation_failed", "PATCH", "/api/wishlist/"+mine, "mallory", map[string]any{"listId": list.ID})
	if e.Error.Fields["listId"] != domain.MsgListUnknown {
		t.Fatalf("moving into a foreign list: %+v", e)
	}
	var items []map[string]any
	w.must(200, "GET", "/api/wishlist?listId="+list.ID, "alice", nil, &items)
	if len(items) != 1 || items[0]["name"] != "Kite with a tail" {
		t.Fatalf("alice's list changed: %v", items)
	}
}

func TestEditingAnItemUsesTheSpecsMessages(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())
	id := w.add("kid", "Wooden Train")
	var other listView
	w.must(201, "POST", "/api/lists", "kid", map[string]any{"name": "Grandma's house"}, &other)

	for _, c := range []struct {
		body  map[string]any
		field string
		msg   string
	}{
		{map[string]any{"name": "ab"}, "name", domain.MsgNameTooShort},
		{map[string]any{"description": "short"}, "description", domain.MsgDescriptionTooShort},
		{map[string]any{"category": ""}, "category", domain.MsgCategoryMissing},
		{map[string]any{"imageUrl": "not a url"}, "imageUrl", domain.MsgImageURLInvalid},
		{map[string]any{"searchQuery": "ab"}, "searchQuery", domain.MsgSearchQueryTooShort},
		{map[string]any{"priority": 0}, "priority", domain.MsgPriority},
		{map[string]any{"priority": 4}, "priority", domain.MsgPriority},
		{map[string]any{"quantity": 0}, "quantity", domain.MsgQuantity},
		{map[string]any{"quantity": 100}, "quantity", domain.MsgQuantity},
		{map[string]any{"notes": strings.Repeat("n", 501)}, "notes", domain.MsgNotesTooLong},
		{map[string]any{"listId": "not-a-list"}, "listId", domain.MsgListUnknown},
	} {
		e := w.refused(422, "validation_failed", "PATCH", "/api/wishlist/"+id, "kid", c.body)
		if e.Error.Fields[c.field] != c.msg || e.Error.Message != c.msg {
			t.Errorf("%v: %+v", c.body, e.Error)
		}
	}
	if code, _ := w.as("PATCH", "/api/wishlist/"+id, "kid", "Kid", map[string]any{"quantity": "two"}); code != 400 {
		t.Errorf("wrong type: %d", code)
	}
	var edited map[string]any
	w.must(200, "PATCH", "/api/wishlist/"+id, "kid", map[string]any{
		"name": "Wooden Train Set", "priority": 3, "quantity": 2, "notes": "Any colour but pink", "listId": other.ID, "price": nil,
	}, &edited)
	if edited["name"] != "Wooden Train Set" || edited["priority"] != 3.0 || edited["quantity"] != 2.0 ||
		edited["notes"] != "Any colour but pink" || edited["listId"] != other.ID || edited["price"] != nil ||
		edited["description"] != "A lovely present for Christmas" {
		t.Fatalf("edited: %v", edited)
	}
	var moved []map[string]any
	w.must(200, "GET", "/api/wishlist?listId="+other.ID, "kid", nil, &moved)
	if len(moved) != 1 || moved[0]["id"] != id || moved[0]["notes"] != "Any colour but pink" {
		t.Fatalf("the other list: %v", moved)
	}
	var stayed []map[string]any
	w.must(200, "GET", "/api/wishlist", "kid", nil, &stayed)
	if len(stayed) != 0 {
		t.Fatalf("the default list still holds %v", stayed)
	}
	testenv.Eventually(t, 10*time.Second, func() error {
		for _, e := range streamEventsQuiet(t, broker.URL()) {
			conformsToSchema(t, e)
			if e.Type == events.TypeItemUpdated && e.UserID == "kid" && strings.Contains(string(e.Data), `"priority":3`) {
				return nil
			}
		}
		return fmt.Errorf("no item.updated yet")
	})
}

func TestDeletingAListDeletesItsItemsAndAnnouncesEach(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())
	w.add("kid", "Stays on the default list")
	var list listView
	w.must(201, "POST", "/api/lists", "kid", map[string]any{"name": "Birthday"}, &list)
	a, b := w.addTo("kid", list.ID, "Birthday kite", 1), w.addTo("kid", list.ID, "Birthday drum", 1)
	w.must(204, "DELETE", "/api/lists/"+list.ID, "kid", nil, nil)
	w.refused(404, "not_found", "GET", "/api/wishlist?listId="+list.ID, "kid", nil)
	var lists []listView
	w.must(200, "GET", "/api/lists", "kid", nil, &lists)
	if len(lists) != 1 || lists[0].ItemCount != 1 {
		t.Fatalf("lists after delete: %+v", lists)
	}
	testenv.Eventually(t, 10*time.Second, func() error {
		deleted, listDeleted := map[string]bool{}, false
		for _, e := range streamEventsQuiet(t, broker.URL()) {
			conformsToSchema(t, e)
			var d struct {
				ID            string `json:"id"`
				WishlistCount int    `json:"wishlistCount"`
				ItemCount     int    `json:"itemCount"`
			}
			_ = json.Unmarshal(e.Data, &d)
			switch {
			case e.Type == events.TypeItemDeleted:
				deleted[d.ID] = true
			case e.Type == events.TypeListDeleted && d.ID == list.ID && d.ItemCount == 2:
				listDeleted = true
			}
		}
		if !deleted[a] || !deleted[b] || !listDeleted {
			return fmt.Errorf("deleted %v, list.deleted %v", deleted, listDeleted)
		}
		return nil
	})
}

type sharedView struct {
	Viewer string `json:"viewer"`
	List   struct {
		ID, Name, OwnerName string
	} `json:"list"`
	Items []map[string]any `json:"items"`
}

func TestShareLinksRotateAndRevoke(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	w := start(t, dbURL, testenv.StartNATS(t).URL())
	def := w.defaultList("emma")
	w.add("emma", "Older gift")
	w.addTo("emma", def.ID, "Most wanted bike", 1)
	newest := w.addTo("emma", def.ID, "Newest gift", 1)
	var bike []map[string]any
	w.must(200, "GET", "/api/wishlist", "emma", nil, &bike)
	w.must(200, "PATCH", "/api/wishlist/"+bike[1]["id"].(string), "emma", map[string]any{"priority": 3}, nil)

	token := w.share("emma", def.ID)
	if !regexp.MustCompile(`^[A-Za-z0-9_-]{22,}$`).MatchString(token) {
		t.Fatalf("token %q is not URL-safe or shorter than 128 bits", token)
	}
	var lists []listView
	w.must(200, "GET", "/api/lists", "emma", nil, &lists)
	if lists[0].Share == nil || lists[0].Share.Token != token || lists[0].Share.URL != "/l/"+token {
		t.Fatalf("list share: %+v", lists[0].Share)
	}

	var anon sharedView
	w.must(200, "GET", "/api/shared/"+token, "", nil, &anon)
	if anon.Viewer != "anonymous" || anon.List.Name != "My Wishlist" || anon.List.OwnerName != "Emma" || len(anon.Items) != 3 {
		t.Fatalf("anonymous view: %+v", anon)
	}
	if anon.Items[0]["name"] != "Most wanted bike" || anon.Items[1]["id"] != newest {
		t.Fatalf("order: %v", anon.Items)
	}
	for _, it := range anon.Items { // an anonymous visitor (the owner in a private window) sees no claim field
		if _, has := it["claimed"]; has {
			t.Fatalf("the anonymous view has claim fields: %v", it)
		}
		if _, has := it["mine"]; has {
			t.Fatalf("the anonymous view has claim fields: %v", it)
		}
	}
	var member, owner sharedView
	w.must(200, "GET", "/api/shared/"+token, "aunt", nil, &member)
	w.must(200, "GET", "/api/shared/"+token, "emma", nil, &owner)
	if member.Viewer != "member" || owner.Viewer != "owner" {
		t.Fatalf("viewers %q %q", member.Viewer, owner.Viewer)
	}
	for _, it := range owner.Items {
		if _, ok := it["claimed"]; ok {
			t.Fatalf("the owner's view has claim fields: %v", it)
		}
	}

	rotated := w.share("emma", def.ID)
	if rotated == token {
		t.Fatal("rotating kept the token")
	}
	unknown := w.refused(404, "share_not_found", "GET", "/api/shared/"+token, "", nil)
	w.must(200, "GET", "/api/shared/"+rotated, "", nil, nil)
	w.must(204, "DELETE", "/api/lists/"+def.ID+"/share", "emma", nil, nil)
	revoked := w.refused(404, "share_not_found", "GET", "/api/shared/"+rotated, "", nil)
	garbage := w.refused(404, "share_not_found", "GET", "/api/shared/nonsense", "", nil)
	if !reflect.DeepEqual(unknown, revoked) || !reflect.DeepEqual(revoked, garbage) {
		t.Fatalf("unknown, revoked and malformed tokens answer differently: %+v %+v %+v", unknown, revoked, garbage)
	}
	// Someone else cannot share or revoke Emma's list.
	w.refused(404, "not_found", "POST", "/api/lists/"+def.ID+"/share", "mallory", nil)
}

type claimAnswer struct {
	Claimed, Mine int
	Purchased     bool
}

func TestClaimQuantitiesOwnerAndVisitors(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())
	def := w.defaultList("emma")
	bricks := w.addTo("emma", def.ID, "Box of bricks", 3)
	token := w.share("emma", def.ID)
	claim := "/api/shared/" + token + "/items/" + bricks + "/claim"

	var a claimAnswer
	w.must(200, "PUT", claim, "aunt", map[string]any{"quantity": 2}, &a)
	if a != (claimAnswer{2, 2, false}) {
		t.Fatalf("aunt: %+v", a)
	}
	e := w.refused(409, "not_enough_left", "PUT", claim, "uncle", map[string]any{"quantity": 2})
	if !strings.Contains(e.Error.Message, "not enough") {
		t.Fatalf("message %q", e.Error.Message)
	}
	w.must(200, "PUT", claim, "uncle", map[string]any{"quantity": 1, "purchased": true}, &a)
	if a != (claimAnswer{3, 1, true}) {
		t.Fatalf("uncle: %+v", a)
	}
	// The aunt may keep what she holds: 2 of (0 left + her 2).
	w.must(200, "PUT", claim, "aunt", map[string]any{"quantity": 2, "purchased": true}, &a)
	w.refused(409, "not_enough_left", "PUT", claim, "aunt", map[string]any{"quantity": 3})
	w.refused(422, "validation_failed", "PUT", claim, "aunt", map[string]any{"quantity": 0})
	w.refused(403, "own_list", "PUT", claim, "emma", map[string]any{"quantity": 1})
	w.refused(403, "own_list", "DELETE", claim, "emma", nil)
	if code, _ := w.call("PUT", claim, "", map[string]any{"quantity": 1}); code != 401 {
		t.Fatalf("anonymous claim: %d", code)
	}
	w.refused(404, "share_not_found", "PUT", "/api/shared/"+strings.Repeat("A", 43)+"/items/"+bricks+"/claim", "aunt", map[string]any{"quantity": 1})
	other := w.add("mallory", "Mallory's item")
	w.refused(404, "not_found", "PUT", "/api/shared/"+token+"/items/"+other+"/claim", "aunt", map[string]any{"quantity": 1})

	var view sharedView
	w.must(200, "GET", "/api/shared/"+token, "uncle", nil, &view)
	if view.Items[0]["claimed"] != 3.0 || view.Items[0]["mine"] != 1.0 {
		t.Fatalf("uncle's view: %v", view.Items[0])
	}
	var mine []struct {
		Quantity  int
		Purchased bool
		List      struct{ Name, OwnerName, Token string }
		Item      map[string]any
	}
	w.must(200, "GET", "/api/claims", "aunt", nil, &mine)
	if len(mine) != 1 || mine[0].Quantity != 2 || !mine[0].Purchased || mine[0].List.OwnerName != "Emma" ||
		mine[0].List.Token != token || mine[0].Item["id"] != bricks {
		t.Fatalf("aunt's shopping list: %+v", mine)
	}
	w.must(200, "GET", "/api/claims", "emma", nil, &mine)
	if len(mine) != 0 {
		t.Fatalf("emma's shopping list holds her own gifts: %+v", mine)
	}
	w.must(204, "DELETE", claim, "aunt", nil, nil)
	w.must(204, "DELETE", claim, "aunt", nil, nil) // releasing twice is fine
	w.must(200, "GET", "/api/shared/"+token, "cousin", nil, &view)
	if view.Items[0]["claimed"] != 1.0 || view.Items[0]["mine"] != 0.0 {
		t.Fatalf("after release: %v", view.Items[0])
	}
	testenv.Eventually(t, 10*time.Second, func() error {
		claimed, unclaimed := 0, 0
		for _, e := range streamEventsQuiet(t, broker.URL()) {
			conformsToSchema(t, e)
			if e.Type == events.TypeItemClaimed || e.Type == events.TypeItemUnclaimed {
				if e.UserID == "emma" || strings.Contains(string(e.Data), `"emma"`) {
					t.Fatalf("a claim event names the owner: %+v %s", e, e.Data)
				}
				if e.Type == events.TypeItemClaimed {
					claimed++
				} else {
					unclaimed++
				}
			}
		}
		if claimed != 3 || unclaimed != 1 {
			return fmt.Errorf("%d item.claimed, %d item.unclaimed", claimed, unclaimed)
		}
		return nil
	})
}

func TestTwentyConcurrentClaimersGetExactlyTheUnitsLeft(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	w := start(t, dbURL, testenv.StartNATS(t).URL())
	def := w.defaultList("emma")
	item := w.addTo("emma", def.ID, "Limited edition doll", 5)
	token := w.share("emma", def.ID)
	claim := "/api/shared/" + token + "/items/" + item + "/claim"
	w.must(200, "PUT", claim, "early-bird", map[string]any{"quantity": 2}, nil) // 3 left

	codes := make(chan int, 20)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			code, _ := w.as("PUT", claim, fmt.Sprintf("cousin-%d", i), "Cousin", map[string]any{"quantity": 1})
			codes <- code
		}(i)
	}
	close(start)
	wg.Wait()
	close(codes)
	count := map[int]int{}
	for c := range codes {
		count[c]++
	}
	if count[200] != 3 || count[409] != 17 {
		t.Fatalf("answers %v, want exactly 3×200 and 17×409", count)
	}
	var view sharedView
	w.must(200, "GET", "/api/shared/"+token, "auntie", nil, &view)
	if view.Items[0]["claimed"] != 5.0 {
		t.Fatalf("claimed %v of 5", view.Items[0]["claimed"])
	}
}

// The owner sees a claim once the claim's own reveal date has passed, and not before: moving
// the list's date into the past is refused, and a date that passes reveals only the claims
// made under it.
func TestTheRevealDateSwitchesTheOwnersView(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	w := start(t, dbURL, testenv.StartNATS(t).URL())
	def := w.defaultList("emma")
	item := w.addTo("emma", def.ID, "Red bicycle", 2)
	token := w.share("emma", def.ID)
	soon := time.Now().Add(1500 * time.Millisecond).Truncate(time.Millisecond)
	w.must(200, "PATCH", "/api/lists/"+def.ID, "emma", map[string]any{"revealAt": soon}, nil)
	w.must(200, "PUT", "/api/shared/"+token+"/items/"+item+"/claim", "aunt", map[string]any{"quantity": 1, "purchased": true}, nil)

	before := string(w.must(200, "GET", "/api/wishlist", "emma", nil, nil))
	if !strings.Contains(before, `"claims":[]`) || strings.Contains(before, "Aunt") {
		t.Fatalf("the owner sees a claim before the reveal date: %s", before)
	}
	w.refused(422, "validation_failed", "PATCH", "/api/lists/"+def.ID, "emma", map[string]any{"revealAt": "soon"})
	w.refused(422, "validation_failed", "PATCH", "/api/lists/"+def.ID, "emma", map[string]any{"revealAt": time.Now().Add(-time.Minute)})
	time.Sleep(time.Until(soon) + 200*time.Millisecond)
	var after []struct {
		ID     string
		Claims []struct {
			DisplayName string
			Quantity    int
			Purchased   bool
		}
	}
	w.must(200, "GET", "/api/wishlist", "emma", nil, &after)
	if len(after) != 1 || len(after[0].Claims) != 1 || after[0].Claims[0].DisplayName != "Aunt" ||
		after[0].Claims[0].Quantity != 1 || !after[0].Claims[0].Purchased {
		t.Fatalf("after the reveal date: %+v", after)
	}
	var owner sharedView
	w.must(200, "GET", "/api/shared/"+token, "emma", nil, &owner)
	for _, field := range []string{"claims", "claimed", "mine"} { // the history is on the owner's own list
		if _, has := owner.Items[0][field]; has {
			t.Fatalf("the owner's shared view has %s: %v", field, owner.Items[0])
		}
	}
}

func TestAnEmptySharedListOpensForVisitorsAndMembers(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	w := start(t, dbURL, testenv.StartNATS(t).URL())
	var list listView
	w.must(201, "POST", "/api/lists", "emma", map[string]any{"name": "Empty <for now>"}, &list)
	token := w.share("emma", list.ID)
	for _, uid := range []string{"", "aunt"} {
		body := w.must(200, "GET", "/api/shared/"+token, uid, nil, nil)
		var view sharedView
		_ = json.Unmarshal(body, &view)
		if view.List.ID != list.ID || view.List.Name != "Empty <for now>" || view.List.OwnerName != "Emma" ||
			view.Items == nil || len(view.Items) != 0 {
			t.Fatalf("viewer %q: %s", uid, body)
		}
	}
}
