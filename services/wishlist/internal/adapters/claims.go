package adapters

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
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
	ID, Name          string
	Price             *string
	Quantity, Claimed int // Claimed: this season's units, by anyone (a complete group gift's too)
	// Claims is what the claims alone hold (without a group gift's units).
	Claims int
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
	item := lockedItem{ID: itemID}
	err = tx.QueryRow(ctx, "SELECT name, price, quantity FROM items WHERE id = $1 AND list_id = $2 FOR UPDATE", itemID, l.ID).
		Scan(&item.Name, &item.Price, &item.Quantity)
	if errors.Is(err, pgx.ErrNoRows) {
		return l, item, domain.ErrNotFound
	}
	if err != nil {
		return l, item, fmt.Errorf("lock item: %w", err)
	}
	var groupUnits int
	err = tx.QueryRow(ctx, `SELECT COALESCE((SELECT sum(quantity) FROM claims WHERE item_id = $1 AND reveal_at > now()), 0),
		COALESCE((SELECT sum(units) FROM group_gifts WHERE item_id = $1 AND reveal_at > now() AND completed_at IS NOT NULL), 0)`,
		itemID).Scan(&item.Claims, &groupUnits)
	if err != nil {
		return l, item, fmt.Errorf("count claims: %w", err)
	}
	item.Claimed = item.Claims + groupUnits
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

// ClaimView is one entry of the claimer's gift shopping list: a claim, a pledge to a group gift,
// or both on one item.
type ClaimView struct {
	Quantity  int  `json:"quantity"` // 0 for an entry that is a pledge alone
	Purchased bool `json:"purchased"`
	List      struct {
		Name      string  `json:"name"`
		OwnerName string  `json:"ownerName"`
		Token     *string `json:"token"` // null once the link the claim was made through stops working
	} `json:"list"`
	Item      domain.Item            `json:"item"`
	Recipient domain.BudgetRecipient `json:"recipient"`
	Amount    *domain.Amount         `json:"amount"` // the price read as an amount, times the units claimed
	Pledge    *PledgeOnTheList       `json:"pledge"`

	itemID string
	money  *domain.Money // Amount, exact
}

// PledgeOnTheList is the giver's pledge as their shopping list shows it.
type PledgeOnTheList struct {
	Amount    string `json:"amount"`
	Currency  string `json:"currency"`
	GroupGift struct {
		Target   string `json:"target"`
		Pledged  string `json:"pledged"`
		Complete bool   `json:"complete"`
	} `json:"groupGift"`

	minor int64
}

// recipientKeyOf is the SQL for the budget key of whom the list l is for.
const recipientKeyOf = "(CASE l.recipient_kind WHEN 'self' THEN 'u:' || l.user_id WHEN 'member' THEN 'u:' || l.recipient_uid ELSE 'l:' || l.id::text END)"

// ClaimsJSON answers the claimer's gift shopping list of this season, grouped by person.
func (r *Repository) ClaimsJSON(ctx context.Context, userID string) (json.RawMessage, error) {
	list, err := r.shoppingList(ctx, userID)
	if err != nil {
		return nil, err
	}
	return json.Marshal(list)
}

// shoppingList reads the giver's claims and pledges of this season. Each entry names the list
// the claim was made through and gives its link only while that same link works: an item the
// owner moved elsewhere never hands over another list's name or link.
func (r *Repository) shoppingList(ctx context.Context, userID string) ([]ClaimView, error) {
	rows, err := r.pool.Query(ctx, `SELECT c.quantity, c.purchased, COALESCE(via.name, c.list_name),
		`+recipientNameOf+`, c.via_token, via.share_token, c.list_id::text, `+recipientKeyOf+`, `+itemColumns+`
		FROM claims c JOIN items ON items.id = c.item_id JOIN lists l ON l.id = items.list_id
		LEFT JOIN lists via ON via.id = c.list_id
		WHERE c.user_id = $1 AND c.reveal_at > now()
		UNION ALL
		SELECT 0, false, COALESCE(via.name, g.list_name), `+recipientNameOf+`, g.via_token, via.share_token, g.list_id::text,
			`+recipientKeyOf+`, `+itemColumns+`
		FROM pledges p JOIN group_gifts g ON g.id = p.group_gift_id JOIN items ON items.id = g.item_id JOIN lists l ON l.id = items.list_id
		LEFT JOIN lists via ON via.id = g.list_id
		WHERE p.user_id = $1 AND g.reveal_at > now()
		  AND NOT EXISTS (SELECT 1 FROM claims c WHERE c.item_id = g.item_id AND c.user_id = $1 AND c.reveal_at > now())
		ORDER BY 4, 7`, userID)
	if err != nil {
		return nil, fmt.Errorf("read claims: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (ClaimView, error) {
		var v ClaimView
		var claimedOn string
		var viaToken, current *string
		it := &v.Item
		err := row.Scan(append([]any{&v.Quantity, &v.Purchased, &v.List.Name, &v.List.OwnerName, &viaToken, &current, &claimedOn,
			&v.Recipient.Key}, itemTargets(it)...)...)
		if err != nil {
			return v, err
		}
		v.Recipient.DisplayName = v.List.OwnerName
		v.List.Token = domain.ClaimLink(viaToken, current)
		it.CreatedAt = it.CreatedAt.UTC()
		v.itemID = it.ID
		// The list the claim was made on: the item's own list may be one the claimer was never shown.
		it.ListID = claimedOn
		normalizeFeatures(it)
		if it.Price != nil && v.Quantity > 0 {
			if minor, cur, ok := domain.ReadPrice(*it.Price); ok && cur != "" {
				m := domain.Money{Minor: minor * int64(v.Quantity), Currency: cur}
				a := m.Show()
				v.money, v.Amount = &m, &a
			}
		}
		return v, nil
	})
	if err != nil {
		return nil, fmt.Errorf("read claims: %w", err)
	}
	if err := r.attachPledges(ctx, userID, list); err != nil {
		return nil, err
	}
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].Recipient.DisplayName != list[j].Recipient.DisplayName {
			return list[i].Recipient.DisplayName < list[j].Recipient.DisplayName
		}
		return list[i].Recipient.Key < list[j].Recipient.Key
	})
	if list == nil {
		list = []ClaimView{}
	}
	photos := r.photoStamp()
	for i := range list {
		v := &list[i]
		v.Item.ImageURL = photos.SignPtr(domain.ClaimPhoto(v.Item.ImageURL, v.List.Token))
	}
	return list, nil
}

// attachPledges puts the giver's pledges of this season on their shopping list's entries.
func (r *Repository) attachPledges(ctx context.Context, userID string, list []ClaimView) error {
	rows, err := r.pool.Query(ctx, `SELECT g.item_id::text, p.amount_minor, g.currency, g.target_minor,
			(SELECT sum(o.amount_minor) FROM pledges o WHERE o.group_gift_id = g.id)::bigint, g.completed_at IS NOT NULL
		FROM pledges p JOIN group_gifts g ON g.id = p.group_gift_id WHERE p.user_id = $1 AND g.reveal_at > now()`, userID)
	if err != nil {
		return fmt.Errorf("read pledges: %w", err)
	}
	defer rows.Close()
	byItem := map[string]*ClaimView{}
	for i := range list {
		byItem[list[i].itemID] = &list[i]
	}
	for rows.Next() {
		var itemID, cur string
		var mine, target, pledged int64
		var complete bool
		if err := rows.Scan(&itemID, &mine, &cur, &target, &pledged, &complete); err != nil {
			return fmt.Errorf("read pledges: %w", err)
		}
		v := byItem[itemID]
		if v == nil {
			continue
		}
		p := &PledgeOnTheList{Amount: domain.FormatMinor(mine, cur), Currency: cur, minor: mine}
		p.GroupGift.Target, p.GroupGift.Pledged, p.GroupGift.Complete = domain.FormatMinor(target, cur), domain.FormatMinor(pledged, cur), complete
		v.Pledge = p
	}
	return rows.Err()
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
// This season's group gift is now for at most that many units; a complete one keeps them (the
// family's joint gift goes last) and the claims share what is left. Called after the item's row
// was updated in the same transaction.
func dropExcessClaims(ctx context.Context, tx pgx.Tx, item domain.Item) error {
	var groupUnits int
	err := tx.QueryRow(ctx, `UPDATE group_gifts SET units = LEAST(units, $2) WHERE item_id = $1 AND reveal_at > now()
		RETURNING CASE WHEN completed_at IS NOT NULL THEN units ELSE 0 END`, item.ID, item.Quantity).Scan(&groupUnits)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("fit the group gift to the quantity: %w", err)
	}
	claims, err := seasonClaims(ctx, tx, "i.id = $1", item.ID)
	if err != nil {
		return err
	}
	held := make([]int, len(claims))
	for i, c := range claims {
		held[i] = c.Quantity
	}
	for _, i := range domain.ClaimsToDrop(item.Quantity-groupUnits, held) {
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

// claimsEnded tells each claimer and pledger of this season of the items that their claim or
// pledge ended because the owner removed the item, and keeps the revealed gifts in their givers' histories. Call it
// before deleting the items (their claims and group gifts go with them).
func claimsEnded(ctx context.Context, tx pgx.Tx, where string, args ...any) error {
	if err := archiveGifts(ctx, tx, where, args...); err != nil {
		return err
	}
	claims, err := seasonClaims(ctx, tx, where, args...)
	if err != nil {
		return err
	}
	for _, c := range claims {
		if err := claimEnded(ctx, tx, c, events.ClaimRemoved); err != nil {
			return err
		}
	}
	return pledgesEnded(ctx, tx, where, args...)
}

// pledgesEnded tells each pledger of this season's group gifts on the items (i, l as in
// seasonClaims) that their pledge ended because the owner removed the item: item.pledged
// {action: removed}, the pledger's own event, as item.unclaimed is the claimer's.
func pledgesEnded(ctx context.Context, tx pgx.Tx, where string, args ...any) error {
	rows, err := tx.Query(ctx, `SELECT p.user_id, i.id::text, i.name, g.list_id::text, COALESCE(via.name, g.list_name),
			CASE WHEN l.recipient_kind = 'self' OR l.recipient_name = '' THEN l.owner_name ELSE l.recipient_name END,
			p.amount_minor, g.currency, g.target_minor, g.completed_at IS NOT NULL,
			(SELECT sum(q.amount_minor) FROM pledges q WHERE q.group_gift_id = g.id)::bigint
		FROM group_gifts g JOIN pledges p ON p.group_gift_id = g.id JOIN items i ON i.id = g.item_id
			JOIN lists l ON l.id = i.list_id LEFT JOIN lists via ON via.id = g.list_id
		WHERE g.reveal_at > now() AND `+where+` ORDER BY p.created_at, p.user_id`, args...)
	if err != nil {
		return fmt.Errorf("read pledges: %w", err)
	}
	type ended struct {
		UserID, ItemID, ItemName, ListID, ListName, OwnerName string
		Amount                                                int64
		Currency                                              string
		Target                                                int64
		Complete                                              bool
		Pledged                                               int64
	}
	pledges, err := pgx.CollectRows(rows, pgx.RowToStructByPos[ended])
	if err != nil {
		return fmt.Errorf("read pledges: %w", err)
	}
	for _, p := range pledges {
		amount := domain.FormatMinor(p.Amount, p.Currency)
		data := events.PledgeData{ItemID: p.ItemID, ItemName: p.ItemName, ListID: p.ListID, ListName: p.ListName,
			OwnerName: p.OwnerName, Action: events.PledgeRemoved, Amount: &amount, Currency: p.Currency,
			Target: domain.FormatMinor(p.Target, p.Currency), Pledged: domain.FormatMinor(p.Pledged, p.Currency),
			Complete: p.Complete, Pledgers: []string{}}
		if err := enqueue(ctx, tx, events.TypeItemPledged, p.UserID, data); err != nil {
			return err
		}
	}
	return nil
}
