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

// ListJSON writes one of the user's lists (listID empty: the default list), newest first,
// each item with its revealed claims only (ownerProjection).
func (r *Repository) ListJSON(ctx context.Context, userID, listID string, write func(json.RawMessage)) error {
	// One round trip answers a list with items; an empty answer (an empty list, a missing
	// one) takes the long way below.
	which, args := "l.user_id = $1 AND l.is_default", []any{userID}
	if listID != "" {
		which, args = "l.user_id = $1 AND l.id = $2", []any{userID, listID}
	}
	n, err := r.writeSomeRows(ctx, ownerProjection, nil, nil, true, write, "SELECT "+ownerProjection.sql+
		" FROM items JOIN lists l ON l.id = items.list_id WHERE "+which+" ORDER BY items.created_at DESC, items.id DESC", args...)
	if err != nil || n > 0 {
		return err
	}
	var found bool
	if err := r.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM lists l WHERE "+which+")", args...).Scan(&found); err != nil {
		return fmt.Errorf("find list: %w", err)
	}
	if !found && listID != "" {
		return domain.ErrListNotFound
	}
	write(json.RawMessage("[]")) // an empty list, or nothing saved yet (no default list either)
	return nil
}

// RecentJSON writes the user's newest items across lists (never with claims).
func (r *Repository) RecentJSON(ctx context.Context, userID string, limit int, write func(json.RawMessage)) error {
	return r.writeRows(ctx, itemProjection, nil, nil, write,
		"SELECT "+itemProjection.sql+" FROM items WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2", userID, limit)
}

// listSelect reads a list with the reveal date of its current season (reveal_in_force: a
// stored date that has passed counts as the same day a year later).
const listSelect = `SELECT l.id, l.user_id, l.name, l.is_default, reveal_in_force(l.reveal_at), l.share_token, l.owner_name,
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
		return enqueue(ctx, tx, events.TypeListDeleted, userID, events.ListDeletedData{ID: id, Name: name, ItemCount: len(deleted)})
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

// sharedList is a list found by its token, with the reveal date of its current season (the
// date a claim made now takes).
type sharedList struct {
	ID, OwnerID, Name, OwnerName string
	RevealAt                     time.Time
}

// findShared finds a list by its token. A claim does not lock the list's row: a claim that
// commits just before a rotate or revoke was made with a link that worked when it was used.
func findShared(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, token string) (sharedList, error) {
	var l sharedList
	sql := "SELECT id, user_id, name, owner_name, reveal_in_force(reveal_at) FROM lists WHERE share_token = $1"
	err := q.QueryRow(ctx, sql, token).Scan(&l.ID, &l.OwnerID, &l.Name, &l.OwnerName, &l.RevealAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return l, domain.ErrShareNotFound
	}
	if err != nil {
		return l, fmt.Errorf("find shared list: %w", err)
	}
	return l, nil
}

// SharedJSON answers GET /api/shared/{token}: most wanted first, then newest. Three readers:
// the owner (the items alone; their revealed claims are on their own list), a signed-in member
// (this season's claimed and mine), and an anonymous visitor (the items alone: whoever opens
// the link signed out, the owner in a private window included, learns nothing of claims).
func (r *Repository) SharedJSON(ctx context.Context, token, viewerUID string, write func(json.RawMessage)) error {
	if viewerUID == "" {
		return r.visitorJSON(ctx, token, write)
	}
	l, err := findShared(ctx, r.pool, token)
	if err != nil {
		return err
	}
	viewer := "owner"
	if viewerUID != l.OwnerID {
		viewer = "member"
		if _, err := r.pool.Exec(ctx, `INSERT INTO list_viewers (list_id, user_id, seen_at) VALUES ($1, $2, now())
			ON CONFLICT (list_id, user_id) DO UPDATE SET seen_at = now()`, l.ID, viewerUID); err != nil {
			return fmt.Errorf("record viewer: %w", err)
		}
	}
	prefix, err := sharedHead(viewer, l)
	if err != nil {
		return err
	}
	if viewer == "owner" { // the items alone: the revealed claims are on the owner's own list
		return r.writeRows(ctx, itemProjection, prefix, []byte("}"), write,
			"SELECT "+itemProjection.sql+" FROM items WHERE list_id = $1"+sharedOrder, l.ID)
	}
	return r.writeRows(ctx, memberProjection, prefix, []byte("}"), write,
		"SELECT "+memberProjection.sql+" FROM items WHERE items.list_id = $1"+sharedOrder, l.ID, viewerUID)
}

// sharedHead is the shared view's opening up to its items: `{"viewer":…,"list":{…},"items":`.
func sharedHead(viewer string, l sharedList) ([]byte, error) {
	type list struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		OwnerName string `json:"ownerName"`
	}
	head, err := json.Marshal(struct {
		Viewer string `json:"viewer"`
		List   list   `json:"list"`
	}{viewer, list{l.ID, l.Name, l.OwnerName}})
	if err != nil {
		return nil, fmt.Errorf("shared list: %w", err)
	}
	return append(head[:len(head)-1:len(head)-1], `,"items":`...), nil
}

// sharedOrder is the shared view's order: most wanted first, then newest.
const sharedOrder = " ORDER BY items.priority DESC, items.created_at DESC, items.id DESC"

// visitorQuery answers an anonymous visitor in one round trip: the list's id, name and owner
// on every row, then the items alone (NULLs for a list without items). It never reads claims.
var visitorQuery = "SELECT l.id, l.name, l.owner_name, " + itemProjection.sql + ` FROM lists l
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
		if buf, err = itemProjection.appendRow(buf, v[3:], photos); err != nil {
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

// currentClaim is the claimer's claim of this season on an item, if any.
type currentClaim struct {
	Quantity  int
	Purchased bool
	RevealAt  time.Time
}

// Claim sets the claimer's units on an item. The item's row lock makes concurrent claims
// take turns, so "not enough left" is decided on committed numbers: two claims for the last
// unit cannot both win. A new claim takes the list's reveal date in force now, and remembers
// the list and link it was made through.
func (r *Repository) Claim(ctx context.Context, token, itemID string, claimer app.Caller, quantity int, purchased bool) (domain.ClaimResult, error) {
	var res domain.ClaimResult
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		l, item, err := lockSharedItem(ctx, tx, token, itemID, claimer.UID)
		if err != nil {
			return err
		}
		mine, held, err := claimOf(ctx, tx, itemID, claimer.UID)
		if err != nil {
			return err
		}
		others, err := domain.Claimable(item.Quantity, item.Claimed, mine.Quantity, quantity)
		if err != nil {
			return err
		}
		if held {
			_, err = tx.Exec(ctx, `UPDATE claims SET display_name = $4, quantity = $5, purchased = $6
				WHERE item_id = $1 AND user_id = $2 AND reveal_at = $3`, itemID, claimer.UID, mine.RevealAt, claimer.Name, quantity, purchased)
		} else {
			_, err = tx.Exec(ctx, `INSERT INTO claims (item_id, user_id, display_name, quantity, purchased, reveal_at, list_id, list_name, via_token)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, itemID, claimer.UID, claimer.Name, quantity, purchased, l.RevealAt, l.ID, l.Name, token)
		}
		if err != nil {
			return fmt.Errorf("save claim: %w", err)
		}
		if err := enqueue(ctx, tx, events.TypeItemClaimed, claimer.UID, events.ClaimData{ClaimerID: claimer.UID, ItemID: itemID,
			ItemName: item.Name, ListID: l.ID, ListName: l.Name, OwnerName: l.OwnerName, Quantity: quantity, Purchased: purchased}); err != nil {
			return err
		}
		res = domain.ClaimResult{Claimed: others + quantity, Mine: quantity, Purchased: purchased}
		return notifyViewers(ctx, tx, l.ID, claimer.UID, events.TypeItemClaimed)
	})
	return res, err
}

// claimOf reads the claimer's claim of this season on the item (a separate statement after
// the item's lock: it sees what the lock's last holder committed).
func claimOf(ctx context.Context, tx pgx.Tx, itemID, uid string) (currentClaim, bool, error) {
	var c currentClaim
	err := tx.QueryRow(ctx, "SELECT quantity, purchased, reveal_at FROM claims WHERE item_id = $1 AND user_id = $2 AND reveal_at > now()",
		itemID, uid).Scan(&c.Quantity, &c.Purchased, &c.RevealAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return c, false, nil
	}
	if err != nil {
		return c, false, fmt.Errorf("read claim: %w", err)
	}
	return c, true, nil
}

type lockedItem struct {
	Name              string
	Quantity, Claimed int // Claimed: this season's units, by anyone
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
	err = tx.QueryRow(ctx, "SELECT name, quantity FROM items WHERE id = $1 AND list_id = $2 FOR UPDATE", itemID, l.ID).
		Scan(&item.Name, &item.Quantity)
	if errors.Is(err, pgx.ErrNoRows) {
		return l, item, domain.ErrNotFound
	}
	if err != nil {
		return l, item, fmt.Errorf("lock item: %w", err)
	}
	err = tx.QueryRow(ctx, "SELECT COALESCE(sum(quantity), 0) FROM claims WHERE item_id = $1 AND reveal_at > now()", itemID).Scan(&item.Claimed)
	if err != nil {
		return l, item, fmt.Errorf("count claims: %w", err)
	}
	return l, item, nil
}

// Release drops the claimer's claim of this season (nothing to drop is fine: releasing is
// idempotent). A revealed claim is history and stays.
func (r *Repository) Release(ctx context.Context, token, itemID, uid string) error {
	return pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		l, item, err := lockSharedItem(ctx, tx, token, itemID, uid)
		if err != nil {
			return err
		}
		mine, held, err := claimOf(ctx, tx, itemID, uid)
		if err != nil || !held {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM claims WHERE item_id = $1 AND user_id = $2 AND reveal_at = $3", itemID, uid, mine.RevealAt); err != nil {
			return fmt.Errorf("release claim: %w", err)
		}
		if err := enqueue(ctx, tx, events.TypeItemUnclaimed, uid, events.ClaimData{ClaimerID: uid, ItemID: itemID, ItemName: item.Name,
			ListID: l.ID, ListName: l.Name, OwnerName: l.OwnerName, Quantity: mine.Quantity, Purchased: mine.Purchased,
			Reason: events.ClaimReleased}); err != nil {
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
		Token     *string `json:"token"` // null once the link the claim was made through stops working
	} `json:"list"`
	Item domain.Item `json:"item"`
}

// ClaimsJSON answers the claimer's gift shopping list of this season, grouped by person. Each
// entry names the list the claim was made through and gives its link only while that same
// link works: an item the owner moved elsewhere never hands over another list's name or link.
func (r *Repository) ClaimsJSON(ctx context.Context, userID string) (json.RawMessage, error) {
	rows, err := r.pool.Query(ctx, `SELECT c.quantity, c.purchased, COALESCE(via.name, c.list_name), l.owner_name,
		CASE WHEN via.share_token = c.via_token THEN c.via_token END, c.list_id::text, `+itemColumns+`
		FROM claims c JOIN items ON items.id = c.item_id JOIN lists l ON l.id = items.list_id
		LEFT JOIN lists via ON via.id = c.list_id
		WHERE c.user_id = $1 AND c.reveal_at > now() ORDER BY l.owner_name, c.list_id, c.created_at`, userID)
	if err != nil {
		return nil, fmt.Errorf("read claims: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (ClaimView, error) {
		var v ClaimView
		var features []byte
		var claimedOn string
		it := &v.Item
		err := row.Scan(append([]any{&v.Quantity, &v.Purchased, &v.List.Name, &v.List.OwnerName, &v.List.Token, &claimedOn},
			itemTargets(it, &features)...)...)
		if err != nil {
			return v, err
		}
		it.CreatedAt = it.CreatedAt.UTC()
		// The list the claim was made on: the item's own list may be one the claimer was never shown.
		it.ListID = claimedOn
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
			// The link no longer works: the claimer keeps the claim, not a way to the photo.
			v.Item.ImageURL = nil
		}
		v.Item.ImageURL = photos.SignPtr(v.Item.ImageURL)
	}
	return json.Marshal(list)
}
