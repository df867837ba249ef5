// Package ports serves the live stream and the notice list.
package ports

import (
	"context"
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
	"github.com/santa-wishlist/santa/services/notification/internal/app"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// Heartbeat keeps idle streams alive through proxies that close quiet connections.
var Heartbeat = 15 * time.Second

const (
	// pageSize bounds one read of a user's notices; a device far behind gets several pages.
	pageSize = 200
	// listSize is how many notices GET /api/notifications returns.
	listSize = 50
)

// Notices is what the handlers read.
type Notices interface {
	// After returns the user's notices with a seq above after, oldest first.
	After(ctx context.Context, userID string, after int64, limit int) ([]domain.Notice, error)
	// Latest returns the user's newest notices, newest first.
	Latest(ctx context.Context, userID string, limit int) ([]domain.Notice, error)
	// Position returns the user's newest seq and current wishlist count.
	Position(ctx context.Context, userID string) (seq int64, count int, err error)
}

// Routes registers the stream and the list. Open streams end when shutdown is closed.
func Routes(r gin.IRouter, hub *app.Hub, notices Notices, shutdown <-chan struct{}) {
	h := handlers{hub: hub, notices: notices, shutdown: shutdown}
	api := r.Group("/api", auth.FromGatewayHeaders(true))
	api.GET("/notifications/stream", h.stream)
	api.GET("/notifications", h.list)
}

type handlers struct {
	hub      *app.Hub
	notices  Notices
	shutdown <-chan struct{}
}

func (h handlers) list(c *gin.Context) {
	u, _ := auth.UserFrom(c)
	list, err := h.notices.Latest(c.Request.Context(), u.UID, listSize)
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

// stream is the Server-Sent Events endpoint. The order of work is what makes it gap-free:
// subscribe to the wake-ups first, then read the position and the backlog, then on each
// wake-up send what PostgreSQL has above the last seq sent. A notice stored while the backlog
// is read rings the doorbell, so it is sent next; one already in the backlog is not above the
// last seq sent, so it is not sent twice.
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
	sub, err := h.hub.Subscribe(u.UID)
	if errors.Is(err, app.ErrTooManyStreams) {
		apierror.Abort(c, http.StatusTooManyRequests, "too_many_streams", "Too many devices are listening at once. Close one and try again.")
		return
	}
	defer h.hub.Unsubscribe(sub)

	ctx := c.Request.Context()
	latest, count, err := h.notices.Position(ctx, u.UID)
	if err != nil {
		log.Error("stream position", "err", err)
		apierror.Abort(c, http.StatusServiceUnavailable, "unavailable", "Live updates are not available right now.")
		return
	}
	// A fresh device starts from now: the hello count covers the past. A resuming one starts
	// where it stopped, unless its id is above this user's newest, which cannot be one of
	// theirs (a forged header, a database restored from a backup): then from now as well.
	sent := latest
	if resuming && resume <= latest {
		sent = resume
	}

	w := c.Writer
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Connection", "keep-alive")
	w.Header().Set("X-Accel-Buffering", "no") // nginx-style proxies must not buffer the stream
	w.WriteHeader(http.StatusOK)
	hello, _ := json.Marshal(map[string]int{"count": count})
	// hello has no id: it must not move the client's Last-Event-ID.
	if writeEvent(w, 0, domain.EventHello, hello) != nil {
		return
	}
	w.Flush()
	// behind: PostgreSQL may hold notices above sent that no wake-up will announce (the
	// backlog of a resuming device, the rest of a full page).
	behind := sent < latest
	if behind {
		sub.Ring() // the backlog goes out the same way as live notices
	}

	ping := time.NewTicker(Heartbeat)
	defer ping.Stop()
	for {
		select {
		case <-sub.Wake():
			if !behind && sub.Latest() <= sent {
				continue // announced again, or already sent
			}
			page, err := h.notices.After(ctx, u.UID, sent, pageSize)
			if err != nil {
				// The client reconnects with Last-Event-ID and gets the rest then.
				log.Warn("stream read failed; ending the stream", "err", err)
				return
			}
			for _, n := range page {
				if writeEvent(w, n.Seq, n.Event, n.Data) != nil {
					return
				}
				sent = n.Seq
			}
			w.Flush()
			if behind = len(page) == pageSize; behind {
				sub.Ring()
			}
		case <-ping.C:
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil {
				return
			}
			w.Flush()
		case <-h.shutdown:
			return // draining: the client reconnects, to another replica
		case <-ctx.Done():
			return
		}
	}
}

// writeEvent writes one SSE message. data is compact JSON, so it fits one data: line.
func writeEvent(w gin.ResponseWriter, seq int64, event string, data []byte) error {
	var err error
	if seq > 0 {
		_, err = fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", seq, event, data)
	} else {
		_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, data)
	}
	return err
}
