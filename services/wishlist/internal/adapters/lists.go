package adapters

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/pkg/caller"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

func newID() string { return uuid.NewString() }

// now is the database-independent clock for defaults made in Go (reveal dates).
var now = time.Now

// ListJSON writes one of the caller's lists (listID empty: their default list), newest first.
// Its owner and the member it is for get each item with its revealed claims only
// (ownerProjection) and no suggestion they may not know of; a manager gets who is giving what
// (managerProjection), suggestions included.
func (r *Repository) ListJSON(ctx context.Context, userID, listID string, write func(json.RawMessage)) error {
	// One round trip answers the recipient's list with items; an empty answer (an empty list,
	// a missing one, a list the caller manages) takes the long way below.
	which, args := "l.user_id = $1 AND l.is_default", []any{userID}
	if listID != "" {
		which, args = "l.id = $2 AND ((l.user_id = $1 AND l.recipient_kind = 'self') OR l.recipient_uid = $1)", []any{userID, listID}
	}
	n, err := r.writeSomeRows(ctx, ownerProjection, nil, nil, true, write, "SELECT "+ownerProjection.sql+
		" FROM items JOIN lists l ON l.id = items.list_id WHERE "+which+" AND "+wishVisible+listOrder, args...)
	if err != nil || n > 0 {
		return err
	}
	if listID != "" {
		a, err := listAccess(ctx, r.pool, userID, listID, false)
		if err != nil {
			return err
		}
		if domain.SeesClaims(a.Role) {
			return r.writeRows(ctx, managerProjection, nil, nil, write,
				"SELECT "+managerProjection.sql+" FROM "+managerProjection.table+" WHERE items.list_id = $1"+listOrder, listID, userID)
		}
	}
	write(json.RawMessage("[]")) // an empty list, or nothing saved yet (no default list either)
	return nil
}

// listOrder is a list's order for its keepers: newest first.
const listOrder = " ORDER BY items.created_at DESC, items.id DESC"

// RecentJSON writes the user's newest items across lists (never with claims).
func (r *Repository) RecentJSON(ctx context.Context, userID string, limit int, write func(json.RawMessage)) error {
	return r.writeRows(ctx, itemProjection, nil, nil, write,
		"SELECT "+itemProjection.sql+" FROM items WHERE user_id = $1 AND suggested_by IS NULL ORDER BY created_at DESC, id DESC LIMIT $2", userID, limit)
}

// listQuery reads the lists where matches that the caller ($1) has a role on, each with the
// reveal date of its current season (reveal_in_force: a stored date that has passed counts as
// the same day a year later). itemCount counts the wishes its recipient may know of, whoever
// asks, so a suggestion changes no count.
func listQuery(where string) string {
	return `SELECT id, user_id, name, is_default, reveal, share_token, owner_name, item_count, family_ids,
		recipient_kind, recipient_name, recipient_uid, role, managers
	FROM (SELECT l.id, l.user_id, l.name, l.is_default, reveal_in_force(l.reveal_at) AS reveal, l.share_token, l.owner_name,
		(SELECT count(*) FROM items WHERE items.list_id = l.id AND ` + wishVisible + `)::int AS item_count,
		l.family_ids::text[] AS family_ids, l.recipient_kind, l.recipient_name, COALESCE(l.recipient_uid, '') AS recipient_uid,
		` + roleOf + ` AS role, ` + managersOf + ` AS managers, l.created_at
		FROM lists l WHERE ` + where + `) x
	WHERE role IS NOT NULL`
}

func scanList(row pgx.CollectableRow) (domain.List, error) {
	var l domain.List
	var token *string
	var kind, name, uid string
	err := row.Scan(&l.ID, &l.UserID, &l.Name, &l.IsDefault, &l.RevealAt, &token, &l.OwnerName, &l.ItemCount, &l.FamilyIDs,
		&kind, &name, &uid, &l.Role, &l.Managers)
	l.RevealAt = l.RevealAt.UTC()
	l.Recipient = recipientAnswer(kind, name, uid)
	if l.FamilyIDs == nil {
		l.FamilyIDs = []string{}
	}
	if l.Managers == nil {
		l.Managers = []domain.Manager{}
	}
	if token != nil {
		l.Share = &domain.Share{Token: *token, URL: domain.ShareURL(*token)}
	}
	return l, err
}

type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// getList reads a list as callerUID sees it; domain.ErrListNotFound when they have no role on it.
func getList(ctx context.Context, q querier, callerUID, id string) (domain.List, error) {
	rows, err := q.Query(ctx, listQuery("l.id = $2"), callerUID, id)
	if err != nil {
		return domain.List{}, fmt.Errorf("read list: %w", err)
	}
	l, err := pgx.CollectExactlyOneRow(rows, scanList)
	if errors.Is(err, pgx.ErrNoRows) {
		return l, domain.ErrListNotFound
	}
	if err != nil {
		return l, fmt.Errorf("read list: %w", err)
	}
	return l, nil
}

// Lists answers the user's lists: their own (the default first), then the lists they keep
// for someone else and the lists kept for them. A user who never saved anything gets their
// default list made now, so every user has one.
func (r *Repository) Lists(ctx context.Context, userID string) ([]domain.List, error) {
	read := func(q querier) ([]domain.List, error) {
		rows, err := q.Query(ctx, listQuery(`l.user_id = $1 OR l.recipient_uid = $1
			OR l.id IN (SELECT list_id FROM list_managers WHERE uid = $1)`)+
			" ORDER BY is_default DESC, role = 'manager', created_at, id", userID)
		if err != nil {
			return nil, fmt.Errorf("read lists: %w", err)
		}
		lists, err := pgx.CollectRows(rows, scanList)
		if err != nil {
			return nil, fmt.Errorf("read lists: %w", err)
		}
		return lists, nil
	}
	lists, err := read(r.pool)
	if err != nil || (len(lists) > 0 && lists[0].IsDefault) {
		return lists, err
	}
	err = r.inUserTx(ctx, userID, func(tx pgx.Tx) error {
		if _, err := defaultList(ctx, tx, userID, ""); err != nil {
			return err
		}
		lists, err = read(tx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reading the user's lists: %w", err)
	}
	return lists, nil
}

// CreateList saves a new list (at most MaxListsPerUser, the default one counted).
func (r *Repository) CreateList(ctx context.Context, l domain.List) (domain.List, error) {
	var out domain.List
	err := r.inUserTx(ctx, l.UserID, func(tx pgx.Tx) error {
		if _, err := defaultList(ctx, tx, l.UserID, l.OwnerName); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM lists WHERE user_id = $1", l.UserID).Scan(&n); err != nil {
			return fmt.Errorf("count lists: %w", err)
		}
		if err := domain.RoomForList(n); err != nil {
			return err
		}
		var recipientUID *string
		if l.Recipient.Kind == domain.RecipientMember {
			name, err := sharedFamilyMember(ctx, tx, l.UserID, l.Recipient.UID)
			if errors.Is(err, domain.ErrNotYourFamily) {
				return domain.FieldError("recipient", domain.MsgRecipientUID)
			}
			if err != nil {
				return err
			}
			l.Recipient.Name, recipientUID = name, &l.Recipient.UID
			if l.Name == "" {
				l.Name = domain.DefaultListNameFor(name)
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO lists (id, user_id, name, reveal_at, owner_name, recipient_kind, recipient_name, recipient_uid)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			l.ID, l.UserID, l.Name, l.RevealAt, l.OwnerName, l.Recipient.Kind, l.Recipient.Name, recipientUID); err != nil {
			return fmt.Errorf("insert list: %w", err)
		}
		if l.Recipient.Kind != domain.RecipientSelf { // its creator keeps it
			if _, err := tx.Exec(ctx, "INSERT INTO list_managers (list_id, uid, display_name) VALUES ($1, $2, $3)",
				l.ID, l.UserID, l.OwnerName); err != nil {
				return fmt.Errorf("insert manager: %w", err)
			}
			if err := announceManagers(ctx, tx, l.UserID, l.ID); err != nil {
				return err
			}
		}
		var err error
		out, err = getList(ctx, tx, l.UserID, l.ID)
		return err
	})
	if err != nil {
		return domain.List{}, fmt.Errorf("creating a list: %w", err)
	}
	return out, nil
}

// UpdateList renames a list, moves its reveal date or sets the families it is shared with.
// Sharing with a family gives a list without a link one (newToken); every change of a list
// that is or was shared with a family is announced as list.families in the same transaction.
//
// by keeps the list held by holder (its owner, or one of its managers); only the holder's own
// name is the list's owner name. handOver, a member's uid, turns a list for a person into the
// list of that person's account: the claims made before keep their own reveal dates.
func (r *Repository) UpdateList(ctx context.Context, by caller.Caller, holder, id string, name *string, revealAt *time.Time,
	familyIDs []string, newToken, handOver string) (domain.List, error) {
	var out domain.List
	err := r.inUserTx(ctx, holder, func(tx pgx.Tx) error {
		var before []string
		err := tx.QueryRow(ctx, "SELECT family_ids::text[] FROM lists WHERE id = $1 AND user_id = $2 FOR UPDATE", id, holder).Scan(&before)
		if errors.Is(err, pgx.ErrNoRows) {
			return domain.ErrListNotFound
		}
		if err != nil {
			return fmt.Errorf("find list: %w", err)
		}
		if familyIDs != nil {
			if err := checkMemberships(ctx, tx, by.UID, familyIDs); err != nil {
				return err
			}
		}
		if handOver != "" {
			if err := handListOver(ctx, tx, by.UID, id, handOver); err != nil {
				return err
			}
		}
		owner := by
		if by.UID != holder {
			owner.Name = ""
		}
		var token *string
		if len(familyIDs) > 0 {
			token = &newToken
		}
		if _, err := tx.Exec(ctx, `UPDATE lists SET name = COALESCE($3, name), reveal_at = COALESCE($4, reveal_at),
				family_ids = COALESCE($5::uuid[], family_ids), share_token = COALESCE(share_token, $6),
				owner_name = CASE WHEN $7 = '' THEN owner_name ELSE $7 END
			WHERE id = $1 AND user_id = $2`, id, holder, name, revealAt, familyIDs, token, owner.Name); err != nil {
			return fmt.Errorf("update list: %w", err)
		}
		if revealAt != nil {
			// A later date delays this season's claims on the list's items with it; an earlier
			// one applies only to claims made from now on (each keeps the date it was made under).
			if _, err := tx.Exec(ctx, `UPDATE claims SET reveal_at = $2
				WHERE item_id IN (SELECT id FROM items WHERE list_id = $1) AND reveal_at > now() AND reveal_at < $2`,
				id, *revealAt); err != nil {
				return fmt.Errorf("delay claims: %w", err)
			}
		}
		if len(before) > 0 || len(familyIDs) > 0 {
			if err := announceFamilies(ctx, tx, id); err != nil {
				return err
			}
		}
		out, err = getList(ctx, tx, by.UID, id)
		return err
	})
	if err != nil {
		return domain.List{}, fmt.Errorf("updating list %s: %w", id, err)
	}
	return out, nil
}

// DeleteList deletes a list and its items, with item.deleted for each (media removes the
// photos) and list.deleted, all in one transaction.
func (r *Repository) DeleteList(ctx context.Context, userID, id string) error {
	err := r.inUserTx(ctx, userID, func(tx pgx.Tx) error {
		var name string
		var isDefault bool
		err := tx.QueryRow(ctx, "SELECT name, is_default FROM lists WHERE id = $1 AND user_id = $2 FOR UPDATE", id, userID).Scan(&name, &isDefault)
		if errors.Is(err, pgx.ErrNoRows) {
			return domain.ErrListNotFound
		}
		if err != nil {
			return fmt.Errorf("find list: %w", err)
		}
		if err := domain.Deletable(isDefault); err != nil {
			return err
		}
		if err := claimsEnded(ctx, tx, "l.id = $1", id); err != nil {
			return err
		}
		if err := notifyViewers(ctx, tx, id, userID, events.TypeListDeleted); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, "DELETE FROM items WHERE list_id = $1 RETURNING "+itemColumns, id)
		if err != nil {
			return fmt.Errorf("delete items: %w", err)
		}
		deleted, err := pgx.CollectRows(rows, scanItem)
		if err != nil {
			return fmt.Errorf("delete items: %w", err)
		}
		left, err := countItems(ctx, tx, userID)
		if err != nil {
			return fmt.Errorf("count items: %w", err)
		}
		// One event per item, counting down as if they went one by one, so badges end exact.
		for i, item := range deleted {
			if err := enqueue(ctx, tx, events.TypeItemDeleted, userID, itemEvent(item, left+len(deleted)-1-i)); err != nil {
				return err
			}
		}
		if err := unshareFromFamilies(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM lists WHERE id = $1", id); err != nil {
			return fmt.Errorf("delete list: %w", err)
		}
		return enqueue(ctx, tx, events.TypeListDeleted, userID, events.ListDeletedData{ID: id, Name: name, ItemCount: len(deleted)})
	})
	if err != nil {
		return fmt.Errorf("deleting list %s: %w", id, err)
	}
	return nil
}
