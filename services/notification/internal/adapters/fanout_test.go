package adapters_test

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/notification/internal/adapters"
)

// Two environments on one NATS: the wake-up calls of one never
// reach the other's replicas, because their subjects are in the events namespace.
func TestFanoutStaysInItsNamespace(t *testing.T) {
	nc, err := nats.Connect(testenv.SharedNATSURL())
	if err != nil {
		t.Fatalf("NATS at %s: %v", testenv.SharedNATSURL(), err)
	}
	defer nc.Close()
	suffix := testenv.RandomHex(4)
	dev := adapters.NewFanout(nc, events.Namespace("dev"+suffix))
	test := adapters.NewFanout(nc, events.Namespace("test"+suffix))
	if got := test.Subject("alice"); got != "test"+suffix+".notify.user.alice" {
		t.Fatalf("subject %q", got)
	}
	woken := make(chan string, 4)
	sub, err := test.Listen(context.Background(), func(uid string, seq int64) { woken <- uid })
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sub.Unsubscribe() }()

	if err := dev.Announce("dev-user", 1); err != nil {
		t.Fatal(err)
	}
	if err := test.Announce("test-user", 1); err != nil {
		t.Fatal(err)
	}
	select {
	case uid := <-woken:
		if uid != "test-user" {
			t.Fatalf("the test stack was woken for %q, announced in the dev namespace", uid)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the test stack's own wake-up call did not arrive")
	}
	select {
	case uid := <-woken:
		t.Fatalf("a second wake-up call arrived: %q", uid)
	case <-time.After(300 * time.Millisecond):
	}
}

// A replica that starts while NATS does not answer (a JetStream cluster forming, a server
// restarting) waits for it, as for any dependency at start, instead of exiting when the
// subscription's flush times out (10 s), and hears what is announced once NATS is back.
func TestListenWaitsForNATSThatDoesNotAnswerYet(t *testing.T) {
	u, err := url.Parse(testenv.SharedNATSURL())
	if err != nil {
		t.Fatal(err)
	}
	line := testenv.StartTCPProxy(t, u.Host)
	nc, err := nats.Connect("nats://"+line.Addr(), nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ns := events.Namespace("t" + testenv.RandomHex(4))
	line.Cut()
	testenv.Eventually(t, 5*time.Second, func() error {
		if !nc.IsReconnecting() {
			return fmt.Errorf("still %s", nc.Status())
		}
		return nil
	})
	const away = 11 * time.Second // longer than the flush's own timeout
	time.AfterFunc(away, line.Restore)

	started := time.Now()
	woken := make(chan string, 1)
	sub, err := adapters.NewFanout(nc, ns).Listen(context.Background(), func(uid string, seq int64) { woken <- uid })
	if err != nil {
		t.Fatalf("Listen gave up on NATS that came back after %s: %v", away, err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	if took := time.Since(started); took < away-time.Second {
		t.Fatalf("Listen returned after %s, before NATS could have registered the subscription", took)
	}
	direct, err := nats.Connect(testenv.SharedNATSURL())
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	if err := adapters.NewFanout(direct, ns).Announce("alice", 1); err != nil {
		t.Fatal(err)
	}
	select {
	case uid := <-woken:
		if uid != "alice" {
			t.Fatalf("woken for %q", uid)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the wake-up call announced after NATS came back did not arrive")
	}
}
