// Package app holds the notification use cases: storing notices from events, and delivering
// them to every open stream of their user.
package app

import (
	"errors"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// MaxStreamsPerUser bounds one user's open streams (phones, tablets, tabs), so a runaway
// client cannot exhaust the server.
const MaxStreamsPerUser = 10

// ErrTooManyStreams is returned past MaxStreamsPerUser.
var ErrTooManyStreams = errors.New("too many open live streams for this user")

// Subscription is one open stream's mailbox.
type Subscription struct {
	C      chan domain.Notice
	userID string
	// Lagged is closed when the stream fell too far behind and was dropped; the client
	// reconnects with Last-Event-ID and catches up from PostgreSQL.
	Lagged chan struct{}
	once   sync.Once
}

// Hub delivers notices to the streams open on this replica.
type Hub struct {
	mu    sync.Mutex
	users map[string]map[*Subscription]struct{}
	open  prometheus.Gauge
}

// NewHub registers notification_streams_open.
func NewHub(reg prometheus.Registerer) *Hub {
	h := &Hub{users: map[string]map[*Subscription]struct{}{}, open: prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "notification_streams_open", Help: "Live streams open on this replica.",
	})}
	reg.MustRegister(h.open)
	return h
}

// Subscribe opens a mailbox for one stream of the user.
func (h *Hub) Subscribe(userID string) (*Subscription, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	subs := h.users[userID]
	if len(subs) >= MaxStreamsPerUser {
		return nil, ErrTooManyStreams
	}
	if subs == nil {
		subs = map[*Subscription]struct{}{}
		h.users[userID] = subs
	}
	s := &Subscription{C: make(chan domain.Notice, 64), userID: userID, Lagged: make(chan struct{})}
	subs[s] = struct{}{}
	h.open.Inc()
	return s, nil
}

// Unsubscribe closes a mailbox.
func (h *Hub) Unsubscribe(s *Subscription) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if subs, ok := h.users[s.userID]; ok {
		if _, ok := subs[s]; ok {
			delete(subs, s)
			h.open.Dec()
		}
		if len(subs) == 0 {
			delete(h.users, s.userID)
		}
	}
}

// Deliver hands a notice to every open stream of its user, never blocking on a slow one.
func (h *Hub) Deliver(n domain.Notice) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.users[n.UserID] {
		select {
		case s.C <- n:
		default:
			s.once.Do(func() { close(s.Lagged) })
		}
	}
}
