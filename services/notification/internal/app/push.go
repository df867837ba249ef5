package app

import (
	"context"
	"errors"
	"log/slog"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// PushOutcome is what a push service made of one push.
type PushOutcome int

// The outcomes of one push.
const (
	PushSent     PushOutcome = iota
	PushRetry                // the network or the push service failed for now: try again later
	PushGone                 // 404/410: the device unsubscribed; its subscription goes
	PushRejected             // refused for good (bad request, too large): trying again changes nothing
)

// PushResult is the outcome of one push and, unless sent, why.
type PushResult struct {
	Outcome PushOutcome
	Err     error
}

// PushSender delivers one push to one device.
type PushSender interface {
	Send(ctx context.Context, sub domain.Subscription, p domain.Push) PushResult
}

// PushStore is what the pusher needs of the subscriptions.
type PushStore interface {
	OfUser(ctx context.Context, userID string) ([]domain.Subscription, error)
	Delivered(ctx context.Context, eventID, subID string) (bool, error)
	MarkDelivered(ctx context.Context, eventID, subID string) error
	Drop(ctx context.Context, id string) error
}

// Pusher pushes the notices that matter when the app is closed to every device of their user.
type Pusher struct {
	store  PushStore
	sender PushSender
	logger *slog.Logger
}

// NewPusher builds the push consumer's handler.
func NewPusher(store PushStore, sender PushSender, logger *slog.Logger) *Pusher {
	return &Pusher{store: store, sender: sender, logger: logger.With("component", "pusher")}
}

// errPushLater makes JetStream deliver the event again after the consumer's back-off.
var errPushLater = errors.New("some devices could not be reached; pushing again later")

// Handle pushes an event's notices. The recipients are exactly those of the notices
// (domain.NoticesFromEvent), so the secrecy promise holds here as it does for the live stream:
// nothing a claim causes is ever addressed to the list's owner.
//
// Each device is pushed each notice at most once: a push is recorded per (notice, device)
// when the push service accepts it, and a redelivered event skips the devices already done.
// (A crash between the push service's answer and the record pushes once more; the push's
// Topic and the notification's tag make the device show one notification, not two.)
func (p *Pusher) Handle(ctx context.Context, env events.Envelope) error {
	notices, err := domain.NoticesFromEvent(env)
	if err != nil {
		return poisonOrRetry(err)
	}
	retry := false
	for _, n := range notices {
		push, ok := domain.PushOf(n)
		if !ok {
			continue
		}
		subs, err := p.store.OfUser(ctx, n.UserID)
		if err != nil {
			return err
		}
		for _, sub := range subs {
			done, err := p.store.Delivered(ctx, n.EventID, sub.ID)
			if err != nil {
				return err
			}
			if done {
				continue
			}
			res := p.sender.Send(ctx, sub, push)
			switch res.Outcome {
			case PushSent:
				if err := p.store.MarkDelivered(ctx, n.EventID, sub.ID); err != nil {
					return err
				}
			case PushGone:
				p.logger.Info("push subscription gone; removed", "subscription", sub.ID, "err", res.Err)
				if err := p.store.Drop(ctx, sub.ID); err != nil {
					return err
				}
			case PushRejected:
				// The endpoint stays out of the log: it is the device's capability.
				p.logger.Warn("push refused; not retried", "subscription", sub.ID, "event", n.EventID, "err", res.Err)
			case PushRetry:
				p.logger.Warn("push failed; will retry", "subscription", sub.ID, "event", n.EventID, "err", res.Err)
				retry = true
			}
		}
	}
	if retry {
		return errPushLater
	}
	return nil
}
