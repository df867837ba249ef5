package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// Store keeps notices.
type Store interface {
	// Insert stores a notice once per event id; fresh is false for an event stored before,
	// whose stored notice (and seq) is returned.
	Insert(ctx context.Context, n domain.Notice) (stored domain.Notice, fresh bool, err error)
}

// Announcer tells every replica that a user has notices up to seq.
type Announcer interface {
	Announce(userID string, seq int64) error
}

// Notifier turns events into stored, announced notices.
type Notifier struct {
	store    Store
	announce Announcer
	logger   *slog.Logger
}

// NewNotifier builds the event handler.
func NewNotifier(store Store, announce Announcer, logger *slog.Logger) *Notifier {
	return &Notifier{store: store, announce: announce, logger: logger}
}

// Handle is the consumer's handler. It is idempotent: a redelivered event finds its notice
// stored already and stores nothing. It is announced again all the same: the first delivery
// may have stored it and then died before announcing, and streams send each seq at most once
// (they only send what is above the last seq they sent), so announcing twice pushes nothing
// twice.
func (n *Notifier) Handle(ctx context.Context, env events.Envelope) error {
	notices, err := domain.NoticesFromEvent(env)
	if err != nil {
		return poisonOrRetry(err)
	}
	for _, notice := range notices {
		stored, fresh, err := n.store.Insert(ctx, notice)
		if err != nil {
			return poisonOrRetry(err)
		}
		if stored.Seq == 0 {
			continue // the account was erased; nothing was stored
		}
		if !fresh {
			n.logger.Debug("event seen before; nothing stored", "event_id", env.ID, "seq", stored.Seq)
		}
		if err := n.announce.Announce(stored.UserID, stored.Seq); err != nil {
			// Stored, so not lost: devices get it at the user's next notice or when they reconnect.
			n.logger.Warn("live push failed; devices get the notice later", "seq", stored.Seq, "err", err)
		}
	}
	return nil
}

// poisonOrRetry terminates what can never succeed (malformed data, an event id reused for
// another user) and lets the consumer retry the rest (the database is away) with back-off.
func poisonOrRetry(err error) error {
	if errors.Is(err, domain.ErrMalformed) {
		return fmt.Errorf("%w: %w", events.ErrPoison, err)
	}
	return err
}
