package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

func TestADeletedAccountLeavesEveryFamilyAndItsDrawsAreCancelled(t *testing.T) {
	e := start(t)
	var shared, alone, bobs created
	e.must(201, "POST", "/api/families", "anna", map[string]string{"name": "Smiths"}, &shared)
	e.must(200, "POST", "/api/invites/"+shared.Invite.Token+"/accept", "bob", nil, nil)
	e.must(200, "POST", "/api/invites/"+shared.Invite.Token+"/accept", "cleo", nil, nil)
	e.must(201, "POST", "/api/families/"+shared.ID+"/secret-santa", "anna", map[string]any{}, nil)
	e.must(201, "POST", "/api/families", "anna", map[string]string{"name": "Just me"}, &alone)
	// Bob's family, where Anna is a member and an invitation she did not make stays.
	e.must(201, "POST", "/api/families", "bob", map[string]string{"name": "Bobs"}, &bobs)
	e.must(200, "POST", "/api/invites/"+bobs.Invite.Token+"/accept", "anna", nil, nil)
	// Cleo's family, which Anna joined and left: her departure is kept until she is erased.
	cleos := e.create("cleo", "Cleos")
	e.must(200, "POST", "/api/invites/"+cleos.Invite.Token+"/accept", "anna", nil, nil)
	e.must(204, "DELETE", "/api/families/"+cleos.ID+"/members/anna", "anna", nil, nil)

	nc, js, err := events.Connect(e.natsURL, "test", quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	// The erasure announces what it changed (the families Anna left): those rows name her and
	// are published, then pruned after the retention window like every other. What is checked
	// to be gone at once is everything of hers from before the deletion. Rows that others' acts
	// wrote and that name her (Bob's and Cleo's joins) are erased once published; one still
	// pending is published first (an event is never lost) and pruned with the rest, so the test
	// waits for the relay to catch up first (on a busy machine it lagged, and two such rows stayed).
	testenv.Eventually(t, 15*time.Second, func() error {
		var pending int
		if err := e.pool.QueryRow(context.Background(), "SELECT count(*) FROM outbox WHERE published_at IS NULL").Scan(&pending); err != nil || pending > 0 {
			return fmt.Errorf("%d outbox rows pending (%v)", pending, err)
		}
		return nil
	})
	var before time.Time
	if err := e.pool.QueryRow(context.Background(), "SELECT now()").Scan(&before); err != nil {
		t.Fatal(err)
	}
	deleted, _ := events.NewEnvelope(events.TypeUserDeleted, "anna", events.UserDeletedData{RequestedAt: time.Now()})
	for range 2 { // a redelivery (same id) changes nothing
		if err := events.Publish(context.Background(), js, deleted); err != nil {
			t.Fatal(err)
		}
	}
	testenv.Eventually(t, 15*time.Second, func() error {
		var n int
		err := e.pool.QueryRow(context.Background(), `SELECT
			(SELECT count(*) FROM family_members WHERE uid = 'anna') + (SELECT count(*) FROM family_invites WHERE invited_by = 'anna')
			+ (SELECT count(*) FROM families WHERE created_by = 'anna') + (SELECT count(*) FROM family_departures WHERE uid = 'anna') + (SELECT count(*) FROM secret_santa_pairs WHERE giver = 'anna' OR receiver = 'anna')
			+ (SELECT count(*) FROM outbox WHERE strpos(payload::text, 'anna') > 0 AND created_at < $1)
			+ (SELECT count(*) FROM outbox WHERE strpos(payload::text, 'anna') > 0 AND published_at IS NULL)`, before).Scan(&n)
		if err != nil || n > 0 {
			return fmt.Errorf("%d rows of anna left (%v)", n, err)
		}
		return nil
	})
	// The family she was alone in is gone; in the shared one Bob, who joined first, is admin.
	var left int
	if err := e.pool.QueryRow(context.Background(), "SELECT count(*) FROM families WHERE id = $1", alone.ID).Scan(&left); err != nil || left != 0 {
		t.Fatalf("the family Anna was alone in survived (%v)", err)
	}
	var f family
	e.must(200, "GET", "/api/families/"+shared.ID, "bob", nil, &f)
	if len(f.Members) != 2 || f.Role != "admin" {
		t.Fatalf("shared family after the deletion: %+v", f)
	}
	e.refused(404, "no_draw", "GET", "/api/families/"+shared.ID+"/secret-santa", "bob", nil)
	e.must(200, "GET", "/api/families/"+bobs.ID, "bob", nil, &f)
	if len(f.Members) != 1 || f.Role != "admin" {
		t.Fatalf("Bob's family: %+v", f)
	}

	// The family's answer: one user.erased, whatever the redeliveries.
	stream, _ := js.Stream(context.Background(), events.StreamName)
	cons, _ := stream.OrderedConsumer(context.Background(), jetstream.OrderedConsumerConfig{FilterSubjects: []string{events.TypeUserErased}})
	testenv.Eventually(t, 10*time.Second, func() error {
		info, err := stream.Info(context.Background(), jetstream.WithSubjectFilter(events.TypeUserErased))
		if err != nil {
			return err
		}
		if n := info.State.Subjects[events.TypeUserErased]; n != 1 {
			return fmt.Errorf("%d user.erased messages", n)
		}
		return nil
	})
	msg, err := cons.Next(jetstream.FetchMaxWait(2 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var erased events.Envelope
	if err := json.Unmarshal(msg.Data(), &erased); err != nil || erased.UserID != "anna" || string(erased.Data) != `{"service":"family"}` {
		t.Fatalf("user.erased: %s (%v)", msg.Data(), err)
	}
	conformsToSchema(t, erased)
}
