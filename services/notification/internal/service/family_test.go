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
