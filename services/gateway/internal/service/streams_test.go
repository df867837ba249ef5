package service_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/gateway/internal/ports"
)

// liveUpstream stands in for the notification service: it speaks HTTP/2 without TLS next to
// HTTP/1.1, as the real one does (but answers HTTP/1.1 chunked, as a server that does not take
// its connections over would), holds every stream open until its client leaves, and counts the
// connections the gateway opened to it.
type liveUpstream struct {
	mu     sync.Mutex
	protos []int
	users  []string
	conns  int
	server *httptest.Server
}

func newLiveUpstream(t *testing.T) *liveUpstream {
	u := &liveUpstream{}
	u.server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.mu.Lock()
		u.protos = append(u.protos, r.ProtoMajor)
		asserted, _, _ := testenv.AssertedUser(r, "notification")
		u.users = append(u.users, asserted.UID)
		u.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte("event: hello\ndata: {\"count\":0}\n\n"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	u.server.Config.Protocols = new(http.Protocols)
	u.server.Config.Protocols.SetHTTP1(true)
	u.server.Config.Protocols.SetUnencryptedHTTP2(true)
	u.server.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			u.mu.Lock()
			u.conns++
			u.mu.Unlock()
		}
	}
	u.server.Start()
	t.Cleanup(u.server.Close)
	return u
}

// openStream opens a live stream through the gateway; the stream stays open until the test
// ends.
func (g *gateway) openStream(token string) *testenv.Stream {
	g.t.Helper()
	c := g.client(token)
	// A transport of its own: every device has its own connection.
	c.HTTP = &http.Client{Transport: &http.Transport{}}
	s := c.Open("/api/notifications/stream")
	if s.Status == http.StatusOK {
		buf := make([]byte, 64)
		if n, _ := s.Body.Read(buf); !strings.Contains(string(buf[:n]), "hello") {
			g.t.Fatalf("no hello: %q", buf[:n])
		}
	}
	return s
}

// rest is what is left of a refused stream's answer.
func rest(s *testenv.Stream) string {
	b, _ := io.ReadAll(s.Body)
	return string(b)
}

func (g *gateway) metric(name string) string {
	g.t.Helper()
	body := string(g.do("GET", "/metrics", "", nil).Body)
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, name+" ") {
			return strings.TrimPrefix(line, name+" ")
		}
	}
	return ""
}

func signedUp(t *testing.T, prefix string) (uid, token string) {
	t.Helper()
	s := testenv.SignUp(t, testenv.UniqueEmail(prefix), "secret123", "")
	return s.UID, s.IDToken
}

// Each device's stream gets a connection of its own to the notification service, over
// HTTP/1.1 (both ends then hand the connection over: no HTTP client or server state stays per
// stream), carrying that device's identity.
func TestEachStreamHasItsOwnUpstreamConnectionAndStopsAtThePodsCeiling(t *testing.T) {
	live := newLiveUpstream(t)
	t.Setenv("NOTIFICATION_URL", live.server.URL)
	t.Setenv("MAX_STREAMS", "4")
	g := startGateway(t, newUpstream(t), roomy, "")

	var uids []string
	for i := 0; i < 4; i++ {
		uid, token := signedUp(t, "streamer")
		uids = append(uids, uid)
		resp := g.openStream(token)
		if resp.Status != http.StatusOK || !resp.UntilClose {
			t.Fatalf("stream %d: %d (closed-delimited %v) %s", i, resp.Status, resp.UntilClose, rest(resp))
		}
	}
	live.mu.Lock()
	protos, users, conns := live.protos, live.users, live.conns
	live.mu.Unlock()
	if conns != 4 || len(protos) != 4 || fmt.Sprint(users) != fmt.Sprint(uids) {
		t.Fatalf("%d connections for %d streams (users %v, want %v)", conns, len(protos), users, uids)
	}
	for _, p := range protos {
		if p != 1 {
			t.Fatalf("a stream reached notification over HTTP/%d", p)
		}
	}
	if got := g.metric("live_streams_open"); got != "4" {
		t.Fatalf("live_streams_open %q", got)
	}

	// The fifth is refused before its token is even read, and told when to come back.
	_, token := signedUp(t, "one-too-many")
	resp := g.openStream(token)
	if resp.Status != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(rest(resp), `"code":"busy"`) {
		t.Fatalf("past the ceiling: %d %q", resp.Status, resp.Header.Get("Retry-After"))
	}
	if got := g.metric(`live_streams_refused_total{reason="full"}`); got != "1" {
		t.Fatalf("refusals counted %q", got)
	}
}

func TestAStormOfStreamOpensIsShedWith503(t *testing.T) {
	live := newLiveUpstream(t)
	t.Setenv("NOTIFICATION_URL", live.server.URL)
	t.Setenv("STREAM_OPENS_PER_SECOND", "1")
	t.Setenv("STREAM_OPEN_BURST", "2")
	g := startGateway(t, newUpstream(t), roomy, "")

	var tokens []string
	for i := 0; i < 5; i++ {
		_, token := signedUp(t, "storm")
		tokens = append(tokens, token)
	}
	// The storm arrives at once, as after a pod went away: the gate sees every open before a
	// token is read, so a slow machine cannot spread them over the refill.
	type answer struct {
		status     int
		retryAfter string
	}
	answers := make(chan answer, len(tokens))
	start := time.Now()
	for _, token := range tokens {
		go func() {
			req, _ := http.NewRequest(http.MethodGet, g.base+"/api/notifications/stream", nil)
			req.Header.Set("Authorization", "Bearer "+token)
			// A transport of its own: every device has its own connection.
			resp, err := (&http.Client{Transport: &http.Transport{}}).Do(req)
			if err != nil {
				answers <- answer{}
				return
			}
			t.Cleanup(func() { resp.Body.Close() })
			answers <- answer{resp.StatusCode, resp.Header.Get("Retry-After")}
		}()
	}
	codes := map[int]int{}
	for range tokens {
		a := <-answers
		codes[a.status]++
		if a.status == http.StatusServiceUnavailable && a.retryAfter == "" {
			t.Error("a shed open without Retry-After")
		}
	}
	// Two in the burst, plus one a second refilled while they arrived; the rest shed.
	admitted := 2 + int(time.Since(start).Seconds())
	if codes[http.StatusOK] < 2 || codes[http.StatusOK] > admitted || codes[http.StatusServiceUnavailable] != 5-codes[http.StatusOK] ||
		codes[http.StatusServiceUnavailable] == 0 {
		t.Fatalf("answers %v (at most %d admitted)", codes, admitted)
	}
	if got := g.metric(`live_streams_refused_total{reason="storm"}`); got == "" || got == "0" {
		t.Fatalf("storm refusals %q", got)
	}
}

func TestAHouseholdBehindOneAddressOpensAllItsStreams(t *testing.T) {
	live := newLiveUpstream(t)
	t.Setenv("NOTIFICATION_URL", live.server.URL)
	// One person's requests from an address are limited to 3 a minute here; stream opens have
	// an allowance of their own, for many people behind one address.
	g := startGateway(t, newUpstream(t), ports.RateLimits{PerIP: 3, PerUser: 10000}, "")
	for i := 0; i < 8; i++ {
		_, token := signedUp(t, "household")
		if resp := g.openStream(token); resp.Status != http.StatusOK {
			t.Fatalf("device %d of the household: %d %s", i, resp.Status, rest(resp))
		}
	}
	// The streams did not use up the address's allowance for everything else.
	_, token := signedUp(t, "household-reader")
	for i := 0; i < 3; i++ {
		if resp := g.do("GET", "/api/wishlist", token, nil); resp.Status != http.StatusOK {
			t.Fatalf("list %d: %d", i, resp.Status)
		}
	}
	if resp := g.do("GET", "/api/wishlist", token, nil); resp.Status != http.StatusTooManyRequests {
		t.Fatalf("the per-address limit still holds for other requests: %d", resp.Status)
	}
}

func TestStreamsWhileNotificationIsDownAre503WithRetryAfter(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	t.Setenv("NOTIFICATION_URL", "http://"+addr)
	g := startGateway(t, newUpstream(t), roomy, "")
	_, token := signedUp(t, "while-down")
	resp := g.openStream(token)
	if resp.Status != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("notification away: %d %q %s", resp.Status, resp.Header.Get("Retry-After"), rest(resp))
	}
}

// A notification service that takes its connections over answers closed-delimited, often with
// the head and the first events in one packet. The device gets every byte in order, the end of
// the upstream connection ends the device's stream (it reconnects), and a device that leaves
// has its upstream connection closed at the stream's next heartbeat.
func TestAClosedDelimitedUpstreamIsRelayedWholeAndEndsWithItsConnection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	accepted := make(chan net.Conn, 2)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	t.Setenv("NOTIFICATION_URL", "http://"+ln.Addr().String())
	g := startGateway(t, newUpstream(t), roomy, "")
	_, token := signedUp(t, "closed-delimited")

	// The upstream answers once the gateway's request has arrived whole.
	head := "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
	hello := "event: hello\ndata: {\"count\":0}\n\n"
	event := "id: 7\nevent: wishlist-count\ndata: {\"count\":1}\n\n"
	served := make(chan net.Conn, 1)
	go func() {
		up := <-accepted
		req, err := http.ReadRequest(bufio.NewReader(up))
		if err != nil || req.URL.Path != "/api/notifications/stream" || req.Header.Get("Authorization") != "" {
			t.Errorf("upstream request: %v %+v", err, req)
			up.Close()
			return
		}
		_, _ = up.Write([]byte(head + hello))
		served <- up
	}()
	s := g.openStream(token) // reads up to the hello
	if s.Status != http.StatusOK || !s.UntilClose {
		t.Fatalf("stream: %d (closed-delimited %v)", s.Status, s.UntilClose)
	}
	up := <-served
	if _, err := up.Write([]byte(event)); err != nil {
		t.Fatal(err)
	}
	up.Close()
	rest, err := io.ReadAll(s.Body)
	if err != nil || string(rest) != event {
		t.Fatalf("after the hello the device got %q (%v), want the event and the end", rest, err)
	}
	testenv.Eventually(t, 2*time.Second, func() error {
		if got := g.metric("live_streams_open"); got != "0" {
			return fmt.Errorf("live_streams_open %s", got)
		}
		return nil
	})

	// Another device leaves; the upstream's next heartbeats find its connection closed.
	go func() {
		up := <-accepted
		if _, err := http.ReadRequest(bufio.NewReader(up)); err != nil {
			t.Errorf("upstream request: %v", err)
		}
		_, _ = up.Write([]byte(head + hello))
		served <- up
	}()
	s = g.openStream(token)
	up = <-served
	s.Close()
	closed := make(chan error, 1)
	go func() {
		_, err := up.Read(make([]byte, 1)) // the gateway sends nothing more: this waits for the end
		closed <- err
	}()
	for i := 0; ; i++ {
		_, _ = up.Write([]byte(": ping\n\n"))
		select {
		case err := <-closed:
			if err != io.EOF {
				t.Fatalf("upstream connection ended with %v", err)
			}
			up.Close()
			return
		case <-time.After(200 * time.Millisecond):
		}
		if i == 10 {
			t.Fatal("the upstream connection outlived its device")
		}
	}
}
