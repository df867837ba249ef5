package service_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/notification/internal/service"
)

// h2c is a client that speaks HTTP/2 without TLS, as the gateway does.
func h2c() *http.Client {
	t := &http.Transport{}
	t.Protocols = new(http.Protocols)
	t.Protocols.SetUnencryptedHTTP2(true)
	return &http.Client{Transport: t}
}

func limits(l httpserver.StreamLimits) func(*service.Config) {
	return func(c *service.Config) { c.Streams = l }
}

func TestStreamsAreServedOverHTTP2WithoutTLS(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	nats := testenv.StartNATS(t)
	b := newBroker(t, nats.URL())
	svc := start(t, dbURL, nats.URL(), func(c *service.Config) { c.Server.CleartextHTTP2 = true })
	client := h2c()
	var devices []*stream
	for i := 0; i < 3; i++ {
		s := openStream(t, svc.base, "kid", streamOpts{client: client})
		s.hello(t, 0)
		devices = append(devices, s)
	}
	if r := as(t, svc.base, "kid", streamOpts{client: client}).Do("GET", "/api/notifications", nil); r.ProtoMajor != 2 {
		t.Fatalf("served over HTTP/%d", r.ProtoMajor)
	}
	b.publish(santaEvent(t, "kid", "Kite"))
	for _, s := range devices {
		if e := s.next(t); e.Event != "santa" {
			t.Fatalf("got %+v", e)
		}
	}
	// HTTP/1.1 still works, for probes and tools.
	openStream(t, svc.base, "kid", streamOpts{}).hello(t, 0)
}

// An HTTP/1.1 stream (the gateway's) is taken over from net/http: its answer is closed-delimited,
// it carries notices like any other, and when the gateway closes it the stream ends at once,
// without waiting for a heartbeat to fail.
func TestHTTP1StreamsAreHandedOverAndEndWhenTheirConnectionCloses(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	nats := testenv.StartNATS(t)
	b := newBroker(t, nats.URL())
	svc := start(t, dbURL, nats.URL())
	s := openStream(t, svc.base, "kid", streamOpts{})
	if s.Proto != "HTTP/1.1" || !s.UntilClose {
		t.Fatalf("not a closed-delimited HTTP/1.1 stream: %s %v", s.Proto, s.Header)
	}
	s.hello(t, 0)
	b.publish(santaEvent(t, "kid", "Kite"))
	if e := s.next(t); e.Event != "santa" || e.ID == "" {
		t.Fatalf("got %+v", e)
	}
	if got := metric(t, svc.base, "live_streams_open"); got != 1 {
		t.Fatalf("live_streams_open %v", got)
	}
	s.Close()
	testenv.Eventually(t, 2*time.Second, func() error {
		for _, m := range []string{"live_streams_open", "notification_streams_open"} {
			if got := metric(t, svc.base, m); got != 0 {
				return fmt.Errorf("%s %v after the connection closed", m, got)
			}
		}
		return nil
	})
}

func TestStreamsPastThePodsCeilingAre503WithRetryAfter(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	nats := testenv.StartNATS(t)
	svc := start(t, dbURL, nats.URL(), limits(httpserver.StreamLimits{Max: 2, OpensPerSecond: 1000, Burst: 1000, RetryAfter: 3}))
	first := openStream(t, svc.base, "kid", streamOpts{})
	first.hello(t, 0)
	openStream(t, svc.base, "other-kid", streamOpts{}).hello(t, 0)
	if got := metric(t, svc.base, "live_streams_open"); got != 2 {
		t.Fatalf("live_streams_open %v", got)
	}
	third := tryStream(t, svc.base, "third-kid", streamOpts{})
	third.Close()
	wait, _ := strconv.Atoi(third.Header.Get("Retry-After"))
	if third.Status != http.StatusServiceUnavailable || wait < 3 || wait > 6 {
		t.Fatalf("past the ceiling: %d, Retry-After %q", third.Status, third.Header.Get("Retry-After"))
	}
	if got := metric(t, svc.base, `live_streams_refused_total{reason="full"}`); got != 1 {
		t.Fatalf("refusals %v", got)
	}
	// A closed stream frees its place.
	first.Close()
	testenv.Eventually(t, 5*time.Second, func() error {
		if s := tryStream(t, svc.base, "third-kid", streamOpts{}); s.Status != http.StatusOK {
			s.Close()
			return errStatus(s.Status)
		}
		return nil
	})
}

type errStatus int

func (e errStatus) Error() string { return "status " + strconv.Itoa(int(e)) }

// A reconnect storm: opens above the admitted rate are shed with 503 + Retry-After, and a
// device that was shed and comes back later still gets exactly what it missed.
func TestAReconnectStormIsShedAndTheShedCatchUpExactly(t *testing.T) {
	pool, dbURL := testenv.Postgres(t)
	nats := testenv.StartNATS(t)
	b := newBroker(t, nats.URL())
	svc := start(t, dbURL, nats.URL(), limits(httpserver.StreamLimits{Max: 100, OpensPerSecond: 1, Burst: 2, RetryAfter: 1}))

	phone := openStream(t, svc.base, "kid", streamOpts{})
	phone.hello(t, 0)
	b.publish(itemEvent(t, events.TypeItemCreated, "kid", 1))
	seen := phone.next(t)
	phone.Close()
	b.publish(itemEvent(t, events.TypeItemCreated, "kid", 2))
	b.publish(santaEvent(t, "kid", "Kite"))
	testenv.Eventually(t, 10*time.Second, func() error { return countNotices(pool, 3) })

	// Everyone comes back at once: the burst is used up, the phone is shed.
	shed := 0
	for i := 0; i < 4; i++ {
		s := tryStream(t, svc.base, "kid", streamOpts{lastEventID: seen.ID})
		s.Close()
		switch {
		case s.Status == http.StatusServiceUnavailable && s.Header.Get("Retry-After") != "":
			shed++
		case s.Status != http.StatusOK:
			t.Fatalf("open %d: %d", i, s.Status)
		}
	}
	if shed < 2 || metric(t, svc.base, `live_streams_refused_total{reason="storm"}`) != float64(shed) {
		t.Fatalf("%d of 4 shed", shed)
	}
	// After Retry-After the phone is admitted and gets the two notices it missed, in order.
	time.Sleep(1100 * time.Millisecond)
	back := openStream(t, svc.base, "kid", streamOpts{lastEventID: seen.ID})
	back.hello(t, 2)
	got := []sse{back.next(t), back.next(t)}
	if !strings.Contains(got[0].Data, `"count":2`) || got[1].Event != "santa" || got[0].seq(t) <= seen.seq(t) || got[1].seq(t) <= got[0].seq(t) {
		t.Fatalf("caught up with %+v after %s", got, seen.ID)
	}
	back.nothing(t, 300*time.Millisecond)
}
