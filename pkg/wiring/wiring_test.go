package wiring

import (
	"context"
	"errors"
	"log/slog"
	"reflect"
	"testing"

	"github.com/santa-wishlist/santa/pkg/httpserver"
)

// A failing Build closes what it opened, newest first, once; the loops it started stop too.
func TestFailClosesWhatWasOpenedNewestFirst(t *testing.T) {
	w := New(httpserver.Options{Service: "wiring-test"}, slog.New(slog.DiscardHandler))
	var order []string
	w.Closes(func() error { order = append(order, "pool"); return nil })
	w.Closes(func() error { order = append(order, "store"); return nil })
	w.Go(func(ctx context.Context) { <-ctx.Done(); order = append(order, "loop") })

	cause := errors.New("consumer failed")
	if err := w.Fail(cause); !errors.Is(err, cause) {
		t.Fatalf("Fail returned %v, want the cause", err)
	}
	if want := []string{"loop", "store", "pool"}; !reflect.DeepEqual(order, want) {
		t.Fatalf("closed %v, want %v", order, want)
	}
	_ = w.Fail(cause)
	if len(order) != 3 {
		t.Fatalf("a second Fail closed again: %v", order)
	}
}

// A consumer that failed to start fails the Build: what was opened before it is closed.
func TestConsumerErrorFails(t *testing.T) {
	w := New(httpserver.Options{Service: "wiring-test"}, slog.New(slog.DiscardHandler))
	closed := false
	w.Closes(func() error { closed = true; return nil })
	cause := errors.New("no stream")
	if err := w.Consumer(nil, cause); !errors.Is(err, cause) || !closed {
		t.Fatalf("Consumer(nil, err) = %v, closed %v; want the error and the earlier step closed", err, closed)
	}
}
