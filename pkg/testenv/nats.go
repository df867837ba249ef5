package testenv

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/santa-wishlist/santa/pkg/events"
)

// SharedNATSURL is the long-running NATS JetStream server (the machine's, or the one
// `make test` starts).
func SharedNATSURL() string { return env("TEST_NATS_URL", "nats://127.0.0.1:4222") }

// NATSServer is a real NATS JetStream server owned by one test, so the test can stop and
// restart it (the shared one must stay up for everybody else).
type NATSServer struct {
	t    testing.TB
	opts server.Options
	srv  *server.Server
}

// StartNATS starts a private JetStream server on a free port with its own storage.
func StartNATS(t testing.TB) *NATSServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	n := &NATSServer{t: t, opts: server.Options{
		Host: "127.0.0.1", Port: port, JetStream: true, StoreDir: t.TempDir(),
		NoLog: true, NoSigs: true,
	}}
	n.Start()
	t.Cleanup(n.Stop)
	return n
}

// URL is the server's client address; it stays the same across restarts.
func (n *NATSServer) URL() string { return fmt.Sprintf("nats://127.0.0.1:%d", n.opts.Port) }

// Start (re)starts the server with the same port and storage.
func (n *NATSServer) Start() {
	n.t.Helper()
	opts := n.opts
	srv, err := server.NewServer(&opts)
	if err != nil {
		n.t.Fatalf("nats server: %v", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		n.t.Fatal("nats server did not start")
	}
	n.srv = srv
}

// Stop shuts the server down (its stored messages survive a Start).
func (n *NATSServer) Stop() {
	if n.srv != nil {
		n.srv.Shutdown()
		n.srv.WaitForShutdown()
		n.srv = nil
	}
}

// Publish sends env to the stream of the NATS at url, as another service's outbox relay
// would (its id is the Nats-Msg-Id: a second Publish of it is dropped as a duplicate).
func Publish(t testing.TB, url string, env events.Envelope) {
	t.Helper()
	nc, js, err := events.Connect(url, "test-publisher", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if err := events.Publish(Context(t), js, env); err != nil {
		t.Fatal(err)
	}
}

// StreamEvents reads every event in the product stream of the NATS at url (its default
// namespace), oldest first.
func StreamEvents(t testing.TB, url string) []events.Envelope {
	t.Helper()
	nc, js, err := events.Connect(url, "test-reader", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	stream, err := js.Stream(ctx, events.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	info, err := stream.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cons, err := stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var out []events.Envelope
	for uint64(len(out)) < info.State.Msgs {
		msg, err := cons.Next(jetstream.FetchMaxWait(2 * time.Second))
		if err != nil {
			t.Fatalf("read stream: %v", err)
		}
		var env events.Envelope
		if err := json.Unmarshal(msg.Data(), &env); err != nil {
			t.Fatal(err)
		}
		out = append(out, env)
	}
	return out
}
