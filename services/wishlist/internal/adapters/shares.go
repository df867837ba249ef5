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
	// RecipientUID is who the list is for (its owner, a member, or empty for a person
	// without an account); Kind and RecipientName say who that is.
	RecipientUID, Kind, RecipientName string
	// Families are the families it is shared with.
	Families []string
}

// findShared finds a list by its token. A claim does not lock the list's row: a claim that
// commits just before a rotate or revoke was made with a link that worked when it was used.
func findShared(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, token string) (sharedList, error) {
	var l sharedList
	sql := "SELECT l.id, l.user_id, l.name, l.owner_name, reveal_in_force(l.reveal_at), COALESCE(" + recipientOf + `, ''),
		l.recipient_kind, l.recipient_name, l.family_ids::text[] FROM lists l WHERE l.share_token = $1`
	err := q.QueryRow(ctx, sql, token).Scan(&l.ID, &l.OwnerID, &l.Name, &l.OwnerName, &l.RevealAt, &l.RecipientUID,
		&l.Kind, &l.RecipientName, &l.Families)
	if errors.Is(err, pgx.ErrNoRows) {
		return l, domain.ErrShareNotFound
	}
	if err != nil {
		return l, fmt.Errorf("find shared list: %w", err)
	}
	return l, nil
}

// SharedJSON answers GET /api/shared/{token}: most wanted first, then newest. Four readers:
// the list's recipient (the items alone, as an owner sees their own list: their revealed
// claims are on their own list), a signed-in giver (this season's claimed and mine, and the
// suggestions), a manager (who is giving what, too), and an anonymous visitor (the items
// alone: whoever opens the link signed out, the recipient in a private window included,
// learns nothing of claims or suggestions).
func (r *Repository) SharedJSON(ctx context.Context, token, viewerUID string, write func(json.RawMessage)) error {
	if domain.ViewerOf("", viewerUID) == domain.ViewerAnonymous {
		return r.visitorJSON(ctx, token, write)
	}
	l, err := findShared(ctx, r.pool, token)
	if err != nil {
		return err
	}
	viewer := domain.ViewerOf(l.RecipientUID, viewerUID)
	if viewer == domain.ViewerOwner { // the items alone: the revealed claims are on the owner's own list
		prefix, err := r.sharedHead(ctx, viewer, l)
		if err != nil {
			return err
		}
		return r.writeRows(ctx, itemProjection, prefix, []byte("}"), write,
			"SELECT "+itemProjection.sql+" FROM items WHERE list_id = $1 AND "+wishVisible+sharedOrder, l.ID)
	}
	if _, err := r.pool.Exec(ctx, `INSERT INTO list_viewers (list_id, user_id, seen_at) VALUES ($1, $2, now())
		ON CONFLICT (list_id, user_id) DO UPDATE SET seen_at = now()`, l.ID, viewerUID); err != nil {
		return fmt.Errorf("record viewer: %w", err)
	}
	prefix, err := r.sharedHead(ctx, viewer, l)
	if err != nil {
		return err
	}
	p := memberProjection
	if l.Kind != domain.RecipientSelf {
		var manages bool
		if err := r.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM list_managers WHERE list_id = $1 AND uid = $2)", l.ID, viewerUID).Scan(&manages); err != nil {
			return fmt.Errorf("find manager: %w", err)
		}
		if manages {
			p = managerProjection
		}
	}
	return r.writeRows(ctx, p, prefix, []byte("}"), write,
		"SELECT "+p.sql+" FROM "+p.table+" WHERE items.list_id = $1"+sharedOrder, l.ID, viewerUID)
}

// sharedHead is the shared view's opening up to its items: `{"viewer":…,"list":{…},"items":`.
// A list for someone else names its recipient and, to givers, who keeps it.
func (r *Repository) sharedHead(ctx context.Context, viewer string, l sharedList) ([]byte, error) {
	type list struct {
		ID        string            `json:"id"`
		Name      string            `json:"name"`
		OwnerName string            `json:"ownerName"`
		Recipient *domain.Recipient `json:"recipient,omitempty"`
		ManagedBy []string          `json:"managedBy,omitempty"`
	}
	head := list{ID: l.ID, Name: l.Name, OwnerName: l.OwnerName}
	if l.Kind != domain.RecipientSelf {
		recipient := recipientAnswer(l.Kind, l.RecipientName, l.RecipientUID)
		head.Recipient = &recipient
		if viewer != domain.ViewerOwner {
			err := r.pool.QueryRow(ctx, "SELECT COALESCE(array_agg(display_name ORDER BY added_at, uid), '{}') FROM list_managers WHERE list_id = $1",
				l.ID).Scan(&head.ManagedBy)
			if err != nil {
				return nil, fmt.Errorf("read managers: %w", err)
			}
		}
	}
	out, err := json.Marshal(struct {
		Viewer string `json:"viewer"`
		List   list   `json:"list"`
	}{viewer, head})
	if err != nil {
		return nil, fmt.Errorf("shared list: %w", err)
	}
	return append(out[:len(out)-1:len(out)-1], `,"items":`...), nil
}

// sharedOrder is the shared view's order: most wanted first, then newest.
const sharedOrder = " ORDER BY items.priority DESC, items.created_at DESC, items.id DESC"

// visitorQuery answers an anonymous visitor in one round trip: the list's id, name and owner
// on every row, then the items alone (NULLs for a list without items). It never reads claims.
var visitorQuery = "SELECT l.id, l.name, l.owner_name, " + itemProjection.sql + ` FROM lists l
	LEFT JOIN items ON items.list_id = l.id AND items.suggested_by IS NULL
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
