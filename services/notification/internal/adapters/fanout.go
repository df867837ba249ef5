package adapters

import (
	"encoding/json"
	"fmt"

	"github.com/nats-io/nats.go"

	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// FanoutSubject carries stored notices to every replica. Each replica's durable consumer sees
// only its share of the events, but a user's devices may be connected to any replica, so the
// replica that stored a notice announces it here and every replica delivers it to its own
// streams. Core NATS (not JetStream) is enough: a device that misses a push because of a
// broken connection gets the notice from PostgreSQL when it reconnects with Last-Event-ID.
const FanoutSubject = "notification.fanout"

// Fanout publishes and receives stored notices.
type Fanout struct{ nc *nats.Conn }

// NewFanout uses an open connection.
func NewFanout(nc *nats.Conn) *Fanout { return &Fanout{nc: nc} }

type wireNotice struct {
	Seq    int64           `json:"seq"`
	UserID string          `json:"userId"`
	Event  string          `json:"event"`
	Data   json.RawMessage `json:"data"`
}

// Announce sends a stored notice to every replica.
func (f *Fanout) Announce(n domain.Notice) error {
	raw, err := json.Marshal(wireNotice{Seq: n.Seq, UserID: n.UserID, Event: n.Event, Data: n.Data})
	if err != nil {
		return err
	}
	if err := f.nc.Publish(FanoutSubject, raw); err != nil {
		return fmt.Errorf("announce notice %d: %w", n.Seq, err)
	}
	return nil
}

// Listen calls deliver for every announced notice until the subscription is closed.
func (f *Fanout) Listen(deliver func(domain.Notice)) (*nats.Subscription, error) {
	return f.nc.Subscribe(FanoutSubject, func(m *nats.Msg) {
		var w wireNotice
		if json.Unmarshal(m.Data, &w) != nil || w.UserID == "" {
			return
		}
		deliver(domain.Notice{Seq: w.Seq, UserID: w.UserID, Event: w.Event, Data: w.Data})
	})
}
