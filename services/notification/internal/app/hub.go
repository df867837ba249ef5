// Package app holds the notification use cases: storing notices from events, and waking every
// open stream of their user.
package app

import (
	"errors"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// MaxStreamsPerUser bounds one user's open streams on a replica (phones, tablets, tabs), so
// a runaway client cannot exhaust the server.
const MaxStreamsPerUser = 10

// ErrTooManyStreams is returned past MaxStreamsPerUser.
var ErrTooManyStreams = errors.New("too many open live streams for this user")

// Subscription is one open stream's doorbell. It carries no notices, only "the user has
// notices up to Latest()": the stream reads them from PostgreSQL. So a slow device never
// makes the hub block or drop anything; rings while it is busy merge into one.
type Subscription struct {
	userID string
	wake   chan struct{}
	latest atomic.Int64
	// gone is closed when the user's account was deleted: the stream ends.
	gone chan struct{}
	// interrupt, when set, is called after every ring and when gone closes: a stream that
	// waits in a read on its connection rather than on Wake is woken by it.
	interrupt atomic.Pointer[func()]
	// recheck asks the stream's next read to look in PostgreSQL even though no higher seq
	// was announced: wake-ups may have been missed (Hub.Recheck).
	recheck atomic.Bool
}

// Gone is closed when the stream must end because its user no longer exists.
func (s *Subscription) Gone() <-chan struct{} { return s.gone }

// Wake is signalled when the user has a new notice.
func (s *Subscription) Wake() <-chan struct{} { return s.wake }

// Latest is the highest seq announced for the user since the subscription opened.
func (s *Subscription) Latest() int64 { return s.latest.Load() }

// Ring wakes the stream again (after reading only part of what is new).
func (s *Subscription) Ring() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
	s.interrupted()
}

func (s *Subscription) interrupted() {
	if f := s.interrupt.Load(); f != nil {
		(*f)()
	}
}

func (s *Subscription) announce(seq int64) {
	for {
		cur := s.latest.Load()
		if seq <= cur || s.latest.CompareAndSwap(cur, seq) {
			break
		}
	}
	s.Ring()
}

// Hub knows the streams open on this replica.
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

// Subscribe opens a doorbell for one stream of the user.
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
	s := &Subscription{userID: userID, wake: make(chan struct{}, 1), gone: make(chan struct{})}
	subs[s] = struct{}{}
	h.open.Inc()
	return s, nil
}

// Unsubscribe closes a doorbell.
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

// SeqGone announced for a user ends their streams: the account was deleted.
const SeqGone = -1

// Announce wakes every open stream of the user: it has notices up to seq. SeqGone ends them
// instead. It never blocks.
func (h *Hub) Announce(userID string, seq int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if seq == SeqGone {
		for s := range h.users[userID] {
			close(s.gone)
			s.interrupted()
			h.open.Dec()
		}
		delete(h.users, userID)
		return
	}
	for s := range h.users[userID] {
		s.announce(seq)
	}
}

// Recheck wakes every stream on this replica to read what PostgreSQL has for its user, whatever
// was announced: after a reconnection to NATS, wake-ups published while this replica was away
// are gone (they are core NATS messages), but the notices they announced are stored.
func (h *Hub) Recheck() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, subs := range h.users {
		for s := range subs {
			s.recheck.Store(true)
			s.Ring()
		}
	}
}
