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
	Insert(ctx context.Context, n domain.Notice) (domain.Notice, bool, error)
}

// Announcer tells every replica about a stored notice.
type Announcer interface {
	Announce(n domain.Notice) error
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
// stored already and neither stores nor pushes it again.
func (n *Notifier) Handle(ctx context.Context, env events.Envelope) error {
	notice, err := domain.FromEvent(env)
	if errors.Is(err, domain.ErrMalformed) {
		return fmt.Errorf("%w: %v", events.ErrPoison, err)
	}
	if err != nil {
		return err
	}
	stored, fresh, err := n.store.Insert(ctx, notice)
	if err != nil {
		return err // retried by the consumer with back-off
	}
	if !fresh {
		return nil
	}
	if err := n.announce.Announce(stored); err != nil {
		// Stored, so not lost: devices catch up on reconnect.
		n.logger.Warn("live push failed; devices get the notice when they reconnect", "seq", stored.Seq, "err", err)
	}
	return nil
}
