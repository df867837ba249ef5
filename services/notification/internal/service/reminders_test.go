package service_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/events"
)

// deviceIn subscribes a new device of uid whose app speaks lang.
func (p pushed) deviceIn(t *testing.T, uid, lang string) *device {
	t.Helper()
	d := p.ps.subscribe()
	body := p.ps.subscription(d)
	body["language"] = lang
	r := as(t, p.svc.base, uid, streamOpts{}).Do("POST", "/api/push/subscriptions", bytes.NewReader(mustJSON(t, body)))
	if r.Status != 201 {
		t.Fatalf("subscribe: %d %s", r.Status, r.Body)
	}
	return d
}

// publishTwice publishes a reminder event and then the same event again (a relay that
// published before it could mark the row), and waits until both consumers handled both.
func (p pushed) publishTwice(t *testing.T, typ, uid string, data any) events.Envelope {
	t.Helper()
	env, err := events.NewEnvelope(typ, uid, data)
	if err != nil {
		t.Fatal(err)
	}
	p.b.publish(env)
	p.b.publishRaw(typ, mustJSON(t, env)) // no Nats-Msg-Id: JetStream delivers the copy
	p.settled()
	p.b.consumerSettled(15 * time.Second)
	return env
}

// Each reminder, delivered twice, makes one notice in its recipient's feed and on their open
// stream, and one push to each of their devices, written in that device's language and
// opening the screen it is about.
func TestARemindersDeliveredTwiceMakeOneNoticeAndOnePushPerDevice(t *testing.T) {
	p := startPushed(t)
	annPhone, annLaptop := p.deviceIn(t, "ann", "en-GB"), p.deviceIn(t, "ann", "de")
	carl, ema := p.deviceIn(t, "carl", "fr"), p.deviceIn(t, "ema", "es")
	dan := p.deviceIn(t, "dan", "de")
	live := openStream(t, p.svc.base, "ann", streamOpts{})
	live.hello(t, 0)

	familyID, listID := uuid.NewString(), uuid.NewString()
	reveal := time.Date(2026, 12, 26, 0, 0, 0, 0, time.UTC)
	p.publishTwice(t, events.TypeReminderDrawSoon, "ann", events.DrawSoonData{FamilyID: familyID, FamilyName: "The Smiths", DrawOn: "2026-12-01", DaysLeft: 3})
	p.publishTwice(t, events.TypeReminderShopping, "carl", events.ShoppingData{RevealAt: reveal, DaysLeft: 7, NotPurchased: 2})
	p.publishTwice(t, events.TypeReminderListEmpty, "ema", events.ListEmptyData{ListID: listID, ListName: "Ema's list", RevealAt: reveal, DaysLeft: 30})
	p.publishTwice(t, events.TypeReminderExchangeSoon, "dan", events.ExchangeSoonData{FamilyID: familyID, FamilyName: "The Smiths",
		ExchangeOn: "2026-12-24", Place: "Grandma's", DaysLeft: 3})

	// The live stream: once.
	e := live.next(t)
	if e.Event != "reminder-draw-soon" {
		t.Fatalf("ann's stream: %+v", e)
	}
	var streamed map[string]any
	_ = json.Unmarshal([]byte(e.Data), &streamed)
	if streamed["title"] != "Secret Santa draw in 3 days" || streamed["familyId"] != familyID || streamed["drawOn"] != "2026-12-01" {
		t.Fatalf("ann's stream data %s", e.Data)
	}
	live.nothing(t, time.Second)

	// The feed: one notice each.
	feeds := map[string]struct{ event, title, message string }{
		"ann":  {"reminder-draw-soon", "Secret Santa draw in 3 days", "The Smiths: the names have not been drawn yet."},
		"carl": {"reminder-shopping", "Christmas in 7 days", "2 gifts on your shopping list are not marked purchased"},
		"ema":  {"reminder-list-empty", "Your list is empty", "“Ema's list” is shared, but has no wishes yet."},
		"dan":  {"reminder-exchange-soon", "Secret Santa exchange in 3 days", "The Smiths: presents are swapped at Grandma's."},
	}
	for uid, want := range feeds {
		got := listNotices(t, p.svc.base, uid)
		if len(got) != 1 || got[0].Event != want.event {
			t.Fatalf("%s's feed: %+v, want one %s", uid, got, want.event)
		}
		var d struct{ Title, Message string }
		_ = json.Unmarshal(got[0].Data, &d)
		if d.Title != want.title || d.Message != want.message {
			t.Fatalf("%s's notice: %s", uid, got[0].Data)
		}
	}

	// The pushes: one per device, in its language, opening the right screen.
	pushes := []struct {
		name       string
		d          *device
		title, url string
	}{
		{"ann's phone (en-GB)", annPhone, "Secret Santa draw in 3 days", "/family/" + familyID + "/secret-santa"},
		{"ann's laptop (de)", annLaptop, "Wichteln: in 3 Tagen wird gezogen", "/family/" + familyID + "/secret-santa"},
		{"carl (fr)", carl, "Noël dans 7 jours", "/claims"},
		{"ema (es)", ema, "Tu lista está vacía", "/wishlist?list=" + listID},
		{"dan (de)", dan, "Wichteln: Bescherung in 3 Tagen", "/family/" + familyID + "/secret-santa"},
	}
	for _, w := range pushes {
		got, posts := p.ps.inbox(w.d)
		if len(got) != 1 || posts != 1 {
			t.Fatalf("%s received %d pushes in %d posts, want 1: %+v", w.name, len(got), posts, got)
		}
		if got[0].Message["title"] != w.title || got[0].Message["url"] != w.url || got[0].TTL <= 0 || got[0].Topic == "" {
			t.Fatalf("%s: %+v (TTL %d, topic %q)", w.name, got[0].Message, got[0].TTL, got[0].Topic)
		}
	}
	if got, _ := p.ps.inbox(carl); got[0].Message["body"] != "2 cadeaux de votre liste d'achats ne sont pas marqués comme achetés" {
		t.Fatalf("carl's body %q", got[0].Message["body"])
	}
}

// The promise, from the owner's side: kid's items are all claimed (and one marked bought) by
// the family, the claimers are reminded of their shopping, and kid is reminded of another
// list that is empty. Kid's feed and devices carry that one reminder and nothing that a claim
// caused: no notice, no push, no field counting or naming a claim.
func TestAnOwnerWhoseItemsAreAllClaimedHearsNothingOfTheClaims(t *testing.T) {
	p := startPushed(t)
	kidPhone := p.deviceIn(t, "kid", "en")
	aunt := p.deviceIn(t, "aunt", "en")
	listID, emptyList := uuid.NewString(), uuid.NewString()
	reveal := time.Date(2026, 12, 26, 0, 0, 0, 0, time.UTC)
	for i, claimer := range []string{"aunt", "uncle"} {
		claim := map[string]any{"claimerId": claimer, "itemId": uuid.NewString(), "itemName": "Gift", "listId": listID,
			"listName": "Kid's list", "ownerName": "Kid", "quantity": 1, "purchased": i == 1}
		p.publish(t, events.TypeItemClaimed, claimer, claim)
	}
	p.publishTwice(t, events.TypeReminderShopping, "aunt", events.ShoppingData{RevealAt: reveal, DaysLeft: 7, NotPurchased: 1})
	p.publishTwice(t, events.TypeReminderListEmpty, "kid", events.ListEmptyData{ListID: emptyList, ListName: "Kid's other list", RevealAt: reveal, DaysLeft: 30})

	feed := listNotices(t, p.svc.base, "kid")
	if len(feed) != 1 || feed[0].Event != "reminder-list-empty" {
		t.Fatalf("kid's feed: %+v", feed)
	}
	var fields map[string]any
	_ = json.Unmarshal(feed[0].Data, &fields)
	for _, claimish := range []string{"notPurchased", "claimed", "claims", "mine", "purchased"} {
		if _, ok := fields[claimish]; ok {
			t.Fatalf("kid's notice carries %q: %s", claimish, feed[0].Data)
		}
	}
	if fields["listId"] != emptyList {
		t.Fatalf("kid's notice is about %v", fields["listId"])
	}
	got, posts := p.ps.inbox(kidPhone)
	if len(got) != 1 || posts != 1 || got[0].Message["kind"] != "reminder-list-empty" {
		t.Fatalf("kid's phone: %d posts %+v", posts, got)
	}
	if bytes.Contains(mustJSON(t, got[0].Message), []byte("purchased")) || bytes.Contains(mustJSON(t, got[0].Message), []byte(listID)) {
		t.Fatalf("kid's push speaks of the claimed list: %+v", got[0].Message)
	}
	// The claimer was reminded (the reminders do work), once.
	if got, _ := p.ps.inbox(aunt); len(got) != 1 || got[0].Message["kind"] != "reminder-shopping" {
		t.Fatalf("aunt's pushes: %+v", got)
	}
}
