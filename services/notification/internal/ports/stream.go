// Package ports serves the live stream and the notice list, and consumes the product events.
package ports

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/apierror"
	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/notification/internal/adapters"
	"github.com/santa-wishlist/santa/services/notification/internal/app"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// Heartbeat keeps idle streams alive through proxies that close quiet connections.
var Heartbeat = 15 * time.Second

// backlogLimit bounds what one reconnect replays.
const backlogLimit = 500

// Routes registers the stream and the list.
func Routes(r gin.IRouter, hub *app.Hub, notices *adapters.Notices, shutdown <-chan struct{}) {
	h := handlers{hub: hub, notices: notices, shutdown: shutdown}
	api := r.Group("/api", auth.FromGatewayHeaders(true))
	api.GET("/notifications/stream", h.stream)
	api.GET("/notifications", h.list)
}

type handlers struct {
	hub      *app.Hub
	notices  *adapters.Notices
	shutdown <-chan struct{}
}

func (h handlers) list(c *gin.Context) {
	u, _ := auth.UserFrom(c)
	list, err := h.notices.Latest(c.Request.Context(), u.UID, 50)
	if err != nil {
		httpserver.Logger(c).Error("list notices", "err", err)
		apierror.Abort(c, http.StatusServiceUnavailable, "unavailable", "Notifications cannot be loaded right now.")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, list)
}

func lastEventID(c *gin.Context) (int64, bool, error) {
	raw := strings.TrimSpace(c.GetHeader("Last-Event-ID"))
	if raw == "" {
		raw = strings.TrimSpace(c.Query("lastEventId"))
	}
	if raw == "" {
		return 0, false, nil
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id < 0 {
		return 0, false, errors.New("bad id")
	}
	return id, true, nil
}

// stream is the Server-Sent Events endpoint. Order of work matters: subscribe first, then read
// the backlog, then pass live notices whose seq is above the last one sent, so a notice stored
// while the backlog is read is neither lost nor sent twice.
func (h handlers) stream(c *gin.Context) {
	u, _ := auth.UserFrom(c)
	resume, resuming, err := lastEventID(c)
	if err != nil {
		apierror.Abort(c, http.StatusBadRequest, "bad_last_event_id", "Last-Event-ID must be a notice id.")
		return
	}
	sub, err := h.hub.Subscribe(u.UID)
	if errors.Is(err, app.ErrTooManyStreams) {
		apierror.Abort(c, http.StatusTooManyRequests, "too_many_streams", "Too many devices are listening at once. Close one and try again.")
		return
	}
	defer h.hub.Unsubscribe(sub)

	ctx := c.Request.Context()
	latest, count, err := h.notices.Position(ctx, u.UID)
	if err != nil {
		httpserver.Logger(c).Error("stream position", "err", err)
		apierror.Abort(c, http.StatusServiceUnavailable, "unavailable", "Live updates are not available right now.")
		return
	}
	var backlog []domain.Notice
	sent := latest // a fresh device starts from now: the hello count covers the past
	if resuming {
		if backlog, err = h.notices.After(ctx, u.UID, resume, backlogLimit); err != nil {
			apierror.Abort(c, http.StatusServiceUnavailable, "unavailable", "Live updates are not available right now.")
			return
		}
		sent = resume
	}

	w := c.Writer
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Connection", "keep-alive")
	w.Header().Set("X-Accel-Buffering", "no") // nginx-style proxies must not buffer the stream
	w.WriteHeader(http.StatusOK)
	hello, _ := json.Marshal(map[string]int{"count": count})
	if writeEvent(w, 0, domain.EventHello, hello) != nil {
		return
	}
	for _, n := range backlog {
		if writeEvent(w, n.Seq, n.Event, n.Data) != nil {
			return
		}
		sent = n.Seq
	}
	w.Flush()

	ping := time.NewTicker(Heartbeat)
	defer ping.Stop()
	for {
		select {
		case n := <-sub.C:
			if n.Seq <= sent {
				continue // already in the backlog
			}
			if writeEvent(w, n.Seq, n.Event, n.Data) != nil {
				return
			}
			sent = n.Seq
			w.Flush()
		case <-ping.C:
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil {
				return
			}
			w.Flush()
		case <-sub.Lagged:
			return // the client reconnects with Last-Event-ID
		case <-h.shutdown:
			return // draining: the client reconnects to another replica
		case <-ctx.Done():
			return
		}
	}
}

func writeEvent(w gin.ResponseWriter, seq int64, event string, data []byte) error {
	var err error
	if seq > 0 {
		_, err = fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", seq, event, data)
	} else {
		_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, data)
	}
	return err
}
