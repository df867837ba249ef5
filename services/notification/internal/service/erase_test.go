package service_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

// A deleted account's notices go and its open streams end, on every replica; a replica that
// was down when the account was deleted does it when it starts (the event waits for it).
func TestADeletedAccountsNoticesAndStreamsGoEvenWhenTheServiceWasDown(t *testing.T) {
	pool, dbURL := testenv.Postgres(t)
	nats := testenv.StartNATS(t)
	b := newBroker(t, nats.URL())
	first := start(t, dbURL, nats.URL())
	b.publish(itemEvent(t, events.TypeItemCreated, "anna", 1))
	b.publish(santaEvent(t, "anna", "Drum"))
	b.publish(itemEvent(t, events.TypeItemCreated, "bob", 1))
	testenv.Eventually(t, 10*time.Second, func() error { return countNotices(pool, 3) })
	first.stop() // down while the account is deleted

	deleted, _ := events.NewEnvelope(events.TypeUserDeleted, "anna", events.UserDeletedData{RequestedAt: time.Now()})
	b.publish(deleted)
	time.Sleep(300 * time.Millisecond)
	if err := countNotices(pool, 3); err != nil {
		t.Fatalf("erased with no service running? %v", err)
	}

	second := start(t, dbURL, nats.URL())
	other := start(t, dbURL, nats.URL()) // a second replica, with Anna's other device on it
	bob := openStream(t, other.base, "bob", streamOpts{})
	bob.hello(t, 1)
	testenv.Eventually(t, 15*time.Second, func() error {
		var n int
		if err := pool.QueryRow(context.Background(), "SELECT count(*) FROM notices WHERE user_id = 'anna'").Scan(&n); err != nil || n > 0 {
			return fmt.Errorf("%d of anna's notices left (%v)", n, err)
		}
		return nil
	})
	testenv.Eventually(t, 10*time.Second, func() error { return countNotices(pool, 1) })
	// Cleo's devices are on both replicas when her account is deleted: both streams end, and
	// Bob's stays.
	cleoHere := openStream(t, second.base, "cleo", streamOpts{})
	cleoThere := openStream(t, other.base, "cleo", streamOpts{})
	cleoHere.hello(t, 0)
	cleoThere.hello(t, 0)
	gone, _ := events.NewEnvelope(events.TypeUserDeleted, "cleo", events.UserDeletedData{RequestedAt: time.Now()})
	b.publish(gone)
	for _, s := range []*stream{cleoHere, cleoThere} {
		deadline := time.After(10 * time.Second)
	drain:
		for {
			select {
			case _, open := <-s.C:
				if !open {
					break drain
				}
			case <-deadline:
				t.Fatal("a deleted user's stream is still open")
			}
		}
	}
	b.publish(itemEvent(t, events.TypeItemCreated, "bob", 2))
	if e := bob.next(t); e.Event != "wishlist-count" {
		t.Fatalf("bob got %+v", e)
	}
}
