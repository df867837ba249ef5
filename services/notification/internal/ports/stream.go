// Package ports serves the live stream and the notice list.
package ports

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/notification/internal/app"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// Heartbeat keeps idle streams alive through proxies that close quiet connections.
var Heartbeat = 15 * time.Second

// StreamPath is the live stream's route.
const StreamPath = "/api/notifications/stream"

// streamWriteTimeout drops a stream whose reader stopped reading (its socket buffer full).
const streamWriteTimeout = 15 * time.Second

// StreamRoute registers the live stream, by hand (oapi-codegen.yaml leaves it out of the
// generated server): gate admits streams (503 past the pod's ceiling or in a reconnect storm)
// before the handler runs and holds the place while it does, which the generated wrapper cannot
// give it. Open streams end when lifetime does.
func StreamRoute(r gin.IRouter, feed *app.Feed, gate *httpserver.StreamGate, lifetime context.Context) {
	h := handlers{feed: feed, lifetime: lifetime, shutdown: lifetime.Done()}
	r.GET(StreamPath, auth.Caller(true), gate.Admit(), h.stream)
}

type handlers struct {
	feed     *app.Feed
	lifetime context.Context
	shutdown <-chan struct{}
}

// ListNotifications answers the caller's latest notices.
func (h handlers) ListNotifications(c *gin.Context) {
	u, _ := auth.UserFrom(c)
	list, err := h.feed.Latest(c.Request.Context(), u.UID)
	if err != nil {
		httpserver.Logger(c).Error("list notices", "err", err)
		httpserver.Abort(c, http.StatusServiceUnavailable, "unavailable", "Notifications cannot be loaded right now.")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, list)
}

// lastEventID reads where a reconnecting device stopped: the Last-Event-ID header that
// EventSource sends, or the lastEventId query parameter for clients that prefer it.
func lastEventID(c *gin.Context) (id int64, resuming bool, err error) {
	raw := strings.TrimSpace(c.GetHeader("Last-Event-ID"))
	if raw == "" {
		raw = strings.TrimSpace(c.Query("lastEventId"))
	}
	if raw == "" {
		return 0, false, nil
	}
	id, err = strconv.ParseInt(raw, 10, 64)
	if err != nil || id < 0 {
		return 0, false, errors.New("bad id")
	}
	return id, true, nil
}

// stream is the Server-Sent Events endpoint; app.Feed decides what to send and when.
func (h handlers) stream(c *gin.Context) {
	u, _ := auth.UserFrom(c)
	log := httpserver.Logger(c)
	resume, resuming, err := lastEventID(c)
	if err != nil {
		httpserver.Abort(c, http.StatusBadRequest, "bad_last_event_id", "Last-Event-ID must be a notice id.")
		return
	}
	select {
	case <-h.shutdown:
		// This replica is going away; the client retries and lands on another one.
		c.Header("Retry-After", "1")
		httpserver.Abort(c, http.StatusServiceUnavailable, "shutting_down", "Live updates are restarting. Try again in a moment.")
		return
	default:
	}
	ctx := c.Request.Context()
	var cur *app.Cursor
	httpserver.Shallow(func() { cur, err = h.feed.Open(ctx, u.UID, resume, resuming) })
	switch {
	case errors.Is(err, app.ErrTooManyStreams):
		httpserver.Abort(c, http.StatusTooManyRequests, "too_many_streams", "Too many devices are listening at once. Close one and try again.")
		return
	case err != nil:
		log.Error("stream position", "err", err)
		c.Header("Retry-After", "2")
		httpserver.Abort(c, http.StatusServiceUnavailable, "unavailable", "Live updates are not available right now.")
		return
	}

	w := c.Writer
	if c.Request.ProtoMajor == 1 && h.handOver(c, log, cur) {
		return
	}
	streamHeaders(w.Header())
	w.WriteHeader(http.StatusOK)
	if !h.hello(w, cur) {
		h.feed.Close(cur)
		return
	}
	w.Flush()
	// The stream waits on the request's goroutine once the middleware has returned, with a
	// stack at its smallest (httpserver.Park); it keeps its place under the pod's ceiling.
	end := httpserver.KeepStreamOpen(c)
	loop := func(w http.ResponseWriter) {
		defer end()
		defer h.feed.Close(cur)
		h.follow(ctx, log, cur, w)
	}
	if !httpserver.Park(c, loop) {
		loop(w)
	}
}

func streamHeaders(h http.Header) {
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // nginx-style proxies must not buffer the stream
}

// handOver serves an HTTP/1.1 stream (the gateway's) on its hijacked connection: the handler
// returns, and one small goroutine waits in a read on the socket, which ends at once when the
// gateway closes it (its device left), and which a wake-up, the heartbeat's deadline, the
// account's deletion or the shutdown interrupts. It reports false when the connection cannot be
// taken over; the stream is then served as on HTTP/2.
func (h handlers) handOver(c *gin.Context, log *slog.Logger, cur *app.Cursor) bool {
	conn, rw, err := http.NewResponseController(c.Writer).Hijack()
	if err != nil {
		return false
	}
	end := httpserver.KeepStreamOpen(c)
	head := c.Writer.Header().Clone() // the request id and the middleware's headers
	streamHeaders(head)
	if httpserver.WriteStreamHead(rw.Writer, head) != nil {
		end()
		h.feed.Close(cur)
		conn.Close()
		return true
	}
	go func() {
		defer end()
		defer conn.Close()
		defer h.feed.Close(cur)
		h.followConn(log, cur, conn)
	}()
	return true
}

// followConn is follow for a hijacked connection; see handOver. The gateway sends nothing after
// its request, so the read returns only when the connection ends or is interrupted.
func (h handlers) followConn(log *slog.Logger, cur *app.Cursor, conn net.Conn) {
	w := httpserver.DeadlineWriter{Conn: conn, Timeout: streamWriteTimeout}
	interrupt := func() { _ = conn.SetReadDeadline(time.Now()) }
	cur.OnWake(interrupt)
	stop := context.AfterFunc(h.lifetime, interrupt)
	defer stop()
	// The reads of what is new are not tied to a request (net/http cancels the request's
	// context once the handler has returned); the stream ends on its own signals.
	ctx := context.WithoutCancel(h.lifetime)
	var ok bool
	httpserver.Shallow(func() { ok = h.hello(w, cur) })
	if !ok {
		return
	}
	next := time.Now().Add(Heartbeat)
	var b [1]byte
	for {
		if !time.Now().Before(next) {
			if httpserver.Shallow(func() { ok = heartbeat(w, nil) }); !ok {
				return
			}
			next = time.Now().Add(Heartbeat)
		}
		_ = conn.SetReadDeadline(next)
		// After the deadline is set, so that a ring between the two is seen either here or as
		// an interrupted read.
		select {
		case <-cur.Gone():
			return
		case <-h.shutdown:
			return
		case <-cur.Wake():
			if httpserver.Shallow(func() { ok = h.send(ctx, log, cur, w, nil) }); !ok {
				return
			}
			continue
		default:
		}
		if _, err := conn.Read(b[:]); !errors.Is(err, os.ErrDeadlineExceeded) {
			return // the gateway closed the connection (or broke the protocol)
		}
	}
}

func (h handlers) hello(w io.Writer, cur *app.Cursor) bool {
	// hello has no id: it must not move the client's Last-Event-ID.
	return writeEvent(w, 0, domain.EventHello, []byte(`{"count":`+strconv.Itoa(cur.Count)+`}`)) == nil
}

// follow sends the stream's notices and heartbeats until it ends. Everything that goes deep (the
// read from PostgreSQL, the writes) runs in httpserver.Shallow, so this goroutine, waiting for
// hours, keeps the smallest stack.
func (h handlers) follow(ctx context.Context, log *slog.Logger, cur *app.Cursor, w io.Writer) {
	flusher, _ := w.(http.Flusher)
	ping := time.NewTicker(Heartbeat)
	defer ping.Stop()
	for {
		var ok bool
		select {
		case <-cur.Wake():
			httpserver.Shallow(func() { ok = h.send(ctx, log, cur, w, flusher) })
		case <-ping.C:
			httpserver.Shallow(func() { ok = heartbeat(w, flusher) })
		case <-cur.Gone():
			return // the account was deleted
		case <-h.shutdown:
			return // draining: the client reconnects, to another replica
		case <-ctx.Done():
			return
		}
		if !ok {
			return
		}
	}
}

// send writes what is new after a wake-up; false ends the stream.
func (h handlers) send(ctx context.Context, log *slog.Logger, cur *app.Cursor, w io.Writer, flusher http.Flusher) bool {
	page, err := h.feed.Next(ctx, cur)
	if err != nil {
		// The client reconnects with Last-Event-ID and gets the rest then.
		log.Warn("stream read failed; ending the stream", "err", err)
		return false
	}
	if len(page) == 0 {
		return true
	}
	for _, n := range page {
		if writeEvent(w, n.Seq, n.Event, n.Data) != nil {
			return false
		}
	}
	return flush(flusher)
}

func heartbeat(w io.Writer, flusher http.Flusher) bool {
	if _, err := io.WriteString(w, ": ping\n\n"); err != nil {
		return false
	}
	return flush(flusher)
}

func flush(f http.Flusher) bool {
	if f != nil {
		f.Flush()
	}
	return true
}

// writeEvent writes one SSE message. data is compact JSON, so it fits one data: line.
func writeEvent(w io.Writer, seq int64, event string, data []byte) error {
	var err error
	if seq > 0 {
		_, err = fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", seq, event, data)
	} else {
		_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, data)
	}
	return err
}
