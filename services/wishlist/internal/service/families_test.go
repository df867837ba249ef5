package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// familyBus publishes the family service's membership events on the test's own NATS, as
// the family service's outbox relay does.
type familyBus struct {
	t   *testing.T
	url string
}

func (b familyBus) publish(env events.Envelope) {
	b.t.Helper()
	testenv.Publish(b.t, b.url, env)
}

func (b familyBus) event(eventType, familyID, uid string, at time.Time, extra map[string]any) events.Envelope {
	b.t.Helper()
	data := map[string]any{"familyId": familyID, "familyName": "Smiths", "uid": uid}
	if eventType == events.TypeFamilyMemberJoined {
		data["displayName"], data["role"], data["admins"] = uid, "member", []string{uid}
	} else {
		data["familyDeleted"], data["drawCancelled"] = false, false
	}
	for k, v := range extra {
		data[k] = v
	}
	env, err := events.NewEnvelope(eventType, uid, data)
	if err != nil {
		b.t.Fatal(err)
	}
	env.OccurredAt = at
	return env
}

func (b familyBus) joined(familyID, uid string, at time.Time) events.Envelope {
	env := b.event(events.TypeFamilyMemberJoined, familyID, uid, at, nil)
	b.publish(env)
	return env
}

func (b familyBus) left(familyID, uid string, at time.Time, familyDeleted bool) events.Envelope {
	env := b.event(events.TypeFamilyMemberLeft, familyID, uid, at, map[string]any{"familyDeleted": familyDeleted})
	b.publish(env)
	return env
}

// member waits until the projection holds uid's membership (or its end).
func member(t *testing.T, pool *pgxpool.Pool, familyID, uid string, want bool) {
	t.Helper()
	testenv.Eventually(t, 10*time.Second, func() error {
		var is bool
		err := pool.QueryRow(context.Background(), "SELECT member FROM family_memberships WHERE family_id = $1 AND uid = $2",
			familyID, uid).Scan(&is)
		if err != nil || is != want {
			return fmt.Errorf("%s in %s: member=%v (%v), want %v", uid, familyID, is, err, want)
		}
		return nil
	})
}

// outboxEmpty waits until the relay published every event written so far.
func outboxEmpty(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	testenv.Eventually(t, 10*time.Second, func() error {
		var n int
		if err := pool.QueryRow(context.Background(), "SELECT count(*) FROM outbox WHERE published_at IS NULL").Scan(&n); err != nil || n > 0 {
			return fmt.Errorf("%d events in the outbox (%v)", n, err)
		}
		return nil
	})
}

// listFamiliesEvents are the list.families events published so far, checked against the schema.
func listFamiliesEvents(t *testing.T, natsURL string) []struct {
	ListID    string
	Token     *string
	FamilyIDs []string
	Version   int64
} {
	t.Helper()
	var out []struct {
		ListID    string
		Token     *string
		FamilyIDs []string
		Version   int64
	}
	for _, env := range streamEvents(t, natsURL) {
		if env.Type != events.TypeListFamilies {
			continue
		}
		conformsToSchema(t, env)
		var d struct {
			ListID    string
			Token     *string
			FamilyIDs []string
			Version   int64
		}
		if err := json.Unmarshal(env.Data, &d); err != nil {
			t.Fatal(err)
		}
		if len(d.FamilyIDs) > 0 && d.Token == nil {
			t.Fatalf("a list shared with families without a link: %s", env.Data)
		}
		out = append(out, d)
	}
	return out
}

func TestSharingAListWithAFamilyFollowsTheMembershipEvents(t *testing.T) {
	pool, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())
	bus := familyBus{t, broker.URL()}
	smiths, jones := uuid.NewString(), uuid.NewString()
	t0 := time.Now().UTC().Add(-time.Hour)

	var list listView
	w.must(201, "POST", "/api/lists", "ann", map[string]any{"name": "Christmas"}, &list)
	path := "/api/lists/" + list.ID

	// Before the family service said she belongs to it, ann cannot share with it.
	e := w.refused(422, "validation_failed", "PATCH", path, "ann", map[string]any{"familyIds": []string{smiths}})
	if e.Error.Fields["familyIds"] != domain.MsgNotYourFamily {
		t.Fatalf("fields %v", e.Error.Fields)
	}
	w.refused(422, "validation_failed", "PATCH", path, "ann", map[string]any{"familyIds": []string{"not-a-uuid"}})

	joined := bus.joined(smiths, "ann", t0)
	bus.publish(joined) // a duplicate (JetStream drops the same id; a redelivery is applied idempotently)
	bus.joined(smiths, "bob", t0)
	bus.joined(jones, "eve", t0)
	member(t, pool, smiths, "ann", true)
	member(t, pool, smiths, "bob", true)
	member(t, pool, jones, "eve", true)

	// Sharing with her family makes the list's link, as it had none.
	var shared listView
	w.must(200, "PATCH", path, "ann", map[string]any{"familyIds": []string{smiths, smiths}}, &shared)
	if !slices.Equal(shared.FamilyIDs, []string{smiths}) || shared.Share == nil || shared.Share.URL != "/l/"+shared.Share.Token {
		t.Fatalf("shared %+v", shared)
	}
	var lists []listView
	w.must(200, "GET", "/api/lists", "ann", nil, &lists)
	if !slices.Equal(lists[1].FamilyIDs, []string{smiths}) || !slices.Equal(lists[0].FamilyIDs, []string{}) {
		t.Fatalf("GET /api/lists %+v", lists)
	}
	// Another family's id, or one she was never in, is refused the same way: Jones exists (eve).
	w.refused(422, "validation_failed", "PATCH", path, "ann", map[string]any{"familyIds": []string{smiths, jones}})
	w.refused(422, "validation_failed", "PATCH", path, "ann", map[string]any{"familyIds": []string{uuid.NewString()}})
	// An outsider cannot share their own list with the Smiths either, nor touch ann's list.
	var eves listView
	w.must(201, "POST", "/api/lists", "eve", map[string]any{"name": "Eve's"}, &eves)
	w.refused(422, "validation_failed", "PATCH", "/api/lists/"+eves.ID, "eve", map[string]any{"familyIds": []string{smiths}})
	w.refused(404, "not_found", "PATCH", path, "eve", map[string]any{"familyIds": []string{jones}})

	// A family member opens it as a member.
	var view struct{ Viewer string }
	w.must(200, "GET", "/api/shared/"+shared.Share.Token, "bob", nil, &view)
	if view.Viewer != "member" {
		t.Fatalf("bob is %q", view.Viewer)
	}
	// A rename keeps the sharing, and the link made stays.
	var renamed listView
	w.must(200, "PATCH", path, "ann", map[string]any{"name": "Christmas 2026"}, &renamed)
	if !slices.Equal(renamed.FamilyIDs, []string{smiths}) || renamed.Share.Token != shared.Share.Token {
		t.Fatalf("renamed %+v", renamed)
	}

	// ann leaves: the Smiths are taken off her lists.
	left := bus.left(smiths, "ann", t0.Add(time.Minute), false)
	member(t, pool, smiths, "ann", false)
	w.must(200, "GET", "/api/lists", "ann", nil, &lists)
	if !slices.Equal(lists[1].FamilyIDs, []string{}) || lists[1].Share == nil {
		t.Fatalf("after leaving %+v", lists[1])
	}
	outboxEmpty(t, pool)
	announced := len(listFamiliesEvents(t, broker.URL()))

	// The same leaving redelivered (a new message id, the same event) and an older joining
	// arriving late change nothing: she is not a member again, and nothing is announced twice.
	again := left
	again.ID = uuid.NewString()
	bus.publish(again)
	bus.joined(smiths, "ann", t0.Add(30*time.Second))
	bus.joined(jones, "eve", t0.Add(2*time.Minute)) // a marker: once applied, the two above were too
	testenv.Eventually(t, 10*time.Second, func() error {
		var asOf time.Time
		_ = pool.QueryRow(context.Background(), "SELECT as_of FROM family_memberships WHERE family_id = $1 AND uid = 'eve'", jones).Scan(&asOf)
		if !asOf.Equal(t0.Add(2 * time.Minute).Truncate(time.Microsecond)) {
			return fmt.Errorf("the marker is not applied yet (%v)", asOf)
		}
		return nil
	})
	member(t, pool, smiths, "ann", false)
	w.refused(422, "validation_failed", "PATCH", path, "ann", map[string]any{"familyIds": []string{smiths}})
	outboxEmpty(t, pool)
	if n := len(listFamiliesEvents(t, broker.URL())); n != announced {
		t.Fatalf("%d list.families events after the duplicates, %d before", n, announced)
	}

	// Every announcement of the list grows its version; the last one shares with nobody.
	evs := listFamiliesEvents(t, broker.URL())
	var versions []int64
	for _, ev := range evs {
		if ev.ListID == list.ID {
			versions = append(versions, ev.Version)
		}
	}
	if len(versions) != 3 || !slices.IsSorted(versions) || versions[0] != 1 {
		t.Fatalf("versions %v (share, rename, leave)", versions)
	}
	if last := evs[len(evs)-1]; len(last.FamilyIDs) != 0 {
		t.Fatalf("last announcement %+v", last)
	}
}

func TestADeletedFamilyIsTakenOffEveryListAndRevokingTheLinkEndsFamilySharing(t *testing.T) {
	pool, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())
	bus := familyBus{t, broker.URL()}
	smiths, jones := uuid.NewString(), uuid.NewString()
	t0 := time.Now().UTC().Add(-time.Hour)
	for _, uid := range []string{"ann", "bob"} {
		bus.joined(smiths, uid, t0)
		bus.joined(jones, uid, t0)
	}
	member(t, pool, smiths, "ann", true)
	member(t, pool, smiths, "bob", true)
	member(t, pool, jones, "ann", true)
	member(t, pool, jones, "bob", true)

	ann, bob := w.defaultList("ann"), w.defaultList("bob")
	w.must(200, "PATCH", "/api/lists/"+ann.ID, "ann", map[string]any{"familyIds": []string{smiths, jones}}, nil)
	w.must(200, "PATCH", "/api/lists/"+bob.ID, "bob", map[string]any{"familyIds": []string{smiths}}, nil)

	// ann leaves the Smiths and then bob, the last member, leaves: the family is deleted.
	bus.left(smiths, "ann", t0.Add(time.Minute), false)
	deleted := bus.left(smiths, "bob", t0.Add(2*time.Minute), true)
	member(t, pool, smiths, "bob", false)
	if got := w.defaultList("ann").FamilyIDs; !slices.Equal(got, []string{jones}) {
		t.Fatalf("ann's list %v", got)
	}
	if got := w.defaultList("bob").FamilyIDs; !slices.Equal(got, []string{}) {
		t.Fatalf("bob's list %v", got)
	}
	// A late joining of the deleted family brings nothing back.
	bus.joined(smiths, "bob", t0.Add(3*time.Minute))
	again := deleted
	again.ID = uuid.NewString()
	bus.publish(again)
	bus.joined(jones, "cleo", t0) // marker
	member(t, pool, jones, "cleo", true)
	member(t, pool, smiths, "bob", false)
	w.refused(422, "validation_failed", "PATCH", "/api/lists/"+bob.ID, "bob", map[string]any{"familyIds": []string{smiths}})

	// Revoking the link stops the sharing with families (it goes through the link); [] does too.
	w.must(204, "DELETE", "/api/lists/"+ann.ID+"/share", "ann", nil, nil)
	if got := w.defaultList("ann"); !slices.Equal(got.FamilyIDs, []string{}) || got.Share != nil {
		t.Fatalf("after revoking %+v", got)
	}
	var again2 listView
	w.must(200, "PATCH", "/api/lists/"+ann.ID, "ann", map[string]any{"familyIds": []string{jones}}, &again2)
	w.must(200, "PATCH", "/api/lists/"+ann.ID, "ann", map[string]any{"familyIds": []string{}}, &again2)
	if !slices.Equal(again2.FamilyIDs, []string{}) || again2.Share == nil {
		t.Fatalf("after [] %+v", again2)
	}

	// A deleted list's sharing is announced as ended.
	var extra listView
	w.must(201, "POST", "/api/lists", "bob", map[string]any{"name": "Birthday"}, &extra)
	w.must(200, "PATCH", "/api/lists/"+extra.ID, "bob", map[string]any{"familyIds": []string{jones}}, nil)
	w.must(204, "DELETE", "/api/lists/"+extra.ID, "bob", nil, nil)
	testenv.Eventually(t, 10*time.Second, func() error {
		evs := listFamiliesEvents(t, broker.URL())
		if len(evs) == 0 || evs[len(evs)-1].ListID != extra.ID || len(evs[len(evs)-1].FamilyIDs) != 0 {
			return fmt.Errorf("list.families %+v", evs)
		}
		return nil
	})
}
