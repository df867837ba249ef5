// Package lifecycle holds the start-up and shutdown pieces every service wires the same way
// into its httpserver.Server: waiting for a dependency at start (Retry), the NATS readiness
// check, the NATS drain, and background loops that must stop (and be waited for) before what
// they use is closed.
package lifecycle

import (
	"context"
	"fmt"

	"github.com/nats-io/nats.go"
)

// NATSReady is a readiness check: ready only while the connection is up (not while it is
// reconnecting, when publishes and acks would stall).
func NATSReady(nc *nats.Conn) func(context.Context) error {
	return func(context.Context) error {
		if s := nc.Status(); s != nats.CONNECTED {
			return fmt.Errorf("nats is %s", s)
		}
		return nil
	}
}

// DrainNATS is a shutdown step: drain the connection (subscriptions stop taking messages,
// handlers in progress finish, pending publishes are flushed, then it closes), and close it
// anyway when draining cannot start.
func DrainNATS(nc *nats.Conn) func(context.Context) error {
	return func(context.Context) error {
		if err := nc.Drain(); err != nil {
			nc.Close()
			return fmt.Errorf("drain nats: %w", err)
		}
		return nil
	}
}

// Go runs loop in its own goroutine with a context of its own, which ends only when the
// returned stop is called: the loop outlives the server's in-flight requests. stop cancels
// that context and waits for loop to return; it has OnShutdown's signature so that it can be
// registered directly (after what the loop uses, so it runs before those are closed).
func Go(loop func(ctx context.Context)) (stop func(context.Context) error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		loop(ctx)
	}()
	return func(context.Context) error {
		cancel()
		<-done
		return nil
	}
}
