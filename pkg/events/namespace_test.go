package events_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

// Two stacks on one NATS, as `make dev` beside `make test`: each publishes its own events and
// runs consumers with the same durable names as the other (the services' real ones). Each
// stack's consumers see exactly its own events, none of the other's.
func TestTwoStacksOnOneBrokerKeepTheirOwnEvents(t *testing.T) {
	url := testenv.SharedNATSURL()
	ctx := testenv.Context(t)
	run := testenv.RandomHex(4)
	type stack struct {
		ns       events.Namespace
		sent     map[string]bool
		mu       sync.Mutex
		received map[string][]string // durable -> event ids
	}
	stacks := []*stack{}
	for _, name := range []string{"dev-" + run, "test-" + run} {
		ns, err := events.ParseNamespace(name)
		if err != nil {
			t.Fatal(err)
		}
		stacks = append(stacks, &stack{ns: ns, sent: map[string]bool{}, received: map[string][]string{}})
	}

	for _, s := range stacks {
		nc, raw, err := events.Connect(url, "two-stacks", quiet)
		if err != nil {
			t.Fatal(err)
		}
		js := events.InNamespace(raw, s.ns)
		t.Cleanup(func() {
			dctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = raw.DeleteStream(dctx, s.ns.Stream())
			nc.Close()
		})
		// The durables of notification (every event) and media (item.deleted only).
		for _, c := range []events.ConsumerConfig{{Durable: "notification"}, {Durable: "media-item-deleted", Subjects: []string{events.TypeItemDeleted}}} {
			cons, err := events.Consume(ctx, js, c, func(_ context.Context, env events.Envelope) error {
				s.mu.Lock()
				defer s.mu.Unlock()
				s.received[c.Durable] = append(s.received[c.Durable], env.ID)
				return nil
			}, quiet, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(cons.Stop)
		}
		for i := range 4 {
			kind := events.TypeItemCreated
			if i%2 == 1 {
				kind = events.TypeItemDeleted
			}
			env, _ := events.NewEnvelope(kind, "user-"+string(s.ns), map[string]int{"n": i})
			if err := events.Publish(ctx, js, env); err != nil {
				t.Fatal(err)
			}
			s.sent[env.ID] = kind == events.TypeItemDeleted
		}
	}

	deadline := time.Now().Add(10 * time.Second)
	for _, s := range stacks {
		for {
			s.mu.Lock()
			done := len(s.received["notification"]) >= 4 && len(s.received["media-item-deleted"]) >= 2
			s.mu.Unlock()
			if done || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	time.Sleep(300 * time.Millisecond) // a stray event from the other stack would arrive by now
	for _, s := range stacks {
		s.mu.Lock()
		if got := s.received["notification"]; len(got) != 4 {
			t.Errorf("%s: notification got %d events, want its own 4", s.ns, len(got))
		}
		if got := s.received["media-item-deleted"]; len(got) != 2 {
			t.Errorf("%s: media got %d item.deleted events, want its own 2", s.ns, len(got))
		}
		for durable, ids := range s.received {
			for _, id := range ids {
				if _, own := s.sent[id]; !own {
					t.Errorf("%s: %s received the other stack's event %s", s.ns, durable, id)
				}
			}
		}
		s.mu.Unlock()
	}
	if stacks[0].ns.Stream() == stacks[1].ns.Stream() || stacks[0].ns.Subject("item.created") == stacks[1].ns.Subject("item.created") {
		t.Error("two namespaces share a stream or subjects")
	}
}

func TestNamespaceNames(t *testing.T) {
	ns, err := events.ParseNamespace("staging-eu")
	if err != nil {
		t.Fatal(err)
	}
	if ns.Stream() != "SANTA_STAGING_EU" || ns.Subject("item.deleted") != "staging-eu.item.deleted" || ns.Durable("notification") != "notification-staging-eu" {
		t.Errorf("names: %s %s %s", ns.Stream(), ns.Subject("item.deleted"), ns.Durable("notification"))
	}
	var none events.Namespace
	if none.Stream() != events.StreamName || none.Subject("item.deleted") != "item.deleted" || none.Durable("media") != "media" {
		t.Error("the empty namespace must keep the original names")
	}
	for _, bad := range []string{"Prod", "a.b", "x>", "-a", "a-", "with space", "abcdefghijklmnopqrstuvwxyz0123456789"} {
		if _, err := events.ParseNamespace(bad); err == nil {
			t.Errorf("namespace %q accepted", bad)
		}
	}
}
