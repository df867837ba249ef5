package adapters

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/pkg/caller"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// Lists for someone else (docs/family.md). A list lives in one account, lists.user_id (its
// holder): the owner of their own list, or a manager of a list for someone else. Its items
// belong to the holder too, so the one-user scoping of items (counts, caps, edits) holds;
// suggestions belong to their suggester. Who may do what on a list is its caller's role.

// recipientOf is the SQL for the uid a list (l) is for: the owner of their own list, the
// member a list is for, or NULL for a person without an account.
const recipientOf = "(CASE l.recipient_kind WHEN 'self' THEN l.user_id WHEN 'member' THEN l.recipient_uid END)"

// wishVisible keeps to the items a list's recipient may know of: every wish but the
// suggestions, which they see only once a claim on one is revealed (the gift history).
// It is a scalar subquery, not EXISTS: PostgreSQL may turn an EXISTS under OR into a hash of
// every revealed claim in the table, where this looks up the suggestion's own claims by key.
const wishVisible = `(items.suggested_by IS NULL OR COALESCE((SELECT true FROM claims rc
	WHERE rc.item_id = items.id AND rc.reveal_at <= now() LIMIT 1), false))`

// roleOf is the SQL for the caller's ($1) role on the list l, NULL for none.
const roleOf = `CASE WHEN l.recipient_kind = 'self' AND l.user_id = $1 THEN 'owner'
	WHEN l.recipient_uid = $1 THEN 'recipient'
	WHEN EXISTS (SELECT 1 FROM list_managers m WHERE m.list_id = l.id AND m.uid = $1) THEN 'manager' END`

// managersOf is the SQL for the managers of the list l as a JSON array, first added first.
const managersOf = `(SELECT COALESCE(jsonb_agg(jsonb_build_object('uid', m.uid, 'displayName', m.display_name)
	ORDER BY m.added_at, m.uid), '[]'::jsonb) FROM list_managers m WHERE m.list_id = l.id)`

type rowQuerier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// ListAccess is the caller's role on a list and the account that holds it;
// domain.ErrListNotFound when they have none, exactly as for a list that does not exist.
func (r *Repository) ListAccess(ctx context.Context, uid, listID string) (domain.Access, error) {
	return listAccess(ctx, r.pool, uid, listID, false)
}

func listAccess(ctx context.Context, q rowQuerier, uid, listID string, lock bool) (domain.Access, error) {
	a := domain.Access{ListID: listID}
	var role *string
	sql := "SELECT l.user_id, " + roleOf + ", l.recipient_kind, l.recipient_name, COALESCE(l.recipient_uid, '') FROM lists l WHERE l.id = $2"
	if lock {
		sql += " FOR UPDATE"
	}
	err := q.QueryRow(ctx, sql, uid, listID).Scan(&a.Holder, &role, &a.Recipient.Kind, &a.Recipient.Name, &a.Recipient.UID)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && role == nil) {
		return a, domain.ErrListNotFound
	}
	if err != nil {
		return a, fmt.Errorf("find list: %w", err)
	}
	a.Role = *role
	a.Recipient = recipientAnswer(a.Recipient.Kind, a.Recipient.Name, a.Recipient.UID)
	return a, nil
}

// ItemAccess is the caller's role on an item's list, with the account the item belongs to
// (the list's holder, or the suggester of a suggestion) as Holder.
func (r *Repository) ItemAccess(ctx context.Context, uid, itemID string) (domain.Access, bool, error) {
	var listID, itemOwner string
	var suggested bool
	err := r.pool.QueryRow(ctx, "SELECT list_id::text, user_id, suggested_by IS NOT NULL FROM items WHERE id = $1", itemID).
		Scan(&listID, &itemOwner, &suggested)
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.Access{}, false, domain.ErrNotFound
	}
	if err != nil {
		return domain.Access{}, false, fmt.Errorf("find item: %w", err)
	}
	a, err := listAccess(ctx, r.pool, uid, listID, false)
	if errors.Is(err, domain.ErrListNotFound) {
		return a, false, domain.ErrNotFound
	}
	a.Holder = itemOwner
	return a, suggested, err
}

// recipientAnswer is a list's recipient as answered.
func recipientAnswer(kind, name, uid string) domain.Recipient {
	switch kind {
	case domain.RecipientPerson:
		return domain.Recipient{Kind: kind, Name: name}
	case domain.RecipientMember:
		return domain.Recipient{Kind: kind, UID: uid, DisplayName: name}
	}
	return domain.Recipient{Kind: domain.RecipientSelf}
}

// sharedFamilyMember is the name uid goes by in a family they share with other (both members
// now, in wishlist's projection), or domain.ErrNotYourFamily. The rows are locked (FOR SHARE)
// like checkMemberships', so a leave applied at the same moment waits for this write.
func sharedFamilyMember(ctx context.Context, tx pgx.Tx, other, uid string) (string, error) {
	var name string
	err := tx.QueryRow(ctx, `SELECT b.display_name FROM family_memberships a
		JOIN family_memberships b ON b.family_id = a.family_id AND b.uid = $2 AND b.member
		WHERE a.uid = $1 AND a.member ORDER BY b.display_name DESC LIMIT 1 FOR SHARE`, other, uid).Scan(&name)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", domain.ErrNotYourFamily
	}
	if err != nil {
		return "", fmt.Errorf("check family: %w", err)
	}
	if name == "" {
		name = "A family member"
	}
	return name, nil
}

func listManagers(ctx context.Context, tx pgx.Tx, listID string) ([]domain.Manager, error) {
	rows, err := tx.Query(ctx, "SELECT uid, display_name FROM list_managers WHERE list_id = $1 ORDER BY added_at, uid", listID)
	if err != nil {
		return nil, fmt.Errorf("read managers: %w", err)
	}
	ms, err := pgx.CollectRows(rows, pgx.RowToStructByPos[domain.Manager])
	if err != nil {
		return nil, fmt.Errorf("read managers: %w", err)
	}
	return ms, nil
}

// announceManagers enqueues list.managers.changed as the list stands in tx, and
// list.families for a list shared with families (their screens name its managers).
func announceManagers(ctx context.Context, tx pgx.Tx, actor, listID string) error {
	ev := events.ListManagersChangedData{ListID: listID, Managers: []string{}}
	var families int
	err := tx.QueryRow(ctx, `SELECT l.recipient_kind, l.recipient_uid, cardinality(l.family_ids),
			COALESCE((SELECT array_agg(m.uid ORDER BY m.added_at, m.uid) FROM list_managers m WHERE m.list_id = l.id), '{}')
		FROM lists l WHERE l.id = $1`, listID).Scan(&ev.RecipientKind, &ev.RecipientUID, &families, &ev.Managers)
	if err != nil {
		return fmt.Errorf("announce managers: %w", err)
	}
	if err := enqueue(ctx, tx, events.TypeListManagersChanged, actor, ev); err != nil {
		return err
	}
	if families > 0 {
		return announceFamilies(ctx, tx, listID)
	}
	return nil
}

// lockManagers locks a list whose managers the caller changes (its row, so changes take
// turns) and reads them: only a manager may, and a self list has none.
func lockManagers(ctx context.Context, tx pgx.Tx, uid, listID string) (domain.Access, []domain.Manager, error) {
	a, err := listAccess(ctx, tx, uid, listID, true)
	if err != nil {
		return a, nil, err
	}
	if a.Role == domain.RoleOwner {
		return a, nil, domain.ErrSelfListManagers
	}
	if err := domain.Keeps(a.Role); err != nil {
		return a, nil, err
	}
	managers, err := listManagers(ctx, tx, listID)
	return a, managers, err
}

// AddManager makes uid a manager of a list the caller manages; uid must share a family with
// the caller (otherwise the same 404 as a list that does not exist).
func (r *Repository) AddManager(ctx context.Context, by caller.Caller, listID, uid string) ([]domain.Manager, error) {
	var out []domain.Manager
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		a, managers, err := lockManagers(ctx, tx, by.UID, listID)
		if err != nil {
			return err
		}
		if err := domain.CanAddManager(a.Recipient, managers, uid); err != nil {
			return err
		}
		name, err := sharedFamilyMember(ctx, tx, by.UID, uid)
		if errors.Is(err, domain.ErrNotYourFamily) {
			return domain.ErrListNotFound
		}
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO list_managers (list_id, uid, display_name) VALUES ($1, $2, $3)
			ON CONFLICT (list_id, uid) DO NOTHING`, listID, uid, name)
		if err != nil {
			return fmt.Errorf("add manager: %w", err)
		}
		if tag.RowsAffected() > 0 {
			if err := announceManagers(ctx, tx, by.UID, listID); err != nil {
				return err
			}
		}
		out, err = listManagers(ctx, tx, listID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("adding a manager to list %s: %w", listID, err)
	}
	return out, nil
}

// RemoveManager removes uid from a list's managers (a manager removes another, or leaves);
// never the last one. When the holder leaves, the list and its items move to the manager
// who has kept it longest.
func (r *Repository) RemoveManager(ctx context.Context, by caller.Caller, listID, uid string) error {
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		a, managers, err := lockManagers(ctx, tx, by.UID, listID)
		if err != nil {
			return err
		}
		if err := domain.CanRemoveManager(managers, uid); err != nil {
			return err
		}
		if err := dropManager(ctx, tx, listID, uid, a.Holder); err != nil {
			return err
		}
		return announceManagers(ctx, tx, by.UID, listID)
	})
	if err != nil {
		return fmt.Errorf("removing a manager of list %s: %w", listID, err)
	}
	return nil
}

// dropManager deletes a manager's row; when they held the list, it moves with its items to the
// manager who has kept it longest (there must be one).
func dropManager(ctx context.Context, tx pgx.Tx, listID, uid, holder string) error {
	if _, err := tx.Exec(ctx, "DELETE FROM list_managers WHERE list_id = $1 AND uid = $2", listID, uid); err != nil {
		return fmt.Errorf("remove manager: %w", err)
	}
	if uid != holder {
		return nil
	}
	var next, name string
	err := tx.QueryRow(ctx, "SELECT uid, display_name FROM list_managers WHERE list_id = $1 ORDER BY added_at, uid LIMIT 1", listID).Scan(&next, &name)
	if err != nil {
		return fmt.Errorf("next holder: %w", err)
	}
	if _, err := tx.Exec(ctx, "UPDATE lists SET user_id = $2, owner_name = $3 WHERE id = $1", listID, next, name); err != nil {
		return fmt.Errorf("hand list on: %w", err)
	}
	if _, err := tx.Exec(ctx, "UPDATE items SET user_id = $2 WHERE list_id = $1 AND suggested_by IS NULL", listID, next); err != nil {
		return fmt.Errorf("hand items on: %w", err)
	}
	return nil
}

// dropFormerFamilyManagers removes, after uid left a family, every co-manager who no longer
// shares a family with the holder of a list they keep together (uid as a co-manager, or uid
// as the holder and their co-managers). Each list changed is announced.
func dropFormerFamilyManagers(ctx context.Context, tx pgx.Tx, uid string) error {
	rows, err := tx.Query(ctx, `WITH dropped AS (DELETE FROM list_managers m USING lists l
		WHERE l.id = m.list_id AND m.uid <> l.user_id AND (m.uid = $1 OR l.user_id = $1)
		  AND NOT EXISTS (SELECT 1 FROM family_memberships a JOIN family_memberships b ON a.family_id = b.family_id
		      WHERE a.uid = m.uid AND b.uid = l.user_id AND a.member AND b.member)
		RETURNING m.list_id)
		SELECT DISTINCT list_id::text FROM dropped`, uid)
	if err != nil {
		return fmt.Errorf("drop managers: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("drop managers: %w", err)
	}
	for _, id := range ids {
		if err := announceManagers(ctx, tx, uid, id); err != nil {
			return err
		}
	}
	return nil
}

// handListOver turns a list for a person into the list of the member uid, who must share a
// family with the manager handing it over and must not keep it. They stop being one of its
// viewers, so no change of its claims reaches them from then on.
func handListOver(ctx context.Context, tx pgx.Tx, byUID, listID, uid string) error {
	var kind string
	if err := tx.QueryRow(ctx, "SELECT recipient_kind FROM lists WHERE id = $1", listID).Scan(&kind); err != nil {
		return fmt.Errorf("find list: %w", err)
	}
	if err := domain.CanHandOver(domain.Recipient{Kind: kind}, uid); err != nil {
		return err
	}
	var manages bool
	if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM list_managers WHERE list_id = $1 AND uid = $2)", listID, uid).Scan(&manages); err != nil {
		return fmt.Errorf("check managers: %w", err)
	}
	if manages {
		return domain.ErrRecipientCannotManage
	}
	name, err := sharedFamilyMember(ctx, tx, byUID, uid)
	if errors.Is(err, domain.ErrNotYourFamily) {
		return domain.FieldError("recipient", domain.MsgHandOver)
	}
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "UPDATE lists SET recipient_kind = 'member', recipient_uid = $2, recipient_name = $3 WHERE id = $1",
		listID, uid, name); err != nil {
		return fmt.Errorf("hand over: %w", err)
	}
	if _, err := tx.Exec(ctx, "DELETE FROM list_viewers WHERE list_id = $1 AND user_id = $2", listID, uid); err != nil {
		return fmt.Errorf("forget viewer: %w", err)
	}
	return announceManagers(ctx, tx, byUID, listID)
}
