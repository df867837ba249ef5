package adapters

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/pkg/outbox"
	"github.com/santa-wishlist/santa/pkg/postgres"
	"github.com/santa-wishlist/santa/pkg/reminders"
	"github.com/santa-wishlist/santa/services/family/internal/domain"
)

// EraseUser removes a deleted account from every family, as if the user had left
// each: a family they were alone in is dissolved; when they were its last admin, the member
// who joined earliest becomes admin; a Secret Santa draw that included them is cancelled (its
// pairs no longer add up), so an admin draws again. The invitations they made, and their uid
// as a family's creator or a draw's drawer, go too, and so do their outbox rows. Idempotent.
func (r *Repository) EraseUser(ctx context.Context, uid string) error {
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if err := lockUser(ctx, tx, uid); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT f.id FROM families f JOIN family_members m ON m.family_id = f.id AND m.uid = $1
			ORDER BY f.id FOR UPDATE OF f`, uid)
		if err != nil {
			return fmt.Errorf("find families: %w", err)
		}
		familyIDs, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return fmt.Errorf("find families: %w", err)
		}
		for _, id := range familyIDs {
			if err := leaveForGood(ctx, tx, id, uid); err != nil {
				return fmt.Errorf("family %s: %w", id, err)
			}
		}
		steps := []string{
			"DELETE FROM family_invites WHERE invited_by = $1",
			"DELETE FROM family_departures WHERE uid = $1",
			"UPDATE families SET created_by = '' WHERE created_by = $1",
			"UPDATE secret_santa_draws SET drawn_by = '' WHERE drawn_by = $1",
			// The user's lists as wishlist announced them (list.families); wishlist erases the lists.
			"DELETE FROM shared_lists WHERE owner_uid = $1",
		}
		return postgres.EraseUser(ctx, tx, uid, steps, reminders.EraseUser, outbox.EraseUser)
	})
	if err != nil {
		return fmt.Errorf("erasing a deleted account's families: %w", err)
	}
	return nil
}

func leaveForGood(ctx context.Context, tx pgx.Tx, familyID, uid string) error {
	s, err := standing(ctx, tx, familyID, "", uid)
	if err != nil {
		return err
	}
	e := domain.Erase(s)
	if e.Dissolve {
		if _, err := tx.Exec(ctx, "DELETE FROM families WHERE id = $1", familyID); err != nil {
			return fmt.Errorf("dissolve family: %w", err)
		}
		return nil
	}
	if e.HandOverAdmin {
		if _, err := tx.Exec(ctx, `UPDATE family_members SET role = $3 WHERE family_id = $1 AND uid = (
				SELECT uid FROM family_members WHERE family_id = $1 AND uid <> $2 ORDER BY joined_at, uid LIMIT 1)`,
			familyID, uid, domain.RoleAdmin); err != nil {
			return fmt.Errorf("hand over admin: %w", err)
		}
	}
	if _, err := tx.Exec(ctx, `DELETE FROM secret_santa_draws WHERE family_id = $1
			AND EXISTS (SELECT 1 FROM secret_santa_pairs WHERE family_id = $1 AND (giver = $2 OR receiver = $2))`, familyID, uid); err != nil {
		return fmt.Errorf("cancel draw: %w", err)
	}
	if _, err := tx.Exec(ctx, "DELETE FROM family_members WHERE family_id = $1 AND uid = $2", familyID, uid); err != nil {
		return fmt.Errorf("leave family: %w", err)
	}
	return nil
}
