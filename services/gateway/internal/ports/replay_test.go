package ports

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

// upstreamClosingOnce is a service that answers every request on its first connection but closes
// that connection, without answering, on the first request of method closeOn: what a pod shutting
// down does to a kept-alive connection it finds a request on. It answers 201 with the body it
// read on any later connection. got receives each complete request's body.
func upstreamClosingOnce(t *testing.T, closeOn string) (addr string, got chan string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	got = make(chan string, 8)
	go func() {
		for first := true; ; first = false {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go func(conn net.Conn, first bool) {
				defer conn.Close()
				br := bufio.NewReader(conn)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					body, _ := io.ReadAll(req.Body)
					if first && req.Method == closeOn {
						return // closes without an answer
					}
					got <- string(body)
					resp := &http.Response{StatusCode: http.StatusCreated, ProtoMajor: 1, ProtoMinor: 1,
						Header: http.Header{"Content-Type": {"application/json"}}, ContentLength: int64(len(body)),
						Body: io.NopCloser(strings.NewReader(string(body)))}
					if resp.Write(conn) != nil {
						return
					}
				}
			}(conn, first)
		}
	}()
	return l.Addr().String(), got
}

// A write with an Idempotency-Key whose kept-alive connection the service closes without an
// answer (a pod shutting down) is sent again, body and all, on a new connection: the client
// gets the service's answer, not a 502.
func TestForwardSendsAWriteAgainWhenItsConnectionClosesUnanswered(t *testing.T) {
	addr, got := upstreamClosingOnce(t, http.MethodPost)
	identity, err := auth.NewIdentitySigner("gateway", testenv.IdentitySigningKey("gateway"), 0)
	if err != nil {
		t.Fatal(err)
	}
	gin.SetMode(gin.TestMode)
	r := gin.New()
	r.Any("/api/*path", forward("http://"+addr, "wishlist", identity, false))
	gateway := httptest.NewServer(r)
	defer gateway.Close()
	call := func(method, body string) (int, string) {
		req, _ := http.NewRequest(method, gateway.URL+"/api/wishlist", strings.NewReader(body))
		req.Header.Set("Idempotency-Key", "k-1")
		resp, err := gateway.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(out)
	}
	// A first request keeps the connection open in the transport's pool.
	if code, out := call(http.MethodGet, ""); code != http.StatusCreated {
		t.Fatalf("GET: %d %s", code, out)
	}
	<-got
	const gift = `{"name":"Sledge","price":"$40"}`
	if code, out := call(http.MethodPost, gift); code != http.StatusCreated || out != gift {
		t.Fatalf("POST after the service closed its connection: %d %q; want 201 with the body sent again", code, out)
	}
	if body := <-got; body != gift {
		t.Fatalf("the service read %q on the second connection; want %q", body, gift)
	}
}

// A body shorter than its Content-Length is the client's fault: a 400, and nothing is sent on.
func TestForwardRefusesABodyShorterThanAnnounced(t *testing.T) {
	addr, got := upstreamClosingOnce(t, "")
	identity, _ := auth.NewIdentitySigner("gateway", testenv.IdentitySigningKey("gateway"), 0)
	r := gin.New()
	r.Any("/api/*path", forward("http://"+addr, "wishlist", identity, false))
	req := httptest.NewRequest(http.MethodPost, "/api/wishlist", strings.NewReader(`{"name":`))
	req.ContentLength = 100
	w := httptest.NewRecorder()
	r.ServeHTTP(w, req) // the body ends before the proxy is reached: a recorder does
	if w.Code != http.StatusBadRequest {
		t.Fatalf("short body: %d %s; want 400", w.Code, w.Body)
	}
	select {
	case body := <-got:
		t.Fatalf("the service got %q", body)
	default:
	}
}
