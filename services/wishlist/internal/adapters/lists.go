package adapters

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/mediaurl"
	"github.com/santa-wishlist/santa/services/wishlist/internal/app"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

func newID() string { return uuid.NewString() }

// now is the database-independent clock for defaults made in Go (reveal dates).
var now = time.Now

// ListJSON writes one of the user's lists (listID empty: the default list), newest first.
// Before the list's reveal date the owner's projection is used: its SQL never reads claims.
func (r *Repository) ListJSON(ctx context.Context, userID, listID string, write func(json.RawMessage)) error {
	// Most of the year the list is not revealed: one round trip answers it, with the owner's
	// projection. An empty answer (an empty list, a revealed one, a missing one) takes the
	// long way below.
	which, args := "l.user_id = $1 AND l.is_default", []any{userID}
	if listID != "" {
		which, args = "l.user_id = $1 AND l.id = $2", []any{userID, listID}
	}
	n, err := r.writeSomeRows(ctx, ownerProjection, nil, nil, true, write, "SELECT "+ownerProjection.sql+
		" FROM items JOIN lists l ON l.id = items.list_id WHERE "+which+
		" AND l.reveal_at > now() ORDER BY items.created_at DESC, items.id DESC", args...)
	if err != nil || n > 0 {
		return err
	}

	var id string
	var revealed bool
	if listID == "" {
		err = r.pool.QueryRow(ctx, "SELECT id, reveal_at <= now() FROM lists WHERE user_id = $1 AND is_default", userID).Scan(&id, &revealed)
		if errors.Is(err, pgx.ErrNoRows) { // nothing saved yet: no default list either
			write(json.RawMessage("[]"))
			return nil
		}
	} else {
		err = r.pool.QueryRow(ctx, "SELECT id, reveal_at <= now() FROM lists WHERE id = $1 AND user_id = $2", listID, userID).Scan(&id, &revealed)
		if errors.Is(err, pgx.ErrNoRows) {
			return domain.ErrListNotFound
		}
	}
	if err != nil {
		return fmt.Errorf("find list: %w", err)
	}
	p := ownerProjection
	if revealed {
		p = revealedProjection
	}
	return r.writeRows(ctx, p, nil, nil, write,
		"SELECT "+p.sql+" FROM items WHERE list_id = $1 ORDER BY created_at DESC, id DESC", id)
}

// RecentJSON writes the user's newest items across lists (never with claims).
func (r *Repository) RecentJSON(ctx context.Context, userID string, limit int, write func(json.RawMessage)) error {
	return r.writeRows(ctx, ownerProjection, nil, nil, write,
		"SELECT "+ownerProjection.sql+" FROM items WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2", userID, limit)
}

const listSelect = `SELECT l.id, l.user_id, l.name, l.is_default, l.reveal_at, l.share_token, l.owner_name,
	(SELECT count(*) FROM items WHERE items.list_id = l.id)::int, l.family_ids::text[] FROM lists l `

func scanList(row pgx.CollectableRow) (domain.List, error) {
	var l domain.List
	var token *string
	err := row.Scan(&l.ID, &l.UserID, &l.Name, &l.IsDefault, &l.RevealAt, &token, &l.OwnerName, &l.ItemCount, &l.FamilyIDs)
	l.RevealAt = l.RevealAt.UTC()
	if l.FamilyIDs == nil {
		l.FamilyIDs = []string{}
	}
	if token != nil {
		l.Share = &domain.Share{Token: *token, URL: domain.ShareURL(*token)}
	}
	return l, err
}

type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

func getList(ctx context.Context, q querier, userID, id string) (domain.List, error) {
	rows, err := q.Query(ctx, listSelect+"WHERE l.id = $1 AND l.user_id = $2", id, userID)
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

// Lists answers the user's lists, the default first; a user who never saved anything gets
// their default list made now, so every user has one.
func (r *Repository) Lists(ctx context.Context, userID string) ([]domain.List, error) {
	read := func(q querier) ([]domain.List, error) {
		rows, err := q.Query(ctx, listSelect+"WHERE l.user_id = $1 ORDER BY l.is_default DESC, l.created_at, l.id", userID)
		if err != nil {
			return nil, fmt.Errorf("read lists: %w", err)
		}
		return pgx.CollectRows(rows, scanList)
	}
	lists, err := read(r.pool)
	if err != nil || len(lists) > 0 {
		return lists, err
	}
	err = r.inUserTx(ctx, userID, func(tx pgx.Tx) error {
		if _, err := defaultList(ctx, tx, userID, ""); err != nil {
			return err
		}
		lists, err = read(tx)
		return err
	})
	return lists, err
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
		if n >= domain.MaxListsPerUser {
			return domain.ErrTooManyLists
		}
		if _, err := tx.Exec(ctx, `INSERT INTO lists (id, user_id, name, reveal_at, owner_name) VALUES ($1, $2, $3, $4, $5)`,
			l.ID, l.UserID, l.Name, l.RevealAt, l.OwnerName); err != nil {
			return fmt.Errorf("insert list: %w", err)
		}
		var err error
		out, err = getList(ctx, tx, l.UserID, l.ID)
		return err
	})
	return out, err
}

// UpdateList renames a list, moves its reveal date or sets the families it is shared with.
// Sharing with a family gives a list without a link one (newToken); every change of a list
// that is or was shared with a family is announced as list.families in the same transaction.
func (r *Repository) UpdateList(ctx context.Context, owner app.Caller, id string, name *string, revealAt *time.Time,
	familyIDs []string, newToken string) (domain.List, error) {
	var out domain.List
	err := r.inUserTx(ctx, owner.UID, func(tx pgx.Tx) error {
		var before []string
		err := tx.QueryRow(ctx, "SELECT family_ids::text[] FROM lists WHERE id = $1 AND user_id = $2 FOR UPDATE", id, owner.UID).Scan(&before)
		if errors.Is(err, pgx.ErrNoRows) {
			return domain.ErrListNotFound
		}
		if err != nil {
			return fmt.Errorf("find list: %w", err)
		}
		if familyIDs != nil {
			if err := checkMemberships(ctx, tx, owner.UID, familyIDs); err != nil {
				return err
			}
		}
		var token *string
		if len(familyIDs) > 0 {
			token = &newToken
		}
		if _, err := tx.Exec(ctx, `UPDATE lists SET name = COALESCE($3, name), reveal_at = COALESCE($4, reveal_at),
				family_ids = COALESCE($5::uuid[], family_ids), share_token = COALESCE(share_token, $6),
				owner_name = CASE WHEN $7 = '' THEN owner_name ELSE $7 END
			WHERE id = $1 AND user_id = $2`, id, owner.UID, name, revealAt, familyIDs, token, owner.Name); err != nil {
			return fmt.Errorf("update list: %w", err)
		}
		if len(before) > 0 || len(familyIDs) > 0 {
			if err := announceFamilies(ctx, tx, id); err != nil {
				return err
			}
		}
		out, err = getList(ctx, tx, owner.UID, id)
		return err
	})
	return out, err
}

// DeleteList deletes a list and its items, with item.deleted for each (media removes the
// photos) and list.deleted, all in one transaction.
func (r *Repository) DeleteList(ctx context.Context, userID, id string) error {
	return r.inUserTx(ctx, userID, func(tx pgx.Tx) error {
		var name string
		var isDefault bool
		err := tx.QueryRow(ctx, "SELECT name, is_default FROM lists WHERE id = $1 AND user_id = $2 FOR UPDATE", id, userID).Scan(&name, &isDefault)
		if errors.Is(err, pgx.ErrNoRows) {
			return domain.ErrListNotFound
		}
		if err != nil {
			return fmt.Errorf("find list: %w", err)
		}
		if isDefault {
			return domain.ErrDefaultList
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
		return enqueue(ctx, tx, events.TypeListDeleted, userID, ListDeletedEvent{ID: id, Name: name, ItemCount: len(deleted)})
	})
}

// SetShare gives the list a new token; the old one (and who opened it) is forgotten at once.
func (r *Repository) SetShare(ctx context.Context, userID, listID, token, ownerName string) (domain.List, error) {
	var out domain.List
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE lists SET share_token = $3, owner_name = CASE WHEN $4 = '' THEN owner_name ELSE $4 END
			WHERE id = $1 AND user_id = $2`, listID, userID, token, ownerName)
		if err != nil {
			return fmt.Errorf("share list: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return domain.ErrListNotFound
		}
		if _, err := tx.Exec(ctx, "DELETE FROM list_viewers WHERE list_id = $1", listID); err != nil {
			return fmt.Errorf("forget viewers: %w", err)
		}
		out, err = getList(ctx, tx, userID, listID)
		if err == nil && len(out.FamilyIDs) > 0 { // the families get the new link
			err = announceFamilies(ctx, tx, listID)
		}
		return err
	})
	return out, err
}

// DeleteShare revokes the list's link.
func (r *Repository) DeleteShare(ctx context.Context, userID, listID string) error {
	return pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "UPDATE lists SET share_token = NULL WHERE id = $1 AND user_id = $2", listID, userID)
		if err != nil {
			return fmt.Errorf("revoke share: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return domain.ErrListNotFound
		}
		if _, err = tx.Exec(ctx, "DELETE FROM list_viewers WHERE list_id = $1", listID); err != nil {
			return fmt.Errorf("forget viewers: %w", err)
		}
		// Family sharing goes through the link: without a link the list is no longer shared
		// with any family.
		return unshareFromFamilies(ctx, tx, listID)
	})
}

// sharedList is a list found by its token.
type sharedList struct {
	ID, OwnerID, Name, OwnerName string
	Revealed                     bool
}

// findShared finds a list by its token. A claim does not lock the list's row: a claim that
// commits just before a rotate or revoke was made with a link that worked when it was used.
func findShared(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, token string) (sharedList, error) {
	var l sharedList
	sql := "SELECT id, user_id, name, owner_name, reveal_at <= now() FROM lists WHERE share_token = $1"
	err := q.QueryRow(ctx, sql, token).Scan(&l.ID, &l.OwnerID, &l.Name, &l.OwnerName, &l.Revealed)
	if errors.Is(err, pgx.ErrNoRows) {
		return l, domain.ErrShareNotFound
	}
	if err != nil {
		return l, fmt.Errorf("find shared list: %w", err)
	}
	return l, nil
}

// SharedJSON answers GET /api/shared/{token}: most wanted first, then newest. Three
// projections: the owner's (no claim data before the reveal date), and the viewers' with
// claimed and mine.
func (r *Repository) SharedJSON(ctx context.Context, token, viewerUID string, write func(json.RawMessage)) error {
	if viewerUID == "" {
		return r.visitorJSON(ctx, token, write)
	}
	l, err := findShared(ctx, r.pool, token)
	if err != nil {
		return err
	}
	viewer := "anonymous"
	switch {
	case viewerUID == l.OwnerID:
		viewer = "owner"
	case viewerUID != "":
		viewer = "member"
		if _, err := r.pool.Exec(ctx, `INSERT INTO list_viewers (list_id, user_id, seen_at) VALUES ($1, $2, now())
			ON CONFLICT (list_id, user_id) DO UPDATE SET seen_at = now()`, l.ID, viewerUID); err != nil {
			return fmt.Errorf("record viewer: %w", err)
		}
	}
	head, err := json.Marshal(struct {
		Viewer string `json:"viewer"`
		List   struct {
			ID        string `json:"id"`
			Name      string `json:"name"`
			OwnerName string `json:"ownerName"`
		} `json:"list"`
	}{Viewer: viewer, List: struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		OwnerName string `json:"ownerName"`
	}{l.ID, l.Name, l.OwnerName}})
	if err != nil {
		return err
	}
	prefix := append(head[:len(head)-1:len(head)-1], `,"items":`...)
	if viewer == "owner" {
		p := ownerProjection
		if l.Revealed {
			p = revealedProjection
		}
		return r.writeRows(ctx, p, prefix, []byte("}"), write, "SELECT "+p.sql+" FROM items WHERE list_id = $1"+sharedOrder, l.ID)
	}
	return r.writeRows(ctx, memberProjection, prefix, []byte("}"), write,
		"SELECT "+memberProjection.sql+" FROM items WHERE items.list_id = $1"+sharedOrder, l.ID, viewerUID)
}

// sharedOrder is the shared view's order: most wanted first, then newest.
const sharedOrder = " ORDER BY items.priority DESC, items.created_at DESC, items.id DESC"

// visitorQuery answers an anonymous visitor in one round trip: the list's id, name and owner
// on every row, then the visitor's projection (NULLs for a list without items).
var visitorQuery = "SELECT l.id, l.name, l.owner_name, " + visitorProjection.sql + ` FROM lists l
	LEFT JOIN items ON items.list_id = l.id
	WHERE l.share_token = $1` + sharedOrder

// visitorJSON is the most common shared view (the link opened by someone not signed in).
func (r *Repository) visitorJSON(ctx context.Context, token string, write func(json.RawMessage)) error {
	rows, err := r.pool.Query(ctx, visitorQuery, binaryResults, token)
	if err != nil {
		return fmt.Errorf("shared list: %w", err)
	}
	defer rows.Close()
	bufp := listBuffers.Get().(*[]byte)
	buf := (*bufp)[:0]
	photos := r.photoStamp()
	n := 0
	for rows.Next() {
		v := rows.RawValues()
		if n == 0 {
			buf = append(buf, `{"viewer":"anonymous","list":{"id":`...)
			if buf, err = writeUUID(buf, v[0]); err != nil {
				return fmt.Errorf("shared list: %w", err)
			}
			buf = append(buf, `,"name":`...)
			buf = appendString(buf, v[1])
			buf = append(buf, `,"ownerName":`...)
			buf = append(appendString(buf, v[2]), `},"items":[`...)
		}
		n++
		if v[3] == nil { // the list has no items
			break
		}
		if n > 1 {
			buf = append(buf, ',')
		}
		if buf, err = visitorProjection.appendRow(buf, v[3:], photos); err != nil {
			return fmt.Errorf("shared list: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("shared list: %w", err)
	}
	if n == 0 {
		return domain.ErrShareNotFound
	}
	buf = append(buf, "]}"...)
	write(buf)
	if cap(buf) <= maxPooledBuffer {
		*bufp = buf
		listBuffers.Put(bufp)
	}
	return nil
}

// Claim sets the claimer's units on an item. The item's row lock makes concurrent claims
// take turns, so "not enough left" is decided on committed numbers: two claims for the last
// unit cannot both win.
func (r *Repository) Claim(ctx context.Context, token, itemID string, claimer app.Caller, quantity int, purchased bool) (domain.ClaimResult, error) {
	var res domain.ClaimResult
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		l, item, err := lockSharedItem(ctx, tx, token, itemID, claimer.UID)
		if err != nil {
			return err
		}
		// A separate statement after the lock: it sees what the lock's last holder committed.
		var mine int
		err = tx.QueryRow(ctx, "SELECT quantity FROM claims WHERE item_id = $1 AND user_id = $2", itemID, claimer.UID).Scan(&mine)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("read claim: %w", err)
		}
		others := item.Claimed - mine
		if quantity > item.Quantity-others {
			return domain.ErrNotEnoughLeft
		}
		if _, err := tx.Exec(ctx, `WITH saved AS (INSERT INTO claims (item_id, user_id, display_name, quantity, purchased)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT (item_id, user_id) DO UPDATE
			SET display_name = EXCLUDED.display_name, quantity = EXCLUDED.quantity, purchased = EXCLUDED.purchased)
			UPDATE items SET claimed = $6 WHERE id = $1`,
			itemID, claimer.UID, claimer.Name, quantity, purchased, others+quantity); err != nil {
			return fmt.Errorf("save claim: %w", err)
		}
		if err := enqueue(ctx, tx, events.TypeItemClaimed, claimer.UID, ClaimEvent{ClaimerID: claimer.UID, ItemID: itemID,
			ItemName: item.Name, ListID: l.ID, ListName: l.Name, OwnerName: l.OwnerName, Quantity: quantity, Purchased: purchased}); err != nil {
			return err
		}
		res = domain.ClaimResult{Claimed: others + quantity, Mine: quantity, Purchased: purchased}
		return notifyViewers(ctx, tx, l.ID, claimer.UID, events.TypeItemClaimed)
	})
	return res, err
}

type lockedItem struct {
	Name              string
	Quantity, Claimed int
}

// lockSharedItem finds the shared list and locks the item's row. The owner is refused
// before the item is looked at.
func lockSharedItem(ctx context.Context, tx pgx.Tx, token, itemID, uid string) (sharedList, lockedItem, error) {
	l, err := findShared(ctx, tx, token)
	if err != nil {
		return l, lockedItem{}, err
	}
	if l.OwnerID == uid {
		return l, lockedItem{}, domain.ErrOwnList
	}
	var item lockedItem
	err = tx.QueryRow(ctx, "SELECT name, quantity, claimed FROM items WHERE id = $1 AND list_id = $2 FOR UPDATE", itemID, l.ID).
		Scan(&item.Name, &item.Quantity, &item.Claimed)
	if errors.Is(err, pgx.ErrNoRows) {
		return l, item, domain.ErrNotFound
	}
	if err != nil {
		return l, item, fmt.Errorf("lock item: %w", err)
	}
	return l, item, nil
}

// Release drops the claimer's claim (nothing to drop is fine: releasing is idempotent).
func (r *Repository) Release(ctx context.Context, token, itemID, uid string) error {
	return pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		l, item, err := lockSharedItem(ctx, tx, token, itemID, uid)
		if err != nil {
			return err
		}
		var q int
		var purchased bool
		err = tx.QueryRow(ctx, `WITH gone AS (DELETE FROM claims WHERE item_id = $1 AND user_id = $2 RETURNING quantity, purchased),
			counted AS (UPDATE items SET claimed = claimed - (SELECT quantity FROM gone) WHERE id = $1 AND EXISTS (SELECT 1 FROM gone))
			SELECT quantity, purchased FROM gone`, itemID, uid).Scan(&q, &purchased)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("release claim: %w", err)
		}
		if err := enqueue(ctx, tx, events.TypeItemUnclaimed, uid, ClaimEvent{ClaimerID: uid, ItemID: itemID, ItemName: item.Name,
			ListID: l.ID, ListName: l.Name, OwnerName: l.OwnerName, Quantity: q, Purchased: purchased, Reason: ReasonReleased}); err != nil {
			return err
		}
		return notifyViewers(ctx, tx, l.ID, uid, events.TypeItemUnclaimed)
	})
}

// ClaimView is one entry of the claimer's gift shopping list.
type ClaimView struct {
	Quantity  int  `json:"quantity"`
	Purchased bool `json:"purchased"`
	List      struct {
		Name      string  `json:"name"`
		OwnerName string  `json:"ownerName"`
		Token     *string `json:"token"` // null once the owner revoked the link
	} `json:"list"`
	Item domain.Item `json:"item"`
}

// ClaimsJSON answers the claimer's gift shopping list, grouped by person.
func (r *Repository) ClaimsJSON(ctx context.Context, userID string) (json.RawMessage, error) {
	rows, err := r.pool.Query(ctx, `SELECT c.quantity, c.purchased, l.name, l.owner_name, l.share_token, `+itemColumns+`
		FROM claims c JOIN items ON items.id = c.item_id JOIN lists l ON l.id = items.list_id
		WHERE c.user_id = $1 ORDER BY l.owner_name, l.id, c.created_at`, userID)
	if err != nil {
		return nil, fmt.Errorf("read claims: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (ClaimView, error) {
		var v ClaimView
		var features []byte
		it := &v.Item
		err := row.Scan(append([]any{&v.Quantity, &v.Purchased, &v.List.Name, &v.List.OwnerName, &v.List.Token},
			itemTargets(it, &features)...)...)
		if err != nil {
			return v, err
		}
		it.CreatedAt = it.CreatedAt.UTC()
		return v, decodeFeatures(it, features)
	})
	if err != nil {
		return nil, fmt.Errorf("read claims: %w", err)
	}
	if list == nil {
		list = []ClaimView{}
	}
	photos := r.photoStamp()
	for i := range list {
		v := &list[i]
		if v.List.Token == nil && v.Item.ImageURL != nil && strings.HasPrefix(*v.Item.ImageURL, mediaurl.Prefix) {
			// The owner revoked the link: the claimer keeps the claim, not a way to the photo.
			v.Item.ImageURL = nil
		}
		v.Item.ImageURL = photos.SignPtr(v.Item.ImageURL)
	}
	return json.Marshal(list)
}
