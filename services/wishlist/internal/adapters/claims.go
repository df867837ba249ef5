package adapters

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/pkg/caller"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

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
func (r *Repository) Claim(ctx context.Context, token, itemID string, claimer caller.Caller, quantity int, purchased bool) (domain.ClaimResult, error) {
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
		res, err = domain.Claim(item.Quantity, item.Claimed, mine.Quantity, quantity, purchased)
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
		return notifyViewers(ctx, tx, l.ID, claimer.UID, events.TypeItemClaimed)
	})
	if err != nil {
		return domain.ClaimResult{}, fmt.Errorf("claiming item %s: %w", itemID, err)
	}
	return res, nil
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
	if err := domain.CheckClaimer(l.RecipientUID, uid); err != nil {
		return l, lockedItem{}, err
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
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
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
	if err != nil {
		return fmt.Errorf("releasing the claim on item %s: %w", itemID, err)
	}
	return nil
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
	rows, err := r.pool.Query(ctx, `SELECT c.quantity, c.purchased, COALESCE(via.name, c.list_name),
		CASE WHEN l.recipient_kind = 'self' THEN l.owner_name ELSE l.recipient_name END,
		c.via_token, via.share_token, c.list_id::text, `+itemColumns+`
		FROM claims c JOIN items ON items.id = c.item_id JOIN lists l ON l.id = items.list_id
		LEFT JOIN lists via ON via.id = c.list_id
		WHERE c.user_id = $1 AND c.reveal_at > now() ORDER BY l.owner_name, c.list_id, c.created_at`, userID)
	if err != nil {
		return nil, fmt.Errorf("read claims: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (ClaimView, error) {
		var v ClaimView
		var claimedOn string
		var viaToken, current *string
		it := &v.Item
		err := row.Scan(append([]any{&v.Quantity, &v.Purchased, &v.List.Name, &v.List.OwnerName, &viaToken, &current, &claimedOn},
			itemTargets(it)...)...)
		if err != nil {
			return v, err
		}
		v.List.Token = domain.ClaimLink(viaToken, current)
		it.CreatedAt = it.CreatedAt.UTC()
		// The list the claim was made on: the item's own list may be one the claimer was never shown.
		it.ListID = claimedOn
		normalizeFeatures(it)
		return v, nil
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
		v.Item.ImageURL = photos.SignPtr(domain.ClaimPhoto(v.Item.ImageURL, v.List.Token))
	}
	return json.Marshal(list)
}

// seasonClaim is a claim of this season as its claimer knows it: on the list it was made through.
type seasonClaim struct {
	ItemID, ItemName                    string
	UserID, ListID, ListName, OwnerName string
	Quantity                            int
	Purchased                           bool
	RevealAt                            time.Time
}

// seasonClaims reads this season's claims on the items where matches (i: items, l: their
// lists; revealed claims are history: nobody is holding them any more), newest first.
func seasonClaims(ctx context.Context, tx pgx.Tx, where string, args ...any) ([]seasonClaim, error) {
	rows, err := tx.Query(ctx, `SELECT i.id::text, i.name, c.user_id, c.list_id::text, COALESCE(via.name, c.list_name), l.owner_name,
			c.quantity, c.purchased, c.reveal_at
		FROM claims c JOIN items i ON i.id = c.item_id JOIN lists l ON l.id = i.list_id LEFT JOIN lists via ON via.id = c.list_id
		WHERE c.reveal_at > now() AND `+where+` ORDER BY c.created_at DESC, c.user_id DESC`, args...)
	if err != nil {
		return nil, fmt.Errorf("read claims: %w", err)
	}
	claims, err := pgx.CollectRows(rows, pgx.RowToStructByPos[seasonClaim])
	if err != nil {
		return nil, fmt.Errorf("read claims: %w", err)
	}
	return claims, nil
}

// claimEnded tells a claimer on their own stream that their claim ended, and why.
func claimEnded(ctx context.Context, tx pgx.Tx, c seasonClaim, reason string) error {
	return enqueue(ctx, tx, events.TypeItemUnclaimed, c.UserID, events.ClaimData{ClaimerID: c.UserID, ItemID: c.ItemID, ItemName: c.ItemName,
		ListID: c.ListID, ListName: c.ListName, OwnerName: c.OwnerName, Quantity: c.Quantity, Purchased: c.Purchased, Reason: reason})
}

// dropExcessClaims releases the newest claims until what is claimed fits the new quantity.
// Called after the item's row was updated in the same transaction.
func dropExcessClaims(ctx context.Context, tx pgx.Tx, item domain.Item) error {
	claims, err := seasonClaims(ctx, tx, "i.id = $1", item.ID)
	if err != nil {
		return err
	}
	held := make([]int, len(claims))
	for i, c := range claims {
		held[i] = c.Quantity
	}
	for _, i := range domain.ClaimsToDrop(item.Quantity, held) {
		c := claims[i]
		if _, err := tx.Exec(ctx, "DELETE FROM claims WHERE item_id = $1 AND user_id = $2 AND reveal_at = $3", item.ID, c.UserID, c.RevealAt); err != nil {
			return fmt.Errorf("release claim: %w", err)
		}
		if err := claimEnded(ctx, tx, c, events.ClaimQuantityLowered); err != nil {
			return err
		}
	}
	return nil
}

// claimsEnded tells each claimer of this season of the items that their claim ended because
// the owner removed the item. Call it before deleting the items (their claims go with them).
func claimsEnded(ctx context.Context, tx pgx.Tx, where string, args ...any) error {
	claims, err := seasonClaims(ctx, tx, where, args...)
	if err != nil {
		return err
	}
	for _, c := range claims {
		if err := claimEnded(ctx, tx, c, events.ClaimRemoved); err != nil {
			return err
		}
	}
	return nil
}
