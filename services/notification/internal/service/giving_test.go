package service_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// germanDevice registers a device of uid whose app speaks German.
func (p pushed) germanDevice(t *testing.T, uid string) *device {
	t.Helper()
	d := p.ps.subscribe()
	sub := p.ps.subscription(d)
	sub["language"] = "de"
	if r := as(t, p.svc.base, uid, streamOpts{}).Do("POST", "/api/push/subscriptions", bytes.NewReader(mustJSON(t, sub))); r.Status != 201 {
		t.Fatalf("subscribe: %d %s", r.Status, r.Body)
	}
	return d
}

func thanked(itemID, message string, givers ...string) map[string]any {
	return map[string]any{"itemId": itemID, "itemName": "Red scarf", "recipientName": "Grandpa", "message": message,
		"givers": givers, "at": time.Now().UTC()}
}

func pledged(itemID, action string, completedNow bool, pledgers ...string) map[string]any {
	return map[string]any{"itemId": itemID, "itemName": "Bike", "listId": uuid.NewString(), "listName": "Tim's list",
		"ownerName": "Tim", "action": action, "amount": "40.00", "currency": "EUR", "target": "120.00", "pledged": "120.00",
		"complete": completedNow, "completedNow": completedNow, "pledgers": pledgers}
}

// A thank-you reaches each giver's live stream, stored notices and phones (in each phone's
// language), and the one who thanked gets nothing of it. Of a group gift's events, only the
// one that completes it tells anyone: each pledger, never the list's recipient (here not among
// the pledgers, as the wishlist service sends it). A redelivered event adds nothing anywhere.
func TestThanksAndCompleteGroupGiftsReachOnlyGiversAndPledgers(t *testing.T) {
	p := startPushed(t)
	aunt, uncle, grandpa, tim := "aunt-"+uuid.NewString()[:8], "uncle-"+uuid.NewString()[:8], "grandpa-"+uuid.NewString()[:8], "tim-"+uuid.NewString()[:8]
	auntPhone, unclePhone := p.device(t, aunt), p.germanDevice(t, uncle)
	grandpaPhone, timPhone := p.device(t, grandpa), p.device(t, tim)
	auntLive := openStream(t, p.svc.base, aunt, streamOpts{})
	auntLive.hello(t, 0)

	itemID := uuid.NewString()
	env := p.publish(t, events.TypeItemThanked, grandpa, thanked(itemID, "It keeps me warm all winter!", aunt, uncle))
	e := auntLive.next(t)
	d := e.decode(t)
	if e.Event != "thank-you" || d["itemName"] != "Red scarf" || d["recipientName"] != "Grandpa" || d["message"] != "It keeps me warm all winter!" ||
		d["itemId"] != itemID || len(d) != 4 {
		t.Fatalf("the aunt's live notice: %+v", e)
	}
	p.settled()
	got, _ := p.ps.inbox(auntPhone)
	if len(got) != 1 || got[0].Message["title"] != "Grandpa thanked you for Red scarf" || got[0].Message["body"] != "It keeps me warm all winter!" ||
		got[0].Message["url"] != "/gifts/given" || got[0].Message["kind"] != "thank-you" {
		t.Fatalf("the aunt's phone: %+v", got)
	}
	if got, _ := p.ps.inbox(unclePhone); len(got) != 1 || got[0].Message["title"] != "Grandpa bedankt sich für Red scarf" {
		t.Fatalf("the uncle's German phone: %+v", got)
	}

	// A redelivery of the thanks adds nothing.
	env.OccurredAt = env.OccurredAt.Add(time.Millisecond)
	p.b.publishRaw(events.TypeItemThanked, mustJSON(t, env))

	// Every change of the group gift before it is complete: nothing for anyone.
	giftID := uuid.NewString()
	p.publish(t, events.TypeItemPledged, aunt, pledged(giftID, events.PledgeStarted, false, aunt))
	p.publish(t, events.TypeItemPledged, uncle, pledged(giftID, events.PledgeSet, false, aunt, uncle))
	p.publish(t, events.TypeItemPledged, uncle, pledged(giftID, events.PledgeWithdrawn, false, aunt))
	p.publish(t, events.TypeItemPledged, uncle, pledged(giftID, events.PledgeSet, false, aunt, uncle))
	// The pledge that completes it tells both pledgers; once complete, later changes tell nobody.
	complete := p.publish(t, events.TypeItemPledged, uncle, pledged(giftID, events.PledgeSet, true, aunt, uncle))
	p.publish(t, events.TypeItemPledged, uncle, pledged(giftID, events.PledgeSet, false, aunt, uncle))
	complete.OccurredAt = complete.OccurredAt.Add(time.Millisecond)
	p.b.publishRaw(events.TypeItemPledged, mustJSON(t, complete))

	e = auntLive.next(t)
	d = e.decode(t)
	if e.Event != "group-gift-complete" || d["itemName"] != "Bike" || d["listName"] != "Tim's list" || d["ownerName"] != "Tim" || d["itemId"] != giftID {
		t.Fatalf("the aunt's second live notice: %+v", e)
	}
	p.b.consumerSettled(15 * time.Second)
	p.settled()
	if got, _ := p.ps.inbox(auntPhone); len(got) != 2 || got[1].Message["kind"] != "group-gift-complete" || got[1].Message["url"] != "/claims" ||
		got[1].Message["body"] != "Bike for Tim: the pledges reached the target." {
		t.Fatalf("the aunt's phone: %+v", got)
	}
	if got, _ := p.ps.inbox(unclePhone); len(got) != 2 || got[1].Message["title"] != "Ein gemeinsames Geschenk ist komplett" {
		t.Fatalf("the uncle's phone: %+v", got)
	}
	// Exactly one of each to each pledger and giver (newest first), none to anyone else.
	for who, want := range map[string]string{aunt: "group-gift-complete,thank-you", uncle: "group-gift-complete,thank-you", grandpa: "", tim: ""} {
		var got []string
		for _, n := range listNotices(t, p.svc.base, who) {
			got = append(got, n.Event)
		}
		if strings.Join(got, ",") != want {
			t.Fatalf("%s's notices: %v, want %s", who, got, want)
		}
	}
	for name, d := range map[string]*device{"grandpa": grandpaPhone, "tim": timPhone} {
		if got, posts := p.ps.inbox(d); posts != 0 {
			t.Fatalf("%s's phone was pushed %d times: %+v", name, posts, got)
		}
	}
	auntLive.nothing(t, 100*time.Millisecond)
}

// The emails: each giver's digest tells the thanks, with the message, in their language; a
// complete group gift is emailed only to a pledger who turned its email on; the one who
// thanked and the list's recipient get nothing, though every kind's email is on for both.
func TestThanksAndCompleteGroupGiftsAreEmailedToGiversOnly(t *testing.T) {
	m := newMailed(t)
	svc := m.replica(t)
	aunt, uncle, grandpa, tim := user(t, "aunt"), user(t, "uncle"), user(t, "grandpa"), user(t, "tim")
	var all []map[string]any
	for _, k := range domain.KindNames() {
		all = append(all, map[string]any{"kind": k, "channel": "email", "enabled": true})
	}
	setPrefs(t, svc.base, grandpa.UID, map[string]any{"preferences": all})
	setPrefs(t, svc.base, tim.UID, map[string]any{"preferences": all})
	setPrefs(t, svc.base, aunt.UID, map[string]any{"language": "fr", "preferences": []map[string]any{
		{"kind": "groupgift.complete", "channel": "email", "enabled": true}}})

	m.publish(t, events.TypeItemThanked, grandpa.UID, thanked(uuid.NewString(), "Merci <3, it is lovely", aunt.UID, uncle.UID))
	giftID := uuid.NewString()
	m.publish(t, events.TypeItemPledged, aunt.UID, pledged(giftID, events.PledgeStarted, false, aunt.UID))
	m.publish(t, events.TypeItemPledged, uncle.UID, pledged(giftID, events.PledgeSet, true, aunt.UID, uncle.UID))
	m.settled()
	m.queued(t, "", domain.EventThankYou, 2)
	m.queued(t, "", domain.EventGroupGiftComplete, 1) // the uncle's email of it is off by default
	m.clock.Advance(2 * time.Hour)

	msgs := m.inbox(t, aunt.Email, 1)
	body, err := m.mailpit.Message(msgs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body.Text, "Grandpa vous remercie pour Red scarf : « Merci <3, it is lovely »") ||
		!strings.Contains(body.Text, publicURL+"/gifts/given") ||
		!strings.Contains(body.Text, "Bike pour Tim : les participations ont atteint l'objectif.") || !strings.Contains(body.Text, publicURL+"/claims") {
		t.Fatalf("the aunt's digest %q:\n%s", msgs[0].Subject, body.Text)
	}
	msgs = m.inbox(t, uncle.Email, 1)
	body, err = m.mailpit.Message(msgs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body.Text, "Grandpa thanked you for Red scarf: “Merci <3, it is lovely”") || strings.Contains(body.Text, "Bike") {
		t.Fatalf("the uncle's digest:\n%s", body.Text)
	}
	m.stays(t, grandpa.Email, 0)
	m.stays(t, tim.Email, 0)
	m.stays(t, aunt.Email, 1)
}
