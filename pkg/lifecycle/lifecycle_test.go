package lifecycle_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/santa-wishlist/santa/pkg/lifecycle"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

func TestNATSReadyFollowsTheConnection(t *testing.T) {
	srv := testenv.StartNATS(t)
	nc, err := nats.Connect(srv.URL(), nats.ReconnectWait(50*time.Millisecond), nats.MaxReconnects(-1))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ready := lifecycle.NATSReady(nc)
	if err := ready(context.Background()); err != nil {
		t.Fatalf("connected but not ready: %v", err)
	}
	srv.Stop()
	testenv.Eventually(t, 5*time.Second, func() error {
		if ready(context.Background()) == nil {
			return errors.New("ready with the server down")
		}
		return nil
	})
	srv.Start()
	testenv.Eventually(t, 10*time.Second, func() error { return ready(context.Background()) })
}

// Draining lets the message in hand finish, then closes: nothing is cut off mid-handler.
func TestDrainNATSLetsTheHandlerInHandFinish(t *testing.T) {
	nc, err := nats.Connect(testenv.SharedNATSURL())
	if err != nil {
		t.Fatal(err)
	}
	subject := "lifecycle.test." + testenv.RandomHex(4)
	started := make(chan struct{})
	var finished atomic.Bool
	if _, err := nc.Subscribe(subject, func(*nats.Msg) {
		close(started)
		time.Sleep(300 * time.Millisecond)
		finished.Store(true)
	}); err != nil {
		t.Fatal(err)
	}
	if err := nc.Publish(subject, []byte("x")); err != nil {
		t.Fatal(err)
	}
	<-started
	if err := lifecycle.DrainNATS(nc)(context.Background()); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 5*time.Second, func() error {
		if !nc.IsClosed() {
			return errors.New("connection still open after draining")
		}
		return nil
	})
	if !finished.Load() {
		t.Fatal("the connection closed before the handler in hand finished")
	}
	if err := lifecycle.DrainNATS(nc)(context.Background()); err == nil {
		t.Error("draining a closed connection reported success")
	}
}

func TestGoStopsTheLoopAndWaitsForIt(t *testing.T) {
	var ticks atomic.Int32
	var returned atomic.Bool
	stop := lifecycle.Go(func(ctx context.Context) {
		defer returned.Store(true)
		for {
			select {
			case <-ctx.Done():
				time.Sleep(100 * time.Millisecond) // a last flush, which stop must wait for
				return
			case <-time.After(10 * time.Millisecond):
				ticks.Add(1)
			}
		}
	})
	testenv.Eventually(t, 2*time.Second, func() error {
		if ticks.Load() < 3 {
			return errors.New("the loop is not running")
		}
		return nil
	})
	if returned.Load() {
		t.Fatal("the loop ended before stop")
	}
	if err := stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !returned.Load() {
		t.Fatal("stop returned before the loop did")
	}
}
