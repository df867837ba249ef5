// Package adapters stores notices in PostgreSQL and fans them out over NATS.
package adapters

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/santa-wishlist/santa/pkg/migrate"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations are the notification service's own schema.
func Migrations() fs.FS { return migrate.Folder(migrationFiles) }

// userLockSeed keeps this service's per-user lock keys apart from other services' (the
// wishlist service locks users too) should they share a database.
const userLockSeed = 8084

// Notices is the notice store.
type Notices struct{ pool *pgxpool.Pool }

// NewNotices wraps a pool.
func NewNotices(pool *pgxpool.Pool) *Notices { return &Notices{pool: pool} }

// EraseUser deletes every notice of a deleted account and remembers the account as erased, so
// no later event stores anything about it (see erased). It runs first of the service's
// erasures. Idempotent.
func (s *Notices) EraseUser(ctx context.Context, userID string) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := lockUser(ctx, tx, userID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO erased_users (uid_hash) VALUES (sha256(convert_to($1, 'UTF8')))
			ON CONFLICT DO NOTHING`, userID); err != nil {
			return fmt.Errorf("remember the erasure: %w", err)
		}
		if _, err := tx.Exec(ctx, "DELETE FROM notices WHERE user_id = $1", userID); err != nil {
			return fmt.Errorf("erase notices: %w", err)
		}
		return nil
	})
}

// Insert stores a notice once per event id and returns it with its seq. fresh is false when
// the event was stored before (a redelivery): nothing changes and the stored seq is returned.
// For an erased account nothing is stored and the seq is 0.
//
// Each user's notices are numbered 1, 2, 3 … on their own (a counter shared by all users
// would let the gaps between one's own numbers count everyone else's notices), and stored
// one at a time under a per-user lock held until commit: two replicas cannot take the same
// number, and a user's notices become visible in seq order, which is what lets a stream
// resume from "everything after the last seq I sent" without gaps.
func (s *Notices) Insert(ctx context.Context, n domain.Notice) (stored domain.Notice, fresh bool, err error) {
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := lockUser(ctx, tx, n.UserID); err != nil {
			return err
		}
		if gone, err := erased(ctx, tx, n.UserID); err != nil || gone {
			return err // an erased account's notice is not stored: Seq stays 0
		}
		var owner string
		err := tx.QueryRow(ctx, "SELECT seq, user_id FROM notices WHERE event_id = $1", n.EventID).Scan(&n.Seq, &owner)
		if err == nil && owner != n.UserID {
			return fmt.Errorf("%w: event id %s belongs to another user's notice", domain.ErrMalformed, n.EventID)
		}
		if err == nil {
			return nil // seen before
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if n.Event == domain.EventWishlistCount {
			known, knownAt, found, err := newestCount(ctx, tx, n.UserID)
			if err != nil {
				return err
			}
			if found {
				n = n.WithNewestCount(known, knownAt)
			}
		}
		// The user's next number: the lock above makes it theirs alone until commit.
		err = tx.QueryRow(ctx, `INSERT INTO notices (seq, event_id, user_id, event, data, occurred_at)
			VALUES ((SELECT COALESCE(max(seq), 0) + 1 FROM notices WHERE user_id = $2), $1, $2, $3, $4, $5)
			ON CONFLICT (event_id) DO NOTHING RETURNING seq`,
			n.EventID, n.UserID, n.Event, n.Data, n.OccurredAt).Scan(&n.Seq)
		if errors.Is(err, pgx.ErrNoRows) {
			// Stored meanwhile under another user (that user's lock was not ours).
			return fmt.Errorf("%w: event id %s belongs to another user's notice", domain.ErrMalformed, n.EventID)
		}
		fresh = err == nil
		return err
	})
	if err != nil {
		return n, false, fmt.Errorf("store notice for event %s: %w", n.EventID, err)
	}
	return n, fresh, nil
}

// lockUser takes the user's lock until commit: notices are numbered under it, and an erasure
// and the writes that check for one (erased) take it, so neither slips past the other.
func lockUser(ctx context.Context, tx pgx.Tx, userID string) error {
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, $2))", userID, userLockSeed); err != nil {
		return fmt.Errorf("lock user: %w", err)
	}
	return nil
}

// erased tells whether the user's account was erased here; call it holding lockUser.
func erased(ctx context.Context, tx pgx.Tx, userID string) (bool, error) {
	var gone bool
	err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM erased_users WHERE uid_hash = sha256(convert_to($1, 'UTF8')))`,
		userID).Scan(&gone)
	if err != nil {
		return false, fmt.Errorf("read erasures: %w", err)
	}
	return gone, nil
}

// newestCount is the count of the user's latest-occurred count notice.
func newestCount(ctx context.Context, tx pgx.Tx, userID string) (count int, at time.Time, found bool, err error) {
	err = tx.QueryRow(ctx, `SELECT (data->>'count')::int, occurred_at FROM notices
		WHERE user_id = $1 AND event = $2 ORDER BY occurred_at DESC, seq DESC LIMIT 1`,
		userID, domain.EventWishlistCount).Scan(&count, &at)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, time.Time{}, false, nil
	}
	if err != nil {
		return 0, time.Time{}, false, fmt.Errorf("read newest count: %w", err)
	}
	return count, at, true, nil
}

// After returns the user's notices with a seq above after, oldest first, at most limit.
func (s *Notices) After(ctx context.Context, userID string, after int64, limit int) ([]domain.Notice, error) {
	return s.query(ctx, `SELECT seq, event_id, user_id, event, data, occurred_at FROM notices
		WHERE user_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, userID, after, limit)
}

// Latest returns the user's newest notices, newest first.
func (s *Notices) Latest(ctx context.Context, userID string, limit int) ([]domain.Notice, error) {
	return s.query(ctx, `SELECT seq, event_id, user_id, event, data, occurred_at FROM notices
		WHERE user_id = $1 ORDER BY seq DESC LIMIT $2`, userID, limit)
}

func (s *Notices) query(ctx context.Context, sql string, args ...any) ([]domain.Notice, error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("read notices: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (domain.Notice, error) {
		var n domain.Notice
		err := r.Scan(&n.Seq, &n.EventID, &n.UserID, &n.Event, &n.Data, &n.OccurredAt)
		return n, err
	})
	if err != nil {
		return nil, fmt.Errorf("read notices: %w", err)
	}
	return list, nil
}

// Position returns the user's newest seq and current wishlist count (0 before any), read in
// one statement so both come from the same snapshot.
func (s *Notices) Position(ctx context.Context, userID string) (seq int64, count int, err error) {
	err = s.pool.QueryRow(ctx, `SELECT
		COALESCE((SELECT max(seq) FROM notices WHERE user_id = $1), 0),
		COALESCE((SELECT (data->>'count')::int FROM notices WHERE user_id = $1 AND event = $2
			ORDER BY occurred_at DESC, seq DESC LIMIT 1), 0)`,
		userID, domain.EventWishlistCount).Scan(&seq, &count)
	if err != nil {
		return 0, 0, fmt.Errorf("read position: %w", err)
	}
	return seq, count, nil
}

// Ping checks the database (readiness).
func (s *Notices) Ping(ctx context.Context) error { return s.pool.Ping(ctx) }

// EmailSent reports whether the email of an event already went out.
func (n *Notices) EmailSent(ctx context.Context, eventID string) (bool, error) {
	var sent bool
	err := n.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM sent_emails WHERE event_id = $1)", eventID).Scan(&sent)
	return sent, err
}

// MarkEmailSent records that the email of an event went out.
func (n *Notices) MarkEmailSent(ctx context.Context, eventID string) error {
	_, err := n.pool.Exec(ctx, "INSERT INTO sent_emails (event_id) VALUES ($1) ON CONFLICT DO NOTHING", eventID)
	return err
}
