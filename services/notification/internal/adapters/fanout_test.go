package adapters_test

import (
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
	sub, err := test.Listen(func(uid string, seq int64) { woken <- uid })
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
