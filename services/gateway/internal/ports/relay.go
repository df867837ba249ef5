package ports

import (
	"bufio"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/apierror"
	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
)

// relayWriteTimeout drops a device that stopped reading (its socket buffer full).
const relayWriteTimeout = 15 * time.Second

// relayStream forwards the live stream of Server-Sent Events. Thousands stay open for hours
// and each is almost always idle, so what one holds is what a pod's memory is sized by. The
// handler does the costly part (the token, the upstream request) and then hands the client's
// connection to one small goroutine that copies events from the upstream HTTP/2 stream:
// the request's goroutine with its deep stack, the server's reader goroutine and its 8 KB of
// connection buffers all go away (92 KB per stream became what docs/capacity.md measures).
// The response is closed-delimited (Connection: close), which EventSource reads like any
// other; a device that went away is noticed at the next heartbeat (every 15 s), or at once
// when the notification service ends the stream.
//
// A client on HTTP/2 cannot be handed over; its stream is copied in the handler instead.
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
		if err := identity.SetHeaders(out.Header, u, ok, "notification"); err != nil {
			httpserver.Logger(c).Error("could not sign the identity assertion", "err", err)
			apierror.Abort(c, http.StatusServiceUnavailable, "unavailable", "Live updates are restarting. Trying again shortly.")
			cancel()
			return
		}

		resp, err := streamTransport.RoundTrip(out)
		if err != nil {
			cancel()
			if c.Request.Context().Err() != nil {
				return // the device went away
			}
			c.Header("Retry-After", strconv.Itoa(2+rand.IntN(3)))
			apierror.Abort(c, http.StatusServiceUnavailable, "unavailable", "Live updates are restarting. Trying again shortly.")
			return
		}
		if resp.StatusCode != http.StatusOK {
			// A refusal (429, 503 with Retry-After, 400): a small JSON answer, passed on.
			defer cancel()
			defer resp.Body.Close()
			copyHeader(c.Writer.Header(), resp.Header)
			c.Status(resp.StatusCode)
			_, _ = io.Copy(c.Writer, io.LimitReader(resp.Body, 64<<10))
			return
		}
		end := httpserver.KeepStreamOpen(c)
		conn, rw, err := http.NewResponseController(c.Writer).Hijack()
		if err != nil {
			// HTTP/2 from the client: copy here, flushing every event.
			defer end()
			defer cancel()
			defer resp.Body.Close()
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
			return
		}
		h := c.Writer.Header().Clone() // security headers and the request id
		copyHeader(h, resp.Header)
		h.Set("Connection", "close")
		if err := writeHead(rw.Writer, h); err != nil {
			end()
			cancel()
			resp.Body.Close()
			conn.Close()
			return
		}
		go func() {
			defer end()
			defer conn.Close()
			defer cancel()
			defer resp.Body.Close()
			_ = relay(resp.Body, func(b []byte) error {
				_ = conn.SetWriteDeadline(time.Now().Add(relayWriteTimeout))
				_, err := conn.Write(b)
				return err
			})
		}()
	}
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

// writeHead writes a 200 response head on a hijacked connection.
func writeHead(w *bufio.Writer, h http.Header) error {
	if _, err := w.WriteString("HTTP/1.1 200 OK\r\n"); err != nil {
		return err
	}
	if err := h.Write(w); err != nil {
		return err
	}
	if _, err := w.WriteString("\r\n"); err != nil {
		return err
	}
	return w.Flush()
}
