package adapters

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// Subscriptions stores the devices' Web Push subscriptions and which pushes they were sent.
type Subscriptions struct{ pool *pgxpool.Pool }

// NewSubscriptions wraps a pool.
func NewSubscriptions(pool *pgxpool.Pool) *Subscriptions { return &Subscriptions{pool: pool} }

// Save stores a device's subscription for the user. The same endpoint saved again (the app
// subscribes at every start) keeps its id; saved by another user (the device changed hands
// without signing out) it becomes that user's, and what it was sent is forgotten with it.
func (s *Subscriptions) Save(ctx context.Context, sub domain.Subscription) (domain.Subscription, error) {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var id, owner string
		err := tx.QueryRow(ctx, "SELECT id, user_id FROM push_subscriptions WHERE endpoint = $1 FOR UPDATE", sub.Endpoint).Scan(&id, &owner)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			sub.ID = uuid.NewString()
			_, err = tx.Exec(ctx, `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, language) VALUES ($1, $2, $3, $4, $5, $6)
				ON CONFLICT (endpoint) DO NOTHING`, sub.ID, sub.UserID, sub.Endpoint, sub.P256dh, sub.Auth, sub.Language)
			return err
		case err != nil:
			return err
		case owner == sub.UserID:
			sub.ID = id
			_, err = tx.Exec(ctx, "UPDATE push_subscriptions SET p256dh = $2, auth = $3, language = $4 WHERE id = $1", id, sub.P256dh, sub.Auth, sub.Language)
			return err
		default:
			if _, err := tx.Exec(ctx, "DELETE FROM push_subscriptions WHERE id = $1", id); err != nil {
				return err
			}
			sub.ID = uuid.NewString()
			_, err = tx.Exec(ctx, "INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, language) VALUES ($1, $2, $3, $4, $5, $6)",
				sub.ID, sub.UserID, sub.Endpoint, sub.P256dh, sub.Auth, sub.Language)
			return err
		}
	})
	if err != nil {
		return sub, fmt.Errorf("save subscription: %w", err)
	}
	return sub, nil
}

// Remove deletes the user's subscription of an endpoint; false when the user has none there
// (another user's endpoint is not theirs to remove).
func (s *Subscriptions) Remove(ctx context.Context, userID, endpoint string) (bool, error) {
	tag, err := s.pool.Exec(ctx, "DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2", userID, endpoint)
	if err != nil {
		return false, fmt.Errorf("remove subscription: %w", err)
	}
	return tag.RowsAffected() > 0, nil
}

// Drop deletes a subscription the push service says is gone (404/410).
func (s *Subscriptions) Drop(ctx context.Context, id string) error {
	_, err := s.pool.Exec(ctx, "DELETE FROM push_subscriptions WHERE id = $1", id)
	return err
}

// OfUser lists a user's subscriptions.
func (s *Subscriptions) OfUser(ctx context.Context, userID string) ([]domain.Subscription, error) {
	rows, err := s.pool.Query(ctx, "SELECT id, user_id, endpoint, p256dh, auth, language FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at, id", userID)
	if err != nil {
		return nil, fmt.Errorf("read subscriptions: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (domain.Subscription, error) {
		var sub domain.Subscription
		err := r.Scan(&sub.ID, &sub.UserID, &sub.Endpoint, &sub.P256dh, &sub.Auth, &sub.Language)
		return sub, err
	})
}

// staleClaim is how long a claimed push that was never marked sent nor released (its replica
// died mid-push) keeps others from sending it.
const staleClaim = 5 * time.Minute

// Claim reserves the push of a notice to a device; false when it was sent, or is being sent,
// already.
func (s *Subscriptions) Claim(ctx context.Context, eventID, subID string) (bool, error) {
	tag, err := s.pool.Exec(ctx, `INSERT INTO push_deliveries (event_id, subscription_id)
		SELECT $1, id FROM push_subscriptions WHERE id = $2
		ON CONFLICT (event_id, subscription_id) DO UPDATE SET claimed_at = now()
		WHERE push_deliveries.sent_at IS NULL AND push_deliveries.claimed_at < now() - make_interval(secs => $3)`,
		eventID, subID, staleClaim.Seconds())
	if err != nil {
		return false, fmt.Errorf("claim push: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// MarkSent records that the push went out.
func (s *Subscriptions) MarkSent(ctx context.Context, eventID, subID string) error {
	_, err := s.pool.Exec(ctx, "UPDATE push_deliveries SET sent_at = now() WHERE event_id = $1 AND subscription_id = $2", eventID, subID)
	return err
}

// Release gives up a claim whose push failed, so a later attempt sends it.
func (s *Subscriptions) Release(ctx context.Context, eventID, subID string) error {
	_, err := s.pool.Exec(ctx, "DELETE FROM push_deliveries WHERE event_id = $1 AND subscription_id = $2 AND sent_at IS NULL", eventID, subID)
	return err
}

// EraseUser deletes every subscription of a deleted account. Idempotent.
func (s *Subscriptions) EraseUser(ctx context.Context, userID string) error {
	_, err := s.pool.Exec(ctx, "DELETE FROM push_subscriptions WHERE user_id = $1", userID)
	return err
}
