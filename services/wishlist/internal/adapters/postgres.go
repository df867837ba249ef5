// Package adapters connects the wishlist to PostgreSQL and to the media service.
package adapters

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/outbox"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations are the wishlist's versioned schema changes.
func Migrations() fs.FS {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		panic(err) // the embed pattern above guarantees the folder
	}
	return sub
}

// Repository stores items; every method is scoped to one user.
type Repository struct {
	pool *pgxpool.Pool
}

// NewRepository wraps a pool.
func NewRepository(pool *pgxpool.Pool) *Repository { return &Repository{pool: pool} }

const itemColumns = `id, user_id, name, description, price, image_url, category, features,
	search_query, shopping_url, ai_generated, sent_to_santa, created_at`

// ItemEvent is the data of item.created and item.deleted: the item and the user's new
// wishlist count, computed in the same transaction so live badges never drift.
type ItemEvent struct {
	ID            string  `json:"id"`
	Name          string  `json:"name"`
	ImageURL      *string `json:"imageUrl"`
	Category      *string `json:"category"`
	WishlistCount int     `json:"wishlistCount"`
}

// SantaEvent is the data of santa.sent.
type SantaEvent struct {
	ID       string  `json:"id"`
	Name     string  `json:"name"`
	ImageURL *string `json:"imageUrl"`
}

// inUserTx runs fn in a transaction holding the user's lock, so one user's writes are
// serialised: counts in events are exact and the item cap cannot be raced past.
func (r *Repository) inUserTx(ctx context.Context, userID string, fn func(pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 7))", userID); err != nil {
			return fmt.Errorf("lock user: %w", err)
		}
		return fn(tx)
	})
}

func countItems(ctx context.Context, tx pgx.Tx, userID string) (int, error) {
	var n int
	err := tx.QueryRow(ctx, "SELECT count(*) FROM items WHERE user_id = $1", userID).Scan(&n)
	return n, err
}

// Create saves an item and its item.created event in one transaction.
func (r *Repository) Create(ctx context.Context, item domain.Item) (domain.Item, error) {
	err := r.inUserTx(ctx, item.UserID, func(tx pgx.Tx) error {
		n, err := countItems(ctx, tx, item.UserID)
		if err != nil {
			return fmt.Errorf("count items: %w", err)
		}
		if n >= domain.MaxItemsPerUser {
			return domain.ErrWishlistFull
		}
		if err := insertItem(ctx, tx, &item); err != nil {
			return err
		}
		return enqueueItemEvent(ctx, tx, events.TypeItemCreated, item, n+1)
	})
	return item, err
}

func insertItem(ctx context.Context, tx pgx.Tx, item *domain.Item) error {
	features, err := json.Marshal(item.Features)
	if err != nil {
		return err
	}
	row := tx.QueryRow(ctx, `INSERT INTO items (id, user_id, name, description, price, image_url, category,
		features, search_query, shopping_url, ai_generated, sent_to_santa)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) RETURNING created_at`,
		item.ID, item.UserID, item.Name, item.Description, item.Price, item.ImageURL, item.Category,
		features, item.SearchQuery, item.ShoppingURL, item.AIGenerated, item.SentToSanta)
	if err := row.Scan(&item.CreatedAt); err != nil {
		return fmt.Errorf("insert item: %w", err)
	}
	return nil
}

func enqueueItemEvent(ctx context.Context, tx pgx.Tx, eventType string, item domain.Item, count int) error {
	env, err := events.NewEnvelope(eventType, item.UserID, ItemEvent{
		ID: item.ID, Name: item.Name, ImageURL: item.ImageURL, Category: item.Category, WishlistCount: count,
	})
	if err != nil {
		return err
	}
	return outbox.Enqueue(ctx, tx, env)
}

func scanItem(row pgx.CollectableRow) (domain.Item, error) {
	var it domain.Item
	var features []byte
	err := row.Scan(&it.ID, &it.UserID, &it.Name, &it.Description, &it.Price, &it.ImageURL, &it.Category,
		&features, &it.SearchQuery, &it.ShoppingURL, &it.AIGenerated, &it.SentToSanta, &it.CreatedAt)
	if err != nil {
		return it, err
	}
	it.Features = []string{}
	if len(features) > 0 {
		if err := json.Unmarshal(features, &it.Features); err != nil {
			return it, fmt.Errorf("decode features of %s: %w", it.ID, err)
		}
	}
	return it, nil
}

// Delete removes the user's item and emits item.deleted in the same transaction.
func (r *Repository) Delete(ctx context.Context, userID, id string) error {
	return r.inUserTx(ctx, userID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, "DELETE FROM items WHERE id = $1 AND user_id = $2 RETURNING "+itemColumns, id, userID)
		if err != nil {
			return fmt.Errorf("delete item %s: %w", id, err)
		}
		item, err := pgx.CollectExactlyOneRow(rows, scanItem)
		if errors.Is(err, pgx.ErrNoRows) {
			return domain.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("delete item %s: %w", id, err)
		}
		n, err := countItems(ctx, tx, userID)
		if err != nil {
			return fmt.Errorf("count items: %w", err)
		}
		return enqueueItemEvent(ctx, tx, events.TypeItemDeleted, item, n)
	})
}

// SendToSanta marks an item as sent and emits santa.sent; with no existing item (id empty, or
// no item of that name yet) it first saves the draft as a new item, emitting item.created too.
func (r *Repository) SendToSanta(ctx context.Context, userID, existingID string, draft domain.Item) (domain.Item, error) {
	var result domain.Item
	err := r.inUserTx(ctx, userID, func(tx pgx.Tx) error {
		var rows pgx.Rows
		var err error
		if existingID != "" {
			rows, err = tx.Query(ctx, "SELECT "+itemColumns+" FROM items WHERE id = $1 AND user_id = $2 FOR UPDATE", existingID, userID)
		} else {
			// "Saves it if it is not there yet": the gift options screen knows no id, so the
			// same gift is recognised by its name.
			rows, err = tx.Query(ctx, "SELECT "+itemColumns+` FROM items WHERE user_id = $1 AND lower(name) = lower($2)
				ORDER BY created_at DESC LIMIT 1 FOR UPDATE`, userID, draft.Name)
		}
		if err != nil {
			return fmt.Errorf("find item: %w", err)
		}
		item, err := pgx.CollectExactlyOneRow(rows, scanItem)
		switch {
		case errors.Is(err, pgx.ErrNoRows) && existingID != "":
			return domain.ErrNotFound
		case errors.Is(err, pgx.ErrNoRows):
			n, err := countItems(ctx, tx, userID)
			if err != nil {
				return fmt.Errorf("count items: %w", err)
			}
			if n >= domain.MaxItemsPerUser {
				return domain.ErrWishlistFull
			}
			item = draft
			item.SentToSanta = true
			if err := insertItem(ctx, tx, &item); err != nil {
				return err
			}
			if err := enqueueItemEvent(ctx, tx, events.TypeItemCreated, item, n+1); err != nil {
				return err
			}
		case err != nil:
			return fmt.Errorf("find item: %w", err)
		default:
			if _, err := tx.Exec(ctx, "UPDATE items SET sent_to_santa = true WHERE id = $1", item.ID); err != nil {
				return fmt.Errorf("mark sent: %w", err)
			}
			item.SentToSanta = true
		}
		env, err := events.NewEnvelope(events.TypeSantaSent, userID, SantaEvent{ID: item.ID, Name: item.Name, ImageURL: item.ImageURL})
		if err != nil {
			return err
		}
		result = item
		return outbox.Enqueue(ctx, tx, env)
	})
	return result, err
}

// Ping checks the database answers (readiness).
func (r *Repository) Ping(ctx context.Context) error { return r.pool.Ping(ctx) }
