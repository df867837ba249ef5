// Package ports serves the live stream and the notice list.
package ports

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/apierror"
	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/notification/internal/app"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// Heartbeat keeps idle streams alive through proxies that close quiet connections.
var Heartbeat = 15 * time.Second

// StreamPath is the live stream's route.
const StreamPath = "/api/notifications/stream"

// Routes registers the stream and the list. gate admits streams (503 past the pod's ceiling or
// in a reconnect storm); open streams end when shutdown is closed.
func Routes(r gin.IRouter, feed *app.Feed, gate *httpserver.StreamGate, shutdown <-chan struct{}) {
	h := handlers{feed: feed, shutdown: shutdown}
	api := r.Group("/api", auth.Caller(true))
	r.GET(StreamPath, auth.Caller(true), gate.Admit(), h.stream)
	api.GET("/notifications", h.list)
}

type handlers struct {
	feed     *app.Feed
	shutdown <-chan struct{}
}

func (h handlers) list(c *gin.Context) {
	u, _ := auth.UserFrom(c)
	list, err := h.feed.Latest(c.Request.Context(), u.UID)
	if err != nil {
		httpserver.Logger(c).Error("list notices", "err", err)
		apierror.Abort(c, http.StatusServiceUnavailable, "unavailable", "Notifications cannot be loaded right now.")
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
		apierror.Abort(c, http.StatusBadRequest, "bad_last_event_id", "Last-Event-ID must be a notice id.")
		return
	}
	select {
	case <-h.shutdown:
		// This replica is going away; the client retries and lands on another one.
		c.Header("Retry-After", "1")
		apierror.Abort(c, http.StatusServiceUnavailable, "shutting_down", "Live updates are restarting. Try again in a moment.")
		return
	default:
	}
	ctx := c.Request.Context()
	var cur *app.Cursor
	httpserver.Shallow(func() { cur, err = h.feed.Open(ctx, u.UID, resume, resuming) })
	switch {
	case errors.Is(err, app.ErrTooManyStreams):
		apierror.Abort(c, http.StatusTooManyRequests, "too_many_streams", "Too many devices are listening at once. Close one and try again.")
		return
	case err != nil:
		log.Error("stream position", "err", err)
		c.Header("Retry-After", "2")
		apierror.Abort(c, http.StatusServiceUnavailable, "unavailable", "Live updates are not available right now.")
		return
	}

	w := c.Writer
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no") // nginx-style proxies must not buffer the stream
	w.WriteHeader(http.StatusOK)
	// hello has no id: it must not move the client's Last-Event-ID.
	if writeEvent(w, 0, domain.EventHello, []byte(`{"count":`+strconv.Itoa(cur.Count)+`}`)) != nil {
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

// follow sends the stream's notices and heartbeats until it ends. Everything that goes deep (the
// read from PostgreSQL, the writes) runs in httpserver.Shallow, so this goroutine, waiting for
// hours, keeps the smallest stack.
func (h handlers) follow(ctx context.Context, log *slog.Logger, cur *app.Cursor, w http.ResponseWriter) {
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
func (h handlers) send(ctx context.Context, log *slog.Logger, cur *app.Cursor, w http.ResponseWriter, flusher http.Flusher) bool {
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

func heartbeat(w http.ResponseWriter, flusher http.Flusher) bool {
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
