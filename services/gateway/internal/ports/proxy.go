package ports

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
)

// sharedTransport keeps connections to the internal services open between requests.
var sharedTransport = &http.Transport{
	Proxy:               nil, // internal calls never go through an outbound proxy
	DialContext:         dialRetrying(serviceDialer.DialContext),
	MaxIdleConns:        512,
	MaxIdleConnsPerHost: 256,
	IdleConnTimeout:     90 * time.Second,
}

// streamTransport carries the live streams of HTTP/2 devices to the notification service as
// HTTP/2 without TLS (the service accepts it next to HTTP/1.1), on a few shared connections
// (an HTTP/1.1 device's stream has a connection of its own instead, see relayStream). A
// connection that stops answering is found by a ping and closed, so its streams end and their
// devices reconnect instead of waiting on a dead socket.
var streamTransport = func() *http.Transport {
	t := &http.Transport{
		Proxy:           nil,
		DialContext:     dialRetrying(serviceDialer.DialContext),
		IdleConnTimeout: 90 * time.Second,
		HTTP2:           &http.HTTP2Config{SendPingTimeout: 20 * time.Second, PingTimeout: 10 * time.Second},
	}
	t.Protocols = new(http.Protocols)
	t.Protocols.SetUnencryptedHTTP2(true)
	return t
}()

// serviceDialer connects to an internal service. A second is long for a connection inside the
// cluster (the kernel answers it, however busy the service): one that takes longer went to a pod
// that is gone (a SYN to a vanished address waits for an ARP answer that never comes), and
// dialRetrying tries again, by when kube-proxy may send it elsewhere.
var serviceDialer = &net.Dialer{Timeout: time.Second, KeepAlive: 30 * time.Second}

// dialRetrying dials again, with pauses growing to about 3 s in all, when the address refuses the
// connection, has no route or does not answer in time: behind a Service, new connections keep
// going to a pod that just went away (a rollout, a scale-down) until kube-proxy's rules catch up,
// and a Service with no ready pod refuses them (make k8s-test saw both as 502s). Nothing was sent
// yet, so trying again is safe for every request, a POST too.
func dialRetrying(dial func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		pause := 100 * time.Millisecond
		for attempt := 1; ; attempt++ {
			conn, err := dial(ctx, network, addr)
			if err == nil || attempt == 6 || ctx.Err() != nil || !worthDialingAgain(err) {
				return conn, err
			}
			select {
			case <-ctx.Done():
				return nil, err
			case <-time.After(pause):
			}
			pause *= 2
		}
	}
}

func worthDialingAgain(err error) bool {
	var netErr net.Error
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EHOSTUNREACH) ||
		(errors.As(err, &netErr) && netErr.Timeout())
}

// replayLimit is the largest body the gateway reads before passing it on (a gift, a list, a
// claim; not a photo), so that the transport can send it again: Go's transport repeats a request
// by itself when a kept-alive connection turns out to be closed, as one to a pod that is shutting
// down does, but only if it can rewind the body (GetBody). It then repeats any request whose
// bytes never left, and also, for a GET or a write with an Idempotency-Key, one the service
// closed the connection on without answering. That last may repeat a write the service did
// finish; the client's own retry after the 502 it would otherwise get does the same, since a 5xx
// releases the key (idempotent).
const replayLimit = 64 << 10

// makeReplayable reads a small body into memory and lets the transport rewind it. It answers the
// request itself, and returns false, when the body cannot be read.
func makeReplayable(c *gin.Context) bool {
	r := c.Request
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength <= 0 || r.ContentLength > replayLimit {
		return true
	}
	body := make([]byte, r.ContentLength)
	if _, err := io.ReadFull(r.Body, body); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			httpserver.Abort(c, http.StatusRequestEntityTooLarge, "too_large", "The request is too large.")
		} else {
			httpserver.Abort(c, http.StatusBadRequest, "bad_request", "The request body ended before its announced length.")
		}
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return true
}

// streamBuffers lend a stream its copy buffer, which it holds for as long as it is open: a
// notice is a few hundred bytes, so 1 KB does (a longer backlog page takes a few reads).
var streamBuffers = &bufferPool{pool: sync.Pool{New: func() any { b := make([]byte, 1<<10); return &b }}}

// copyBuffers lend the proxy its body copy buffers: without a pool, every proxied request
// allocated a fresh 32 KB one, and the garbage collector then ran several times as often.
var copyBuffers = &bufferPool{pool: sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}}

type bufferPool struct{ pool sync.Pool }

func (p *bufferPool) Get() []byte  { return *p.pool.Get().(*[]byte) }
func (p *bufferPool) Put(b []byte) { p.pool.Put(&b) }

// forward returns a handler that sends the request to an internal service (audience) with an
// assertion of the verified user signed by identity. A service that is not configured
// answers 503.
func forward(target, audience string, identity *auth.IdentitySigner, streaming bool) gin.HandlerFunc {
	if target == "" {
		return func(c *gin.Context) {
			httpserver.Abort(c, http.StatusServiceUnavailable, "unavailable", "This feature is not available right now.")
		}
	}
	base, err := url.Parse(target)
	if err != nil {
		panic("invalid service URL " + target) // checked at configuration time
	}
	proxy := &httputil.ReverseProxy{
		Transport:  sharedTransport,
		BufferPool: copyBuffers,
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(base)
			pr.Out.URL.Path = pr.In.URL.Path
			pr.Out.URL.RawPath = pr.In.URL.RawPath
			pr.Out.Host = base.Host
			pr.SetXForwarded()
			pr.Out.Header.Set("X-Real-IP", clientIPOf(pr.In))
			u, ok := userOf(pr.In)
			if err := identity.SetHeaders(pr.Out, u, ok, audience); err != nil {
				// Never forward without one: the service would refuse it anyway.
				pr.Out.Header.Del(auth.HeaderIdentity)
			}
			pr.Out.Header.Del("Authorization") // internal services never see the raw token
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if seen, ok := r.Context().Value(upstreamErrKey{}).(*error); ok {
				*seen = err // logged by the handler, with the request id
			}
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				writeJSONError(w, http.StatusRequestEntityTooLarge, "too_large", "The request is too large.")
				return
			}
			if r.Context().Err() != nil {
				return // the client went away
			}
			if streaming {
				// The notification service is restarting or full of reconnections: the device
				// comes back later, as it does for the service's own 503s.
				w.Header().Set("Retry-After", strconv.Itoa(2+rand.IntN(3)))
				writeJSONError(w, http.StatusServiceUnavailable, "unavailable", "Live updates are restarting. Trying again shortly.")
				return
			}
			writeJSONError(w, http.StatusBadGateway, "upstream_unavailable", "This feature is not available right now. Please try again shortly.")
		},
	}
	if streaming {
		proxy.FlushInterval = -1 // Server-Sent Events must not wait in a buffer
		proxy.Transport = streamTransport
		proxy.BufferPool = streamBuffers
	}
	return func(c *gin.Context) {
		if !makeReplayable(c) {
			return
		}
		var upstreamErr error
		ctx := context.WithValue(withClientIP(c.Request.Context(), c.ClientIP()), upstreamErrKey{}, &upstreamErr)
		if u, ok := auth.UserFrom(c); ok {
			ctx = withUser(ctx, u)
		}
		proxy.ServeHTTP(c.Writer, c.Request.WithContext(ctx))
		if c.Writer.Status() >= 500 {
			httpserver.Logger(c).Warn("upstream failed", "target", target, "status", c.Writer.Status(), "err", upstreamErr)
		}
	}
}

// upstreamErrKey carries, in a proxied request's context, where the proxy's error handler
// leaves the transport's error for the handler's log line.
type upstreamErrKey struct{}

func writeJSONError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(`{"error":{"code":"` + code + `","message":"` + msg + `"}}`))
}
