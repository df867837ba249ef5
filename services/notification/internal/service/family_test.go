package service_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

// Claims reach the claimer and the list's recent viewers, never the list's owner: the owner's
// stream stays silent while the family claims, releases and is told of removals.
func TestClaimEventsNeverReachTheOwnersStream(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	nats := testenv.StartNATS(t)
	b := newBroker(t, nats.URL())
	svc := start(t, dbURL, nats.URL())

	owner := openStream(t, svc.base, "kid", streamOpts{})
	aunt := openStream(t, svc.base, "aunt", streamOpts{})
	uncle := openStream(t, svc.base, "uncle", streamOpts{})
	for _, s := range []*stream{owner, aunt, uncle} {
		s.hello(t, 0)
	}
	listID, itemID := uuid.NewString(), uuid.NewString()
	claim := map[string]any{"claimerId": "aunt", "itemId": itemID, "itemName": "Red bicycle", "listId": listID,
		"listName": "My Wishlist", "ownerName": "Kid", "quantity": 1, "purchased": false}
	publish := func(typ, uid string, data map[string]any) events.Envelope {
		env, err := events.NewEnvelope(typ, uid, data)
		if err != nil {
			t.Fatal(err)
		}
		b.publish(env)
		return env
	}
	publish(events.TypeItemClaimed, "aunt", claim)
	changed := publish(events.TypeListChanged, "aunt", map[string]any{"listId": listID, "viewers": []string{"aunt", "uncle"}, "cause": "item.claimed"})
	for _, s := range []*stream{aunt, uncle} {
		e := s.next(t)
		if d := e.decode(t); e.Event != "shared-list-changed" || d["listId"] != listID || len(d) != 1 {
			t.Fatalf("viewer's event: %+v", e)
		}
	}
	released := map[string]any{}
	for k, v := range claim {
		released[k] = v
	}
	released["claimerId"], released["reason"] = "uncle", "released"
	publish(events.TypeItemUnclaimed, "uncle", released)
	claim["reason"] = "removed"
	publish(events.TypeItemUnclaimed, "aunt", claim)
	e := aunt.next(t)
	if d := e.decode(t); e.Event != "claim-removed" || d["message"] != "Red bicycle was removed from Kid's list" || d["itemId"] != itemID {
		t.Fatalf("claimer's notice: %+v", e)
	}
	// A redelivered list.changed (the relay published it again) adds nothing.
	changed.OccurredAt = changed.OccurredAt.Add(time.Millisecond)
	b.publishRaw(events.TypeListChanged, mustJSON(t, changed))

	owner.nothing(t, 700*time.Millisecond)
	uncle.nothing(t, 100*time.Millisecond)
	aunt.nothing(t, 100*time.Millisecond)
	if got := listNotices(t, svc.base, "kid"); len(got) != 0 {
		t.Fatalf("the owner has notices: %+v", got)
	}
	if got := listNotices(t, svc.base, "uncle"); len(got) != 1 {
		t.Fatalf("uncle has %d notices, want 1", len(got))
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A Secret Santa draw tells each participant that their match is ready, and nothing of whom
// they drew; someone joining a family is told to its admins. Outsiders hear nothing.
func TestFamilyNotices(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	nats := testenv.StartNATS(t)
	b := newBroker(t, nats.URL())
	svc := start(t, dbURL, nats.URL())

	streams := map[string]*stream{}
	for _, uid := range []string{"ann", "ben", "cleo", "zed"} {
		streams[uid] = openStream(t, svc.base, uid, streamOpts{})
		streams[uid].hello(t, 0)
	}
	familyID := uuid.NewString()
	drawn, err := events.NewEnvelope(events.TypeSecretSantaDrawn, "ann", map[string]any{
		"familyId": familyID, "familyName": "Smiths", "drawnAt": time.Now().UTC(), "participants": []string{"ann", "ben", "cleo"}})
	if err != nil {
		t.Fatal(err)
	}
	b.publish(drawn)
	for _, uid := range []string{"ann", "ben", "cleo"} {
		e := streams[uid].next(t)
		d := e.decode(t)
		if e.Event != "secret-santa" || d["message"] != "Your Secret Santa match is ready" || d["familyId"] != familyID || len(d) != 3 {
			t.Fatalf("%s's notice: %+v", uid, e)
		}
	}
	// A redelivered draw adds nothing.
	drawn.OccurredAt = drawn.OccurredAt.Add(time.Millisecond)
	b.publishRaw(events.TypeSecretSantaDrawn, mustJSON(t, drawn))

	joined, err := events.NewEnvelope(events.TypeFamilyMemberJoined, "cleo", map[string]any{
		"familyId": familyID, "familyName": "Smiths", "uid": "cleo", "displayName": "Cleo", "role": "member", "admins": []string{"ann", "ben"}})
	if err != nil {
		t.Fatal(err)
	}
	b.publish(joined)
	for _, uid := range []string{"ann", "ben"} {
		e := streams[uid].next(t)
		if d := e.decode(t); e.Event != "family-member-joined" || d["message"] != "Cleo joined Smiths" || d["uid"] != "cleo" {
			t.Fatalf("%s's notice: %+v", uid, e)
		}
	}
	b.consumerSettled(10 * time.Second)
	streams["zed"].nothing(t, 300*time.Millisecond)
	streams["cleo"].nothing(t, 100*time.Millisecond)
	for uid, want := range map[string]int{"ann": 2, "ben": 2, "cleo": 1, "zed": 0} {
		if got := listNotices(t, svc.base, uid); len(got) != want {
			t.Fatalf("%s has %d notices, want %d: %+v", uid, len(got), want, got)
		}
	}
}
