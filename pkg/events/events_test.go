package events_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func TestPublishDeduplicatesByEventID(t *testing.T) {
	srv := testenv.StartNATS(t)
	nc, js, err := events.Connect(srv.URL(), "test", quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx := testenv.Context(t)
	stream, err := events.EnsureStream(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	env, _ := events.NewEnvelope(events.TypeItemCreated, "user-1", map[string]string{"id": "x"})
	for i := 0; i < 3; i++ {
		if err := events.Publish(ctx, js, env); err != nil {
			t.Fatal(err)
		}
	}
	info, err := stream.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 1 {
		t.Fatalf("stream holds %d messages for one event id, want 1", info.State.Msgs)
	}
}

func TestConsumerRetriesFailuresAndTerminatesPoison(t *testing.T) {
	srv := testenv.StartNATS(t)
	nc, js, err := events.Connect(srv.URL(), "test", quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx := testenv.Context(t)
	if _, err := events.EnsureStream(ctx, js); err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	attempts := map[string]int{}
	handled := map[string]bool{}
	metrics := events.NewConsumerMetrics(prometheus.NewRegistry())
	cons, err := events.Consume(ctx, js, events.ConsumerConfig{
		Durable: "test", BackOff: []time.Duration{50 * time.Millisecond, 50 * time.Millisecond},
	}, func(_ context.Context, env events.Envelope) error {
		mu.Lock()
		defer mu.Unlock()
		attempts[env.ID]++
		switch env.UserID {
		case "flaky":
			if attempts[env.ID] < 2 {
				return errors.New("database hiccup")
			}
		case "poison":
			return errors.Join(events.ErrPoison, errors.New("bad data"))
		}
		handled[env.ID] = true
		return nil
	}, quiet, metrics)
	if err != nil {
		t.Fatal(err)
	}
	defer cons.Stop()

	flaky, _ := events.NewEnvelope(events.TypeItemCreated, "flaky", map[string]int{"n": 1})
	poison, _ := events.NewEnvelope(events.TypeItemDeleted, "poison", map[string]int{"n": 2})
	after, _ := events.NewEnvelope(events.TypeSantaSent, "fine", map[string]int{"n": 3})
	for _, e := range []events.Envelope{flaky, poison, after} {
		if err := events.Publish(ctx, js, e); err != nil {
			t.Fatal(err)
		}
	}
	// A message that is not even an envelope is terminated, never handed to the handler.
	if _, err := js.Publish(ctx, events.TypeItemCreated, []byte("not json")); err != nil {
		t.Fatal(err)
	}

	testenv.Eventually(t, 10*time.Second, func() error {
		mu.Lock()
		defer mu.Unlock()
		if !handled[flaky.ID] || !handled[after.ID] {
			return errors.New("events not handled yet")
		}
		return nil
	})
	time.Sleep(300 * time.Millisecond) // room for any wrong redelivery of the poison event
	mu.Lock()
	defer mu.Unlock()
	if attempts[flaky.ID] != 2 {
		t.Errorf("flaky event handled in %d attempts, want 2", attempts[flaky.ID])
	}
	if attempts[poison.ID] != 1 {
		t.Errorf("poison event delivered %d times, want 1 (terminated)", attempts[poison.ID])
	}
	if len(attempts) != 3 {
		t.Errorf("handler saw %d distinct events, want 3 (the malformed message must not reach it)", len(attempts))
	}
}

func TestEnvelopeValidate(t *testing.T) {
	good, _ := events.NewEnvelope(events.TypeItemCreated, "u", map[string]int{"a": 1})
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	bad := good
	bad.Type = "item.exploded"
	if bad.Validate() == nil {
		t.Fatal("unknown type accepted")
	}
	bad = good
	bad.UserID = ""
	if bad.Validate() == nil {
		t.Fatal("missing user accepted")
	}
}

// A service that starts while NATS is still away (installed at the same time, restarting)
// waits for it instead of exiting. NATS comes back after JetStream's own request timeout
// (5 s), which a single EnsureStream does not outlast.
func TestEnsureStreamAtStartupWaitsForNATS(t *testing.T) {
	srv := testenv.StartNATS(t)
	srv.Stop()
	nc, js, err := events.Connect(srv.URL(), "test", quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx := testenv.Context(t)
	started := time.Now()
	done := make(chan error, 1)
	go func() { done <- events.EnsureStreamAtStartup(ctx, js) }()
	time.Sleep(6 * time.Second)
	srv.Start()
	if err := <-done; err != nil {
		t.Fatalf("gave up on a NATS that came up after 6 s: %v", err)
	}
	if took := time.Since(started); took < 6*time.Second {
		t.Fatalf("the stream was ensured after %s, before NATS was up", took)
	}
	if _, err := js.Stream(ctx, events.StreamName); err != nil {
		t.Fatalf("no stream after EnsureStreamAtStartup: %v", err)
	}
}
