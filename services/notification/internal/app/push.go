package app

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// PushSender delivers one push to one device.
type PushSender interface {
	Send(ctx context.Context, sub domain.Subscription, p domain.Push) domain.PushResult
}

// PushStore is what the pusher needs of the subscriptions.
type PushStore interface {
	OfUser(ctx context.Context, userID string) ([]domain.Subscription, error)
	Claim(ctx context.Context, eventID, subID string) (bool, error)
	MarkSent(ctx context.Context, eventID, subID string) error
	Release(ctx context.Context, eventID, subID string) error
	Drop(ctx context.Context, id string) error
}

// Pusher pushes the notices that matter when the app is closed to every device of their user.
type Pusher struct {
	store  PushStore
	sender PushSender
	prefs  PreferenceReader
	logger *slog.Logger
}

// NewPusher builds the push consumer's handler; prefs says which kinds each user wants pushed.
func NewPusher(store PushStore, sender PushSender, prefs PreferenceReader, logger *slog.Logger) *Pusher {
	return &Pusher{store: store, sender: sender, prefs: prefs, logger: logger.With("component", "pusher")}
}

// errPushLater makes JetStream deliver the event again after the consumer's back-off.
var errPushLater = errors.New("some devices could not be reached; pushing again later")

// Handle pushes an event's notices. The recipients are exactly those of the notices
// (domain.NoticesFromEvent), so the secrecy promise holds here as it does for the live stream:
// nothing a claim causes is ever addressed to the list's owner.
//
// Each device is pushed each notice at most once: the push is claimed before it is sent, so a
// redelivered event, or one handled by two replicas at once, skips the devices done or in
// hand; a push that failed for now is released and the event comes back after the back-off.
// The devices are pushed a few at a time, so a large family stays well within the ack wait.
func (p *Pusher) Handle(ctx context.Context, env events.Envelope) error {
	notices, err := domain.NoticesFromEvent(env)
	if err != nil {
		return poisonOrRetry(err)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	var later atomic.Bool
	for _, n := range notices {
		_, ok := domain.PushOf(n, "en")
		kind, hasKind := domain.KindOf(n)
		if !ok || !hasKind {
			continue
		}
		// The user's choice at the time of the push (a redelivery after turning it off pushes
		// no more).
		on, err := p.prefs.Enabled(ctx, n.UserID, kind, domain.ChannelPush)
		if err != nil {
			return err
		}
		if !on {
			continue
		}
		subs, err := p.store.OfUser(ctx, n.UserID)
		if err != nil {
			return err
		}
		for _, sub := range subs {
			push, _ := domain.PushOf(n, sub.Language) // each device in its app's language
			g.Go(func() error {
				retry, err := p.pushOne(gctx, n.EventID, sub, push)
				if retry {
					later.Store(true)
				}
				return err
			})
		}
	}
	if err := g.Wait(); err != nil {
		return err
	}
	if later.Load() {
		return errPushLater
	}
	return nil
}

// pushOne pushes one notice to one device unless it was pushed there before; retry says the
// push service could not be reached for now.
func (p *Pusher) pushOne(ctx context.Context, eventID string, sub domain.Subscription, push domain.Push) (retry bool, err error) {
	mine, err := p.store.Claim(ctx, eventID, sub.ID)
	if err != nil || !mine {
		return false, err
	}
	res := p.sender.Send(ctx, sub, push)
	switch res.Outcome {
	case domain.PushSent:
		return false, p.store.MarkSent(ctx, eventID, sub.ID)
	case domain.PushGone:
		p.logger.Info("push subscription gone; removed", "subscription", sub.ID, "err", res.Err)
		return false, p.store.Drop(ctx, sub.ID)
	case domain.PushRejected:
		// Kept claimed: trying again would be refused the same. The endpoint stays out of the
		// log: it is the device's capability.
		p.logger.Warn("push refused; not retried", "subscription", sub.ID, "event", eventID, "err", res.Err)
		return false, nil
	default:
		p.logger.Warn("push failed; will retry", "subscription", sub.ID, "event", eventID, "err", res.Err)
		return true, p.store.Release(ctx, eventID, sub.ID)
	}
}
