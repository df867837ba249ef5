package events_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

// freePort is a TCP port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// A cold start of a three-server JetStream cluster, as the chart's NATS StatefulSet and the
// services start side by side: two servers are up and have elected a meta leader, the third is
// not yet, and JetStream answers a three-copy stream's creation with "no suitable peers"
// instead of not answering. A starting service waits for the third inside its startup probe
// instead of exiting on that answer, and then has its three-copy stream and its consumer.
func TestStartupWaitsForAFormingCluster(t *testing.T) {
	names := []string{"a", "b", "c"}
	client, routes := map[string]int{}, map[string]int{}
	for _, n := range names {
		client[n], routes[n] = freePort(t), freePort(t)
	}
	opts := func(n string) *server.Options {
		var peers []*url.URL
		for _, p := range names {
			if p != n {
				peers = append(peers, &url.URL{Scheme: "nats", Host: fmt.Sprintf("127.0.0.1:%d", routes[p])})
			}
		}
		return &server.Options{
			ServerName: n, Host: "127.0.0.1", Port: client[n], JetStream: true, StoreDir: t.TempDir(),
			Cluster: server.ClusterOpts{Name: "santa", Host: "127.0.0.1", Port: routes[n]},
			Routes:  peers, NoLog: true, NoSigs: true,
		}
	}
	start := func(n string) {
		srv, err := server.NewServer(opts(n))
		if err != nil {
			t.Fatal(err)
		}
		go srv.Start()
		if !srv.ReadyForConnections(10 * time.Second) {
			t.Fatalf("server %s did not start", n)
		}
		t.Cleanup(func() { srv.Shutdown(); srv.WaitForShutdown() })
	}
	start("a")
	start("b")

	nc, js, err := events.Connect(fmt.Sprintf("nats://127.0.0.1:%d", client["a"]), "test", quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js = events.WithReplicas(js, 3)
	ctx := testenv.Context(t)
	// Two of three refuse with an answer, once they have a meta leader: what used to end the start.
	var answer error
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		_, err := events.EnsureStream(ctx, js)
		if err == nil {
			t.Fatal("two servers of three created a three-copy stream")
		}
		var api *jetstream.APIError
		if errors.As(err, &api) {
			answer = err
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if answer == nil {
		t.Fatal("two servers of three never answered the stream's creation")
	}
	if events.RefusedForGood(answer) {
		t.Fatalf("a forming cluster's answer was taken as a refusal for good: %v", answer)
	}
	t.Logf("two servers of three answer: %v", answer)

	done := make(chan error, 1)
	go func() {
		c, err := events.Consume(ctx, js, events.ConsumerConfig{Durable: "forming"},
			func(context.Context, events.Envelope) error { return nil }, quiet, nil)
		if err == nil {
			t.Cleanup(c.Stop)
		}
		done <- err
	}()
	time.Sleep(3 * time.Second)
	select {
	case err := <-done:
		t.Fatalf("the start ended before the cluster formed: %v", err)
	default:
	}
	start("c")
	if err := <-done; err != nil {
		t.Fatalf("gave up on a cluster that formed: %v", err)
	}
	s, err := js.Stream(ctx, events.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.Config.Replicas != 3 || info.Cluster == nil || len(info.Cluster.Replicas) != 2 {
		t.Fatalf("stream %d replicas, cluster %+v; want 3 copies", info.Config.Replicas, info.Cluster)
	}
}
