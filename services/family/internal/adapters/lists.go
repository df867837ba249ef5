package adapters

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/family/internal/domain"
)

// Lists shared with families are owned by wishlist; this service keeps a projection of them
// (shared_lists) from wishlist's list.families events and never reads wishlist's tables.

// SaveListFamilies keeps the newest version of a list's family sharing; an older or equal
// version (a duplicate, a late redelivery) changes nothing.
func (r *Repository) SaveListFamilies(ctx context.Context, l events.ListFamiliesData) error {
	if l.FamilyIDs == nil {
		l.FamilyIDs = []string{}
	}
	if l.ManagedBy == nil {
		l.ManagedBy = []string{}
	}
	_, err := r.pool.Exec(ctx, `INSERT INTO shared_lists (list_id, owner_uid, name, owner_name, token, family_ids, version, recipient_name, managed_by, recipient_uid)
		VALUES ($1, $2, $3, $4, $5, $6::uuid[], $7, $8, $9, $10)
		ON CONFLICT (list_id) DO UPDATE SET owner_uid = EXCLUDED.owner_uid, name = EXCLUDED.name,
			owner_name = EXCLUDED.owner_name, token = EXCLUDED.token, family_ids = EXCLUDED.family_ids, version = EXCLUDED.version,
			recipient_name = EXCLUDED.recipient_name, managed_by = EXCLUDED.managed_by, recipient_uid = EXCLUDED.recipient_uid
		WHERE shared_lists.version < EXCLUDED.version`,
		l.ListID, l.OwnerUID, l.Name, l.OwnerName, l.Token, l.FamilyIDs, l.Version, l.RecipientName, l.ManagedBy, l.RecipientUID)
	if err != nil {
		return fmt.Errorf("save shared list: %w", err)
	}
	return nil
}

// sharedListsSQL answers the lists shared with the families $1 whose owner is a member of
// that family now: someone who left takes their lists along at once, even before wishlist
// has applied the leaving and announced the list's new sharing. Ordered by owner, then name.
const sharedListsSQL = `SELECT f.id::text, s.list_id::text, s.owner_uid, s.name, s.owner_name, s.token, s.recipient_name, s.managed_by, s.recipient_uid
	FROM unnest($1::uuid[]) AS f(id)
	JOIN shared_lists s ON s.family_ids @> ARRAY[f.id] AND s.token IS NOT NULL
	JOIN family_members m ON m.family_id = f.id AND m.uid = s.owner_uid`

// SharedLists answers the lists shared with each of the families (which the caller has
// already been found a member of), by family id.
func (r *Repository) SharedLists(ctx context.Context, familyIDs []string) (map[string][]domain.SharedList, error) {
	out := map[string][]domain.SharedList{}
	if len(familyIDs) == 0 {
		return out, nil
	}
	rows, err := r.pool.Query(ctx, sharedListsSQL+" ORDER BY lower(s.owner_name), s.owner_uid, lower(s.name), s.list_id", familyIDs)
	if err != nil {
		return nil, fmt.Errorf("read shared lists: %w", err)
	}
	lists, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.SharedList, error) {
		var l domain.SharedList
		return l, row.Scan(&l.FamilyID, &l.ListID, &l.OwnerUID, &l.Name, &l.OwnerName, &l.Token, &l.RecipientName, &l.ManagedBy, &l.RecipientUID)
	})
	if err != nil {
		return nil, fmt.Errorf("read shared lists: %w", err)
	}
	for _, l := range lists {
		out[l.FamilyID] = append(out[l.FamilyID], l)
	}
	return out, nil
}
