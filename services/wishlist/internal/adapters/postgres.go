// Package adapters connects the wishlist to PostgreSQL and to the media service.
package adapters

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/mediaurl"
	"github.com/santa-wishlist/santa/pkg/migrate"
	"github.com/santa-wishlist/santa/pkg/outbox"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations are the wishlist's versioned schema changes.
func Migrations() fs.FS { return migrate.Folder(migrationFiles) }

// Repository stores lists, items and claims; every method is scoped to one user.
type Repository struct {
	pool   *pgxpool.Pool
	photos *mediaurl.Signer
}

// NewRepository wraps a pool; photos signs the photo addresses the JSON answers carry (the
// stored imageUrl stays the plain /media/ address).
func NewRepository(pool *pgxpool.Pool, photos *mediaurl.Signer) *Repository {
	return &Repository{pool: pool, photos: photos}
}

// photoStamp signs one answer's photo addresses: all with the same expiry.
func (r *Repository) photoStamp() mediaurl.Stamp { return r.photos.At(now()) }

// inUserTx runs fn in a transaction holding the user's lock, so one user's writes are
// serialised: counts in events are exact and the caps cannot be raced past.
func (r *Repository) inUserTx(ctx context.Context, userID string, fn func(pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 7))", userID); err != nil {
			return fmt.Errorf("lock user: %w", err)
		}
		return fn(tx)
	})
}

func enqueue(ctx context.Context, tx pgx.Tx, eventType, userID string, data any) error {
	env, err := events.NewEnvelope(eventType, userID, data)
	if err != nil {
		return err
	}
	return outbox.Enqueue(ctx, tx, env)
}

func countItems(ctx context.Context, tx pgx.Tx, userID string) (int, error) {
	var n int
	err := tx.QueryRow(ctx, "SELECT count(*) FROM items WHERE user_id = $1 AND suggested_by IS NULL", userID).Scan(&n)
	return n, err
}

// defaultList returns the user's default list, making it on first use. The caller holds the
// user's lock.
func defaultList(ctx context.Context, tx pgx.Tx, userID, ownerName string) (string, error) {
	var id string
	err := tx.QueryRow(ctx, "SELECT id FROM lists WHERE user_id = $1 AND is_default", userID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		id = newID()
		_, err = tx.Exec(ctx, `INSERT INTO lists (id, user_id, name, is_default, reveal_at, owner_name)
			VALUES ($1, $2, $3, true, $4, $5)`, id, userID, domain.DefaultListName, domain.DefaultRevealAt(now()), ownerName)
	}
	if err != nil {
		return "", fmt.Errorf("default list: %w", err)
	}
	return id, nil
}

// ownList checks that listID is one of the user's lists (a field of the request: 422).
func ownList(ctx context.Context, tx pgx.Tx, userID, listID string) error {
	var ok bool
	if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM lists WHERE id = $1 AND user_id = $2)", listID, userID).Scan(&ok); err != nil {
		return fmt.Errorf("find list: %w", err)
	}
	if !ok {
		return domain.FieldError("listId", domain.MsgListUnknown)
	}
	return nil
}

// Create saves an item and its item.created event in one transaction.
func (r *Repository) Create(ctx context.Context, item domain.Item, ownerName string) (domain.Item, error) {
	err := r.inUserTx(ctx, item.UserID, func(tx pgx.Tx) error {
		if err := r.placeItem(ctx, tx, &item, ownerName); err != nil {
			return err
		}
		n, err := countItems(ctx, tx, item.UserID)
		if err != nil {
			return fmt.Errorf("count items: %w", err)
		}
		if err := domain.RoomForItem(n); err != nil {
			return err
		}
		if err := insertItem(ctx, tx, &item); err != nil {
			return err
		}
		if err := enqueue(ctx, tx, events.TypeItemCreated, item.UserID, itemEvent(item, n+1)); err != nil {
			return err
		}
		return notifyViewers(ctx, tx, item.ListID, item.UserID, events.TypeItemCreated)
	})
	return item, err
}

// placeItem puts a new item in its list: the one asked for, if it is the user's, or the default.
func (r *Repository) placeItem(ctx context.Context, tx pgx.Tx, item *domain.Item, ownerName string) error {
	if item.ListID != "" {
		return ownList(ctx, tx, item.UserID, item.ListID)
	}
	id, err := defaultList(ctx, tx, item.UserID, ownerName)
	item.ListID = id
	return err
}

func itemEvent(item domain.Item, count int) events.ItemData {
	return events.ItemData{ID: item.ID, Name: item.Name, ImageURL: item.ImageURL, Category: item.Category, WishlistCount: count}
}

// Update edits one of the user's items under its row lock. Claims beyond a lowered quantity
// are released (newest first) and their claimers told; the owner's answer is the same either way.
func (r *Repository) Update(ctx context.Context, userID, id string, edit func(domain.Item) (domain.Item, error)) (domain.Item, error) {
	var result domain.Item
	err := r.inUserTx(ctx, userID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, "SELECT "+itemColumns+" FROM items WHERE id = $1 AND user_id = $2 FOR UPDATE", id, userID)
		if err != nil {
			return fmt.Errorf("find item: %w", err)
		}
		saved, err := pgx.CollectExactlyOneRow(rows, scanItem)
		if errors.Is(err, pgx.ErrNoRows) {
			return domain.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("find item: %w", err)
		}
		next, err := edit(saved)
		if err != nil {
			return err
		}
		if next.ListID != saved.ListID {
			if err := ownList(ctx, tx, userID, next.ListID); err != nil {
				return err
			}
		}
		if err := updateItem(ctx, tx, id, &next); err != nil {
			return err
		}
		if err := enqueue(ctx, tx, events.TypeItemUpdated, userID, events.ItemUpdatedData{ID: id, Name: next.Name,
			ImageURL: next.ImageURL, Category: next.Category, ListID: next.ListID, Priority: next.Priority, Quantity: next.Quantity}); err != nil {
			return err
		}
		if next.Quantity < saved.Quantity {
			if err := dropExcessClaims(ctx, tx, next); err != nil {
				return err
			}
		}
		if err := notifyViewers(ctx, tx, saved.ListID, userID, events.TypeItemUpdated); err != nil {
			return err
		}
		if next.ListID != saved.ListID {
			if err := notifyViewers(ctx, tx, next.ListID, userID, events.TypeItemUpdated); err != nil {
				return err
			}
		}
		result = next
		return nil
	})
	return result, err
}

// notifyViewers queues list.changed for the givers who follow the list: whoever opened its
// link in the last 24 hours, and its managers. Its recipient is never among them.
func notifyViewers(ctx context.Context, tx pgx.Tx, listID, actor, cause string) error {
	var viewers []string
	err := tx.QueryRow(ctx, `SELECT COALESCE(array_agg(DISTINCT g.uid ORDER BY g.uid), '{}') FROM lists l
		JOIN (SELECT v.user_id AS uid FROM list_viewers v JOIN lists s ON s.id = v.list_id AND s.share_token IS NOT NULL
		      WHERE v.list_id = $1 AND v.seen_at > now() - interval '24 hours'
		      UNION SELECT m.uid FROM list_managers m WHERE m.list_id = $1) g ON true
		WHERE l.id = $1 AND g.uid IS DISTINCT FROM `+recipientOf, listID).Scan(&viewers)
	if err != nil {
		return fmt.Errorf("read viewers: %w", err)
	}
	if len(viewers) == 0 {
		return nil
	}
	return enqueue(ctx, tx, events.TypeListChanged, actor, events.ListChangedData{ListID: listID, Viewers: viewers, Cause: cause})
}

// Delete removes the user's item and emits item.deleted in the same transaction; its
// claimers (if any) are told on their own streams.
func (r *Repository) Delete(ctx context.Context, userID, id string) error {
	return r.inUserTx(ctx, userID, func(tx pgx.Tx) error {
		if err := claimsEnded(ctx, tx, "i.id = $1 AND i.user_id = $2", id, userID); err != nil {
			return err
		}
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
		if err := enqueue(ctx, tx, events.TypeItemDeleted, userID, itemEvent(item, n)); err != nil {
			return err
		}
		return notifyViewers(ctx, tx, item.ListID, userID, events.TypeItemDeleted)
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
			rows, err = tx.Query(ctx, "SELECT "+itemColumns+` FROM items WHERE user_id = $1 AND lower(name) = lower($2) AND suggested_by IS NULL
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
			if err := domain.RoomForItem(n); err != nil {
				return err
			}
			item = draft
			item.SentToSanta = true
			if err := r.placeItem(ctx, tx, &item, ""); err != nil {
				return err
			}
			if err := insertItem(ctx, tx, &item); err != nil {
				return err
			}
			if err := enqueue(ctx, tx, events.TypeItemCreated, userID, itemEvent(item, n+1)); err != nil {
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
		result = item
		return enqueue(ctx, tx, events.TypeSantaSent, userID, events.SantaSentData{ID: item.ID, Name: item.Name, ImageURL: item.ImageURL})
	})
	return result, err
}

// Ping checks the database answers (readiness).
func (r *Repository) Ping(ctx context.Context) error { return r.pool.Ping(ctx) }
