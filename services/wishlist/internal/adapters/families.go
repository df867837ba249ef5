package adapters

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// Lists shared with families. wishlist owns familyIds; it learns memberships from the family
// service's events (family_memberships is its own projection of them) and announces each
// change of a list's family sharing as list.families, which the family service projects to
// answer GET /api/families. Neither service reads the other's tables.

// announceFamilies enqueues the list's family sharing as it stands in tx, with the next version
// and, for a list for someone else, whom it is for and who keeps it.
func announceFamilies(ctx context.Context, tx pgx.Tx, listID string) error {
	var ev events.ListFamiliesData
	err := tx.QueryRow(ctx, `UPDATE lists SET families_version = families_version + 1 WHERE id = $1
		RETURNING id, user_id, name, owner_name, share_token, family_ids::text[], families_version,
			CASE WHEN recipient_kind = 'self' THEN '' ELSE recipient_name END, COALESCE(recipient_uid, ''),
			(SELECT COALESCE(array_agg(m.display_name ORDER BY m.added_at, m.uid), '{}') FROM list_managers m WHERE m.list_id = lists.id)`, listID).
		Scan(&ev.ListID, &ev.OwnerUID, &ev.Name, &ev.OwnerName, &ev.Token, &ev.FamilyIDs, &ev.Version, &ev.RecipientName, &ev.RecipientUID, &ev.ManagedBy)
	if err != nil {
		return fmt.Errorf("announce family sharing: %w", err)
	}
	if ev.FamilyIDs == nil {
		ev.FamilyIDs = []string{}
	}
	return enqueue(ctx, tx, events.TypeListFamilies, ev.OwnerUID, ev)
}

// unshareFromFamilies stops sharing the list with every family (announced if it was shared).
func unshareFromFamilies(ctx context.Context, tx pgx.Tx, listID string) error {
	tag, err := tx.Exec(ctx, "UPDATE lists SET family_ids = '{}' WHERE id = $1 AND cardinality(family_ids) > 0", listID)
	if err != nil {
		return fmt.Errorf("unshare from families: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return nil
	}
	return announceFamilies(ctx, tx, listID)
}

// checkMemberships refuses any family the owner does not belong to in the projection. The
// membership rows are locked (FOR SHARE) until the list is saved: a leave being applied at
// the same moment waits, then takes the family off this list too; or it went first, and the
// family is refused here.
func checkMemberships(ctx context.Context, tx pgx.Tx, uid string, familyIDs []string) error {
	if len(familyIDs) == 0 {
		return nil
	}
	rows, err := tx.Query(ctx, `SELECT family_id::text FROM family_memberships
		WHERE uid = $1 AND family_id = ANY($2::uuid[]) AND member FOR SHARE`, uid, familyIDs)
	if err != nil {
		return fmt.Errorf("check memberships: %w", err)
	}
	mine, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("check memberships: %w", err)
	}
	if len(mine) != len(familyIDs) {
		return domain.ErrNotYourFamily
	}
	return nil
}

// MemberJoined records a membership, unless the projection already holds a newer (or the
// same) event for it, or the family was deleted.
func (r *Repository) MemberJoined(ctx context.Context, familyID, uid, displayName string, at time.Time) error {
	_, err := r.pool.Exec(ctx, `INSERT INTO family_memberships (family_id, uid, member, as_of, display_name)
		SELECT $1, $2, true, $3, $4 WHERE NOT EXISTS (SELECT 1 FROM families_deleted WHERE family_id = $1)
		ON CONFLICT (family_id, uid) DO UPDATE SET member = true, as_of = EXCLUDED.as_of, display_name = EXCLUDED.display_name
		WHERE family_memberships.as_of < EXCLUDED.as_of`, familyID, uid, at, displayName)
	if err != nil {
		return fmt.Errorf("record membership: %w", err)
	}
	return nil
}

// MemberLeft records that uid is no longer in the family and takes the family off their
// lists; a deleted family is taken off every list. Each list changed is announced. An event
// the projection has already seen (or an older one) changes nothing, so a duplicate neither
// unshares nor announces twice.
func (r *Repository) MemberLeft(ctx context.Context, familyID, uid string, familyDeleted bool, at time.Time) error {
	return pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO family_memberships (family_id, uid, member, as_of) VALUES ($1, $2, false, $3)
			ON CONFLICT (family_id, uid) DO UPDATE SET member = false, as_of = EXCLUDED.as_of
			WHERE family_memberships.as_of < EXCLUDED.as_of`, familyID, uid, at)
		if err != nil {
			return fmt.Errorf("record leaving: %w", err)
		}
		applied := tag.RowsAffected() > 0
		which := "user_id = $2 AND family_ids @> ARRAY[$1::uuid]"
		args := []any{familyID, uid}
		if familyDeleted {
			tag, err := tx.Exec(ctx, `INSERT INTO families_deleted (family_id, deleted_at) VALUES ($1, $2)
				ON CONFLICT (family_id) DO NOTHING`, familyID, at)
			if err != nil {
				return fmt.Errorf("record deleted family: %w", err)
			}
			if tag.RowsAffected() == 0 {
				return nil // already applied
			}
			applied = true
			if _, err := tx.Exec(ctx, "UPDATE family_memberships SET member = false WHERE family_id = $1 AND member", familyID); err != nil {
				return fmt.Errorf("end memberships: %w", err)
			}
			which, args = "family_ids @> ARRAY[$1::uuid]", []any{familyID}
		}
		if !applied {
			return nil
		}
		rows, err := tx.Query(ctx, "UPDATE lists SET family_ids = array_remove(family_ids, $1::uuid) WHERE "+which+" RETURNING id::text", args...)
		if err != nil {
			return fmt.Errorf("unshare lists: %w", err)
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return fmt.Errorf("unshare lists: %w", err)
		}
		for _, id := range ids {
			if err := announceFamilies(ctx, tx, id); err != nil {
				return err
			}
		}
		// A co-manager keeps a list only while they share a family with its holder.
		return dropFormerFamilyManagers(ctx, tx, uid)
	})
}
