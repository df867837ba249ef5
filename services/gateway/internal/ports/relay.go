package ports

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
)

// relayWriteTimeout drops a device that stopped reading (its socket buffer full).
const relayWriteTimeout = 15 * time.Second

// upstreamIdleTimeout ends a stream whose upstream connection went silent: the notification
// service sends a heartbeat every 15 s, so a connection quiet for longer is dead (its pod gone
// without a word), and the device reconnects to a live one.
const upstreamIdleTimeout = 45 * time.Second

// streamDial opens a stream's own connection to the notification service.
var streamDial = dialRetrying(serviceDialer.DialContext)

// relayStream forwards the live stream of Server-Sent Events. Thousands stay open for hours
// and each is almost always idle, so what one holds is what a pod's memory is sized by. The
// handler does the costly part (the token, the upstream request) and then hands the device's
// connection, and a connection of its own to the notification service (which takes its end
// over likewise), to one small goroutine that copies events from one to the other: the
// request's goroutine with its deep stack, the server's reader goroutine and its 8 KB of
// connection buffers, and any HTTP client's goroutines and buffers all go away (92 KB per
// stream became what docs/capacity.md measures). Both answers are closed-delimited
// (Connection: close), which EventSource reads like any other; a device that went away is
// noticed at the next heartbeat (every 15 s), and its upstream connection closed then, which
// the notification service notices at once.
//
// A device on HTTP/2 cannot be handed over; its stream goes over the shared HTTP/2 connections
// (streamTransport) and is copied in the handler instead.
func relayStream(lifetime context.Context, target string, identity *auth.IdentitySigner) gin.HandlerFunc {
	if target == "" {
		return forward(target, "notification", identity, true)
	}
	if lifetime == nil {
		lifetime = context.Background()
	}
	base, err := url.Parse(target)
	if err != nil {
		panic("invalid service URL " + target) // checked at configuration time
	}
	return func(c *gin.Context) {
		// The upstream request outlives this handler, so it is not tied to its context but to
		// the gateway's: it ends when the device goes away or the gateway shuts down (then
		// the device reconnects to another pod).
		ctx, cancel := context.WithCancel(lifetime)
		out, _ := http.NewRequestWithContext(ctx, http.MethodGet, base.String(), nil)
		out.URL.Path, out.URL.RawPath, out.URL.RawQuery = c.Request.URL.Path, c.Request.URL.RawPath, c.Request.URL.RawQuery
		for _, h := range []string{"Accept", "Last-Event-ID", httpserver.RequestIDHeader} {
			if v := c.GetHeader(h); v != "" {
				out.Header.Set(h, v)
			}
		}
		out.Header.Set("X-Forwarded-For", c.ClientIP())
		out.Header.Set("X-Real-IP", c.ClientIP())
		u, ok := auth.UserFrom(c)
		if err := identity.SetHeaders(out, u, ok, "notification"); err != nil {
			httpserver.Logger(c).Error("could not sign the identity assertion", "err", err)
			httpserver.Abort(c, http.StatusServiceUnavailable, "unavailable", "Live updates are restarting. Trying again shortly.")
			cancel()
			return
		}
		if c.Request.ProtoMajor == 1 {
			cancel() // the stream's own connection carries it; it ends with the connection
			relayOwnConnection(c, lifetime, out)
			return
		}

		resp, err := streamTransport.RoundTrip(out)
		if err != nil {
			cancel()
			unavailable(c)
			return
		}
		defer cancel()
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			passOn(c, resp)
			return
		}
		defer httpserver.KeepStreamOpen(c)()
		copyHeader(c.Writer.Header(), resp.Header)
		c.Status(http.StatusOK)
		c.Writer.Flush()
		_ = relay(resp.Body, func(b []byte) error {
			if _, err := c.Writer.Write(b); err != nil {
				return err
			}
			c.Writer.Flush()
			return nil
		})
	}
}

// relayOwnConnection sends out on a connection of its own and, once the notification service
// answers 200, hands both connections to the relay goroutine (see relayStream).
func relayOwnConnection(c *gin.Context, lifetime context.Context, out *http.Request) {
	up, err := streamDial(c.Request.Context(), "tcp", hostPort(out.URL))
	if err != nil {
		unavailable(c)
		return
	}
	// The request and the answer's head must come promptly; the stream itself has no end.
	_ = up.SetDeadline(time.Now().Add(10 * time.Second))
	out = out.WithContext(context.Background())
	out.Close = true // one stream, one connection
	br := bufio.NewReaderSize(up, 1<<10)
	var resp *http.Response
	if err = out.Write(up); err == nil {
		resp, err = http.ReadResponse(br, out)
	}
	if err != nil {
		up.Close()
		unavailable(c)
		return
	}
	if resp.StatusCode != http.StatusOK {
		defer up.Close()
		passOn(c, resp)
		return
	}
	_ = up.SetDeadline(time.Time{})
	// What follows the head: a closed-delimited answer (the notification service's) is read
	// from the connection itself, so the head's buffer is let go; a chunked one (another
	// server) keeps it, for the chunks' framing.
	var body io.Reader
	var pending []byte
	if resp.ContentLength < 0 && len(resp.TransferEncoding) == 0 {
		pending, _ = br.Peek(br.Buffered())
		pending = bytes.Clone(pending)
		body = idleReader{up}
	} else {
		body = resp.Body
	}
	end := httpserver.KeepStreamOpen(c)
	device, rw, err := http.NewResponseController(c.Writer).Hijack()
	if err != nil {
		end()
		up.Close()
		unavailable(c)
		return
	}
	h := c.Writer.Header().Clone() // security headers and the request id
	copyHeader(h, resp.Header)
	write := func(b []byte) error {
		_ = device.SetWriteDeadline(time.Now().Add(relayWriteTimeout))
		_, err := device.Write(b)
		return err
	}
	if httpserver.WriteStreamHead(rw.Writer, h) != nil || (len(pending) > 0 && write(pending) != nil) {
		end()
		up.Close()
		device.Close()
		return
	}
	// The gateway shutting down ends the stream (its device reconnects to another pod).
	stop := context.AfterFunc(lifetime, func() { up.Close() })
	go func() {
		defer end()
		defer device.Close()
		defer up.Close()
		defer stop()
		_ = relay(body, write)
	}()
}

// idleReader reads an upstream stream connection, giving up when it stays silent for longer
// than upstreamIdleTimeout.
type idleReader struct{ conn net.Conn }

func (r idleReader) Read(b []byte) (int, error) {
	_ = r.conn.SetReadDeadline(time.Now().Add(upstreamIdleTimeout))
	return r.conn.Read(b)
}

func hostPort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return u.Host
	}
	return net.JoinHostPort(u.Hostname(), "80")
}

// unavailable answers a stream that could not reach the notification service; the device
// comes back later, as it does for the service's own 503s.
func unavailable(c *gin.Context) {
	if c.Request.Context().Err() != nil {
		return // the device went away
	}
	c.Header("Retry-After", strconv.Itoa(2+rand.IntN(3)))
	httpserver.Abort(c, http.StatusServiceUnavailable, "unavailable", "Live updates are restarting. Trying again shortly.")
}

// passOn passes on a refusal (429, 503 with Retry-After, 400): a small JSON answer.
func passOn(c *gin.Context, resp *http.Response) {
	defer resp.Body.Close()
	copyHeader(c.Writer.Header(), resp.Header)
	c.Status(resp.StatusCode)
	_, _ = io.Copy(c.Writer, io.LimitReader(resp.Body, 64<<10))
}

// relay copies body to write until either fails. While idle (nearly always) it waits in a read
// of a few bytes, so a stream holds no copy buffer: a heartbeat fits them; a longer event is
// written on a short-lived goroutine (httpserver.Shallow) with a pooled buffer, so the relay's
// own goroutine never grows past the smallest stack.
func relay(body io.Reader, write func([]byte) error) error {
	var small [16]byte
	for {
		n, err := body.Read(small[:])
		if n > 0 {
			var werr error
			httpserver.Shallow(func() {
				if werr = write(small[:n]); werr == nil && n == len(small) && err == nil {
					err, werr = relayRest(body, write) // the rest of a longer event
				}
			})
			if werr != nil {
				return werr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// relayRest copies what body holds after a full small read. Its read returns at once when more
// is buffered; when the small read took the last byte it waits for the next event, which is
// then sent at once (what was read before already went out).
func relayRest(body io.Reader, write func([]byte) error) (rerr, werr error) {
	buf := streamBuffers.Get()
	defer streamBuffers.Put(buf)
	n, rerr := body.Read(buf)
	if n > 0 {
		werr = write(buf[:n])
	}
	return rerr, werr
}

// hopHeaders are the connection's own headers, never passed on (RFC 9110, 7.6.1).
var hopHeaders = map[string]bool{"Connection": true, "Keep-Alive": true, "Proxy-Connection": true,
	"Te": true, "Trailer": true, "Transfer-Encoding": true, "Upgrade": true, "Content-Length": true}

func copyHeader(dst, src http.Header) {
	for k, vs := range src {
		if !hopHeaders[k] {
			dst[k] = append([]string(nil), vs...)
		}
	}
}
