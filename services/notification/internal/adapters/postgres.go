// Package adapters stores notices in PostgreSQL and fans them out over NATS.
package adapters

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations are the notification service's own schema.
func Migrations() fs.FS {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		panic(err) // guaranteed by the embed pattern
	}
	return sub
}

// Notices is the notice store.
type Notices struct{ pool *pgxpool.Pool }

// NewNotices wraps a pool.
func NewNotices(pool *pgxpool.Pool) *Notices { return &Notices{pool: pool} }

// Insert stores a notice once per event id. It reports false when the event was seen before,
// so a redelivery changes nothing and pushes nothing.
func (s *Notices) Insert(ctx context.Context, n domain.Notice) (domain.Notice, bool, error) {
	err := s.pool.QueryRow(ctx, `INSERT INTO notices (event_id, user_id, event, data, created_at)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (event_id) DO NOTHING RETURNING seq`,
		n.EventID, n.UserID, n.Event, n.Data, n.CreatedAt).Scan(&n.Seq)
	if errors.Is(err, pgx.ErrNoRows) {
		return n, false, nil
	}
	if err != nil {
		return n, false, fmt.Errorf("store notice for event %s: %w", n.EventID, err)
	}
	return n, true, nil
}

// After returns the user's notices with a seq above after, oldest first.
func (s *Notices) After(ctx context.Context, userID string, after int64, limit int) ([]domain.Notice, error) {
	return s.query(ctx, `SELECT seq, event_id, user_id, event, data, created_at FROM notices
		WHERE user_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, userID, after, limit)
}

// Latest returns the user's newest notices, newest first.
func (s *Notices) Latest(ctx context.Context, userID string, limit int) ([]domain.Notice, error) {
	return s.query(ctx, `SELECT seq, event_id, user_id, event, data, created_at FROM notices
		WHERE user_id = $1 ORDER BY seq DESC LIMIT $2`, userID, limit)
}

func (s *Notices) query(ctx context.Context, sql string, args ...any) ([]domain.Notice, error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("read notices: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (domain.Notice, error) {
		var n domain.Notice
		err := r.Scan(&n.Seq, &n.EventID, &n.UserID, &n.Event, &n.Data, &n.CreatedAt)
		return n, err
	})
}

// Position returns the user's newest seq and last known wishlist count.
func (s *Notices) Position(ctx context.Context, userID string) (seq int64, count int, err error) {
	err = s.pool.QueryRow(ctx, `SELECT
		COALESCE((SELECT max(seq) FROM notices WHERE user_id = $1), 0),
		COALESCE((SELECT (data->>'count')::int FROM notices WHERE user_id = $1 AND event = $2 ORDER BY seq DESC LIMIT 1), 0)`,
		userID, domain.EventWishlistCount).Scan(&seq, &count)
	if err != nil {
		return 0, 0, fmt.Errorf("read position: %w", err)
	}
	return seq, count, nil
}

// Ping checks the database (readiness).
func (s *Notices) Ping(ctx context.Context) error { return s.pool.Ping(ctx) }
