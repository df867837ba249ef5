package httpserver

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
)

// In a storm the opens under way are bounded, not only their rate: past Opening, an open is
// refused at once (503 with Retry-After) instead of waiting with the others; an open that has
// handed its stream on no longer counts, though its stream stays open.
func TestOpensUnderWayAreBounded(t *testing.T) {
	gin.SetMode(gin.TestMode)
	gate := NewStreamGate(prometheus.NewRegistry(), StreamLimits{Max: 100, OpensPerSecond: 1000, Burst: 1000, Opening: 2, RetryAfter: 1})
	release := make(chan struct{}) // lets the waiting opens hand their streams on
	var ends []func()
	var mu sync.Mutex
	r := gin.New()
	r.GET("/stream", gate.Admit(), func(c *gin.Context) {
		<-release // a token check, a connection to the next service
		end := KeepStreamOpen(c)
		mu.Lock()
		ends = append(ends, end)
		mu.Unlock()
		c.Status(http.StatusOK)
	})
	open := func() chan int {
		code := make(chan int, 1)
		go func() {
			w := httptest.NewRecorder()
			r.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/stream", nil))
			code <- w.Code
		}()
		return code
	}
	first, second := open(), open()
	waitFor(t, func() bool { return gate.opening.Load() == 2 })
	if code := <-open(); code != http.StatusServiceUnavailable {
		t.Fatalf("a third open while two are under way: %d, want 503", code)
	}
	close(release)
	if a, b := <-first, <-second; a != http.StatusOK || b != http.StatusOK {
		t.Fatalf("the two under way: %d %d, want 200", a, b)
	}
	if gate.Open() != 2 || gate.opening.Load() != 0 {
		t.Fatalf("after handing on: %d open, %d under way; want 2 and 0", gate.Open(), gate.opening.Load())
	}
	if code := <-open(); code != http.StatusOK {
		t.Fatalf("an open once the others were handed on: %d, want 200", code)
	}
	mu.Lock()
	for _, end := range ends {
		end()
	}
	mu.Unlock()
	if gate.Open() != 0 {
		t.Fatalf("%d streams still counted after they ended", gate.Open())
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatal("timed out")
}
