package adapters

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

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
	if err != nil {
		return domain.List{}, fmt.Errorf("sharing list %s: %w", listID, err)
	}
	return out, nil
}

// DeleteShare revokes the list's link.
func (r *Repository) DeleteShare(ctx context.Context, userID, listID string) error {
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
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
	if err != nil {
		return fmt.Errorf("revoking list %s's link: %w", listID, err)
	}
	return nil
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
	if domain.ViewerOf("", viewerUID) == domain.ViewerAnonymous {
		return r.visitorJSON(ctx, token, write)
	}
	l, err := findShared(ctx, r.pool, token)
	if err != nil {
		return err
	}
	viewer := domain.ViewerOf(l.OwnerID, viewerUID)
	if viewer == domain.ViewerMember {
		if _, err := r.pool.Exec(ctx, `INSERT INTO list_viewers (list_id, user_id, seen_at) VALUES ($1, $2, now())
			ON CONFLICT (list_id, user_id) DO UPDATE SET seen_at = now()`, l.ID, viewerUID); err != nil {
			return fmt.Errorf("record viewer: %w", err)
		}
	}
	prefix, err := sharedHead(viewer, l)
	if err != nil {
		return err
	}
	if viewer == domain.ViewerOwner { // the items alone: the revealed claims are on the owner's own list
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
			buf = append(buf, `{"viewer":"`+domain.ViewerAnonymous+`","list":{"id":`...)
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
