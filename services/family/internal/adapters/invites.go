package adapters

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/services/family/internal/domain"
)

// Invites are the family's open invitations, newest first (admins only).
func (r *Repository) Invites(ctx context.Context, familyID, callerUID string) ([]domain.OpenInvite, error) {
	var out []domain.OpenInvite
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if _, err := lockAsAdmin(ctx, tx, familyID, callerUID); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT token_hash, email, invited_by_name, created_at, expires_at FROM family_invites
			WHERE family_id = $1 AND expires_at > now() ORDER BY created_at DESC, token_hash`, familyID)
		if err != nil {
			return fmt.Errorf("read invitations: %w", err)
		}
		out, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.OpenInvite, error) {
			var inv domain.OpenInvite
			var hash []byte
			err := row.Scan(&hash, &inv.Email, &inv.InvitedByName, &inv.CreatedAt, &inv.ExpiresAt)
			inv.ID = domain.InviteID(hash)
			return inv, err
		})
		if err != nil {
			return fmt.Errorf("read invitations: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing family %s's invitations: %w", familyID, err)
	}
	if out == nil {
		out = []domain.OpenInvite{}
	}
	return out, nil
}

// RevokeInvite deletes one of the family's invitations (admins only), named by its token or
// by its id; another family's invitation is not found.
func (r *Repository) RevokeInvite(ctx context.Context, familyID, callerUID, ref string) error {
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if _, err := lockAsAdmin(ctx, tx, familyID, callerUID); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, "DELETE FROM family_invites WHERE family_id = $1 AND token_hash = ANY($2::bytea[])",
			familyID, domain.InviteHashes(ref))
		if err != nil {
			return fmt.Errorf("revoke the invitation: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return domain.ErrInviteNotFound
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("revoking an invitation of family %s: %w", familyID, err)
	}
	return nil
}
