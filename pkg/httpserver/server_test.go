package httpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
)

func startServer(t *testing.T, opts Options, setup func(*Server)) (string, context.CancelFunc, <-chan error) {
	t.Helper()
	opts.Addr = "127.0.0.1:0"
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	s := New(opts)
	setup(s)
	addr, err := s.Listen()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(cancel)
	return "http://" + addr.String(), cancel, done
}

func TestShutdownFinishesInFlightRequestsAndFailsReadinessFirst(t *testing.T) {
	var started sync.WaitGroup
	closed := false
	base, stop, done := startServer(t, Options{Service: "t", ShutdownTimeout: 10 * time.Second, DrainDelay: 300 * time.Millisecond},
		func(s *Server) {
			s.Engine.GET("/slow", func(c *gin.Context) {
				started.Done()
				time.Sleep(500 * time.Millisecond)
				c.String(http.StatusOK, "done")
			})
			s.OnShutdown(func(context.Context) error { closed = true; return nil })
		})

	const n = 20
	started.Add(n)
	var ok atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Get(base + "/slow")
			if err != nil {
				t.Errorf("request lost: %v", err)
				return
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && string(body) == "done" {
				ok.Add(1)
			}
		}()
	}
	started.Wait()
	stop() // what SIGTERM does through SignalContext

	// During the drain delay the server still answers, but as unready.
	resp, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatalf("readyz during drain: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("readyz during drain = %d, want 503", resp.StatusCode)
	}
	wg.Wait()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
	if got := ok.Load(); got != n {
		t.Fatalf("%d of %d in-flight requests completed", got, n)
	}
	if !closed {
		t.Fatal("shutdown hooks did not run")
	}
	if _, err := http.Get(base + "/healthz"); err == nil {
		t.Fatal("server still accepting after shutdown")
	}
}

func TestReadinessReflectsChecks(t *testing.T) {
	var healthy atomic.Bool
	base, _, _ := startServer(t, Options{Service: "family"}, func(s *Server) {
		s.AddReadinessCheck("db", func(context.Context) error {
			if healthy.Load() {
				return nil
			}
			return errors.New("connection refused")
		})
	})
	get := func(path string) (int, string) {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/readyz"); code != 503 || !strings.Contains(body, "connection refused") || !strings.Contains(body, `"service":"family"`) {
		t.Fatalf("unready: %d %s", code, body)
	}
	if code, _ := get("/healthz"); code != 200 {
		t.Fatalf("healthz = %d", code)
	}
	healthy.Store(true)
	// The service's own name: the local stack waits for it, so another program answering on
	// the port (once, the fake Gemini on family's admin port) is not taken for the service.
	if code, body := get("/readyz"); code != 200 || body != `{"service":"family","status":"ready"}` {
		t.Fatalf("ready: %d %s", code, body)
	}
}

func TestPanicAnswersJSONWithoutInternalsAndMetricsCount(t *testing.T) {
	base, _, _ := startServer(t, Options{Service: "svc"}, func(s *Server) {
		s.Engine.GET("/boom", func(*gin.Context) { panic("secret connection string postgres://admin:pw@db") })
	})
	resp, err := http.Get(base + "/boom")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 500 || !strings.Contains(string(body), `"code":"internal"`) || strings.Contains(string(body), "postgres://") {
		t.Fatalf("panic answer: %d %s", resp.StatusCode, body)
	}
	if resp.Header.Get(RequestIDHeader) == "" {
		t.Fatal("no request id on the answer")
	}
	resp, err = http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := `http_requests_total{method="GET",route="/boom",service="svc",status="500"} 1`
	if !strings.Contains(string(metrics), want) {
		t.Fatalf("metrics lack %q", want)
	}
	if !strings.Contains(string(metrics), "http_request_duration_seconds_bucket") {
		t.Fatal("no latency histogram")
	}
}

func TestDecodeJSONRefusesBadBodiesWith4xx(t *testing.T) {
	type payload struct {
		Name  string `json:"name"`
		Count int    `json:"count"`
	}
	base, _, _ := startServer(t, Options{Service: "t"}, func(s *Server) {
		s.Engine.POST("/in", func(c *gin.Context) {
			var p payload
			if DecodeJSON(c, &p, 64) {
				c.JSON(200, p)
			}
		})
	})
	cases := []struct {
		name, body string
		status     int
		code       string
	}{
		{"malformed", `{"name":`, 400, "malformed_json"},
		{"wrong type", `{"name":"a","count":"three"}`, 400, "wrong_type"},
		{"invalid utf8", "{\"name\":\"\xff\xfe\"}", 400, "invalid_utf8"},
		{"too large", `{"name":"` + strings.Repeat("x", 100) + `"}`, 413, "too_large"},
		{"empty", ``, 400, "empty_body"},
		{"good", `{"name":"ok","count":3}`, 200, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := http.Post(base+"/in", "application/json", strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status || (tc.code != "" && !strings.Contains(string(b), fmt.Sprintf(`"code":"%s"`, tc.code))) {
				t.Fatalf("got %d %s, want %d %s", resp.StatusCode, b, tc.status, tc.code)
			}
		})
	}
}

func TestMemoryIsReleasedOnceRequestsPause(t *testing.T) {
	r := newIdleRelease(time.Second)
	releases := 0
	r.free = func() { releases++ }
	start := time.Now()
	if r.check(start.Add(time.Hour)) {
		t.Fatal("released before any request")
	}
	r.seen(start)
	if r.check(start.Add(500 * time.Millisecond)) {
		t.Fatal("released while requests were still recent")
	}
	if !r.check(start.Add(1500*time.Millisecond)) || releases != 1 {
		t.Fatalf("not released after the pause: %d", releases)
	}
	if r.check(start.Add(time.Hour)) || releases != 1 {
		t.Fatal("released again without new requests")
	}
	r.seen(start.Add(2 * time.Hour))
	if !r.check(start.Add(3*time.Hour)) || releases != 2 {
		t.Fatalf("a new burst was not released: %d", releases)
	}
	// Live streams ending free memory too, with no request to say so.
	var ended atomic.Int64
	r.ended = &ended
	ended.Store(start.Add(4 * time.Hour).UnixNano())
	if r.check(start.Add(4*time.Hour + 500*time.Millisecond)) {
		t.Fatal("released while streams were still ending")
	}
	if !r.check(start.Add(5*time.Hour)) || releases != 3 {
		t.Fatalf("not released after streams ended: %d", releases)
	}
}

func TestProbesDoNotCountAsRequestsForMemoryRelease(t *testing.T) {
	srv := New(Options{Service: "probe-test", IdleMemoryRelease: time.Second})
	for _, path := range []string{"/healthz", "/metrics"} {
		w := httptest.NewRecorder()
		srv.Engine.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	}
	if srv.release.last.Load() != 0 {
		t.Fatal("a probe counted as a request")
	}
	w := httptest.NewRecorder()
	srv.Engine.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/anything", nil))
	if srv.release.last.Load() == 0 {
		t.Fatal("a request was not counted")
	}
}

// With AdminAddr, /readyz and /metrics are answered there only; the public port keeps
// /healthz and the routes, and a failing dependency's error text never reaches it.
func TestAdminAddrTakesReadinessAndMetricsOffThePublicPort(t *testing.T) {
	var srv *Server
	base, cancel, done := startServer(t, Options{Service: "t", AdminAddr: "127.0.0.1:0"}, func(s *Server) {
		srv = s
		s.AddReadinessCheck("db", func(context.Context) error { return errors.New("secret-host:5432 refused") })
		s.Engine.GET("/hello", func(c *gin.Context) { c.String(http.StatusOK, "hi") })
	})
	get := func(url string) (int, string) {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, p := range []string{"/readyz", "/metrics"} {
		if code, body := get(base + p); code != http.StatusNotFound || strings.Contains(body, "secret-host") {
			t.Errorf("public %s: %d %s", p, code, body)
		}
	}
	for p, want := range map[string]int{"/healthz": 200, "/hello": 200} {
		if code, _ := get(base + p); code != want {
			t.Errorf("public %s: %d, want %d", p, code, want)
		}
	}
	if code, body := get(srv.AdminURL() + "/readyz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "secret-host") {
		t.Errorf("admin /readyz: %d %s", code, body)
	}
	if code, body := get(srv.AdminURL() + "/metrics"); code != http.StatusOK || !strings.Contains(body, "go_goroutines") {
		t.Errorf("admin /metrics: %d", code)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get(srv.AdminURL() + "/healthz"); err == nil {
		t.Error("the admin listener is still open after shutdown")
	}
}

// Every line a request logs carries its request id: the handler's own lines and the summary,
// which is written only at a level the logger keeps.
func TestRequestLogLinesCarryTheRequestID(t *testing.T) {
	gin.SetMode(gin.TestMode)
	var out strings.Builder
	var mu sync.Mutex
	logged := func() string { mu.Lock(); defer mu.Unlock(); return out.String() }
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelWarn} {
		mu.Lock()
		out.Reset()
		mu.Unlock()
		s := New(Options{Service: "svc", Logger: slog.New(slog.NewJSONHandler(lockedWriter{&mu, &out}, &slog.HandlerOptions{Level: level}))})
		s.Engine.GET("/x", func(c *gin.Context) {
			Logger(c).Warn("looked at x")
			c.Status(http.StatusNoContent)
		})
		req := httptest.NewRequest(http.MethodGet, "/x", nil)
		req.Header.Set(RequestIDHeader, "req-123")
		s.Engine.ServeHTTP(httptest.NewRecorder(), req)
		lines := strings.Split(strings.TrimSpace(logged()), "\n")
		want := 2
		if level == slog.LevelWarn {
			want = 1 // the summary is an info line
		}
		if len(lines) != want {
			t.Fatalf("level %s: %d lines, want %d: %s", level, len(lines), want, logged())
		}
		for _, l := range lines {
			if !strings.Contains(l, `"request_id":"req-123"`) {
				t.Errorf("level %s: a line without the request id: %s", level, l)
			}
		}
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
