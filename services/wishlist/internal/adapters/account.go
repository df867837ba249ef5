package adapters

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/outbox"
	"github.com/santa-wishlist/santa/pkg/postgres"
	"github.com/santa-wishlist/santa/pkg/reminders"
)

// RequestDeletion records the deletion of uid's account and, in the same transaction, puts
// user.deleted in the outbox. Asking again while it is pending changes nothing and sends
// nothing. It reports whether the deletion is still pending.
func (r *Repository) RequestDeletion(ctx context.Context, uid string, now time.Time) error {
	return r.inUserTx(ctx, uid, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "INSERT INTO account_deletions (uid, requested_at) VALUES ($1, $2) ON CONFLICT (uid) DO NOTHING", uid, now)
		if err != nil {
			return fmt.Errorf("record deletion: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return nil // asked before: the event is on its way or done
		}
		return enqueue(ctx, tx, events.TypeUserDeleted, uid, events.UserDeletedData{RequestedAt: now.UTC()})
	})
}

// DeletionPending reports whether uid's account deletion was asked for and not yet confirmed
// by every service.
func (r *Repository) DeletionPending(ctx context.Context, uid string) (bool, error) {
	var completed *time.Time
	err := r.pool.QueryRow(ctx, "SELECT completed_at FROM account_deletions WHERE uid = $1", uid).Scan(&completed)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read deletion: %w", err)
	}
	return completed == nil, nil
}

// EraseUser removes everything the wishlist holds about uid: the claims they made on others'
// lists (releasing the units they held), their lists with their items, share links, the
// claims others made on them and viewer records, what it learned of their families, and their
// outbox rows. It is idempotent.
func (r *Repository) EraseUser(ctx context.Context, uid string) error {
	return r.inUserTx(ctx, uid, func(tx pgx.Tx) error {
		if err := keepListsWithoutUser(ctx, tx, uid); err != nil {
			return err
		}
		// The givers of the user's items keep their revealed gifts in "What I gave".
		if err := archiveGifts(ctx, tx, "(i.user_id = $1 OR l.user_id = $1)", uid); err != nil {
			return err
		}
		steps := []string{
			// Their pledges go; a group gift they started stays for the others, without their name.
			`DELETE FROM pledges WHERE user_id = $1`,
			`UPDATE group_gifts SET organizer_uid = '', organizer_name = '' WHERE organizer_uid = $1`,
			// Their own history of gifts given and their private budgets.
			`DELETE FROM gifts_given WHERE user_id = $1`,
			`DELETE FROM budgets WHERE user_id = $1 OR recipient_key = 'u:' || $1`,
			// The units the user held go back to the items' owners' lists (what is claimed is
			// the sum of the claims), and their names leave the gift histories.
			`DELETE FROM claims WHERE user_id = $1`,
			`DELETE FROM list_viewers WHERE user_id = $1`,
			// Claims on the user's items and viewers of their lists go with them (ON DELETE CASCADE).
			`DELETE FROM items WHERE user_id = $1 OR list_id IN (SELECT id FROM lists WHERE user_id = $1)`,
			`DELETE FROM lists WHERE user_id = $1`,
			`DELETE FROM list_managers WHERE uid = $1`,
			// The projection of the user's family memberships (family events).
			`DELETE FROM family_memberships WHERE uid = $1`,
		}
		return postgres.EraseUser(ctx, tx, uid, steps, reminders.EraseUser, outbox.EraseUser)
	})
}

// keepListsWithoutUser hands each list for someone else that uid holds to the manager who has
// kept it longest (a list nobody else keeps goes with the account), and turns each list kept
// for uid into a list for a person of that name: the other managers keep it.
func keepListsWithoutUser(ctx context.Context, tx pgx.Tx, uid string) error {
	rows, err := tx.Query(ctx, `SELECT l.id::text FROM lists l WHERE l.user_id = $1 AND l.recipient_kind <> 'self'
		AND EXISTS (SELECT 1 FROM list_managers m WHERE m.list_id = l.id AND m.uid <> $1) FOR UPDATE`, uid)
	if err != nil {
		return fmt.Errorf("find kept lists: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("find kept lists: %w", err)
	}
	for _, id := range ids {
		if err := dropManager(ctx, tx, id, uid, uid); err != nil {
			return err
		}
	}
	if _, err := tx.Exec(ctx, `UPDATE lists SET recipient_kind = 'person', recipient_uid = NULL WHERE recipient_uid = $1`, uid); err != nil {
		return fmt.Errorf("keep lists for the user: %w", err)
	}
	return nil
}

// MarkErased records service's confirmation and completes the deletion when it was the last.
// An unknown service is ignored (false); a confirmation for an unknown uid changes nothing.
func (r *Repository) MarkErased(ctx context.Context, uid, service string, at time.Time) (bool, error) {
	if !slices.Contains(events.ErasingServices, service) {
		return false, nil
	}
	col := service + "_erased_at" // from the fixed list above, never from the event as such
	cond := ""
	for _, s := range events.ErasingServices {
		if cond != "" {
			cond += " AND "
		}
		cond += s + "_erased_at IS NOT NULL"
	}
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "UPDATE account_deletions SET "+col+" = COALESCE("+col+", $2) WHERE uid = $1", uid, at); err != nil {
			return fmt.Errorf("record erasure: %w", err)
		}
		if _, err := tx.Exec(ctx, "UPDATE account_deletions SET completed_at = $2 WHERE uid = $1 AND completed_at IS NULL AND "+cond, uid, at); err != nil {
			return fmt.Errorf("complete deletion: %w", err)
		}
		return nil
	})
	return err == nil, err
}
