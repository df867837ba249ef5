package adapters

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/pkg/caller"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// Group gifts (docs/family.md: giving together). A group gift belongs to one season of an item,
// like a claim: it takes the list's reveal date in force when it is started, and every answer
// the list's recipient can get leaves it out (it is read only by the givers' projections). It
// is changed only under the item's row lock (lockSharedItem), so pledges and claims take
// turns: two pledges that cross the target cannot both complete it, and a pledge and a claim
// cannot both take the last unit.

// groupGiftRow is the season's group gift of a locked item.
type groupGiftRow struct {
	ID, OrganizerUID, Currency string
	Target                     int64
	Units                      int
	Complete                   bool
	Pledged                    int64
}

// seasonGroupGift reads the item's group gift of this season, if any (after the item's lock).
func seasonGroupGift(ctx context.Context, tx pgx.Tx, itemID string) (groupGiftRow, bool, error) {
	var g groupGiftRow
	err := tx.QueryRow(ctx, `SELECT g.id::text, g.organizer_uid, g.currency, g.target_minor, g.units, g.completed_at IS NOT NULL,
			COALESCE((SELECT sum(p.amount_minor) FROM pledges p WHERE p.group_gift_id = g.id), 0)::bigint
		FROM group_gifts g WHERE g.item_id = $1 AND g.reveal_at > now()`, itemID).
		Scan(&g.ID, &g.OrganizerUID, &g.Currency, &g.Target, &g.Units, &g.Complete, &g.Pledged)
	if errors.Is(err, pgx.ErrNoRows) {
		return g, false, nil
	}
	if err != nil {
		return g, false, fmt.Errorf("read group gift: %w", err)
	}
	return g, true, nil
}

// lockGroupGift locks a shared item (lockSharedItem) and reads its group gift of this season,
// domain.ErrGroupGiftNotFound when it has none.
func lockGroupGift(ctx context.Context, tx pgx.Tx, token, itemID, uid string) (sharedList, lockedItem, groupGiftRow, error) {
	l, item, err := lockSharedItem(ctx, tx, token, itemID, uid)
	if err != nil {
		return l, item, groupGiftRow{}, err
	}
	g, exists, err := seasonGroupGift(ctx, tx, itemID)
	if err == nil && !exists {
		err = domain.ErrGroupGiftNotFound
	}
	return l, item, g, err
}

// StartGroupGift starts the item's group gift for this season; plan decides its target and
// currency from the item's price and the units still free.
func (r *Repository) StartGroupGift(ctx context.Context, token, itemID string, by caller.Caller,
	plan func(price *string, free int) (domain.GroupGiftPlan, error)) (domain.GroupGift, error) {
	var out domain.GroupGift
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		l, item, err := lockSharedItem(ctx, tx, token, itemID, by.UID)
		if err != nil {
			return err
		}
		if _, exists, err := seasonGroupGift(ctx, tx, itemID); err != nil || exists {
			if err == nil {
				err = domain.ErrGroupGiftExists
			}
			return err
		}
		free := item.Quantity - item.Claimed
		if free <= 0 {
			return domain.ErrNotEnoughLeft
		}
		p, err := plan(item.Price, free)
		if err != nil {
			return err
		}
		id := uuid.NewString()
		completed := p.Pledge >= p.Target
		_, err = tx.Exec(ctx, `INSERT INTO group_gifts (id, item_id, organizer_uid, organizer_name, target_minor, currency, digits, units,
				reveal_at, list_id, list_name, via_token, completed_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, CASE WHEN $13::bool THEN clock_timestamp() END)`,
			id, itemID, by.UID, by.Name, p.Target, p.Currency, domain.Digits(p.Currency), free, l.RevealAt, l.ID, l.Name, token, completed)
		if err != nil {
			return fmt.Errorf("start group gift: %w", err)
		}
		var amount *string
		if p.Pledge > 0 {
			if _, err := tx.Exec(ctx, `INSERT INTO pledges (group_gift_id, user_id, display_name, amount_minor) VALUES ($1, $2, $3, $4)`,
				id, by.UID, by.Name, p.Pledge); err != nil {
				return fmt.Errorf("pledge: %w", err)
			}
			s := domain.FormatMinor(p.Pledge, p.Currency)
			amount = &s
		}
		g := groupGiftRow{ID: id, OrganizerUID: by.UID, Currency: p.Currency, Target: p.Target, Units: free, Complete: completed, Pledged: p.Pledge}
		if err := pledgeEvent(ctx, tx, l, item, by.UID, events.PledgeStarted, amount, g, completed); err != nil {
			return err
		}
		out, err = groupGiftView(ctx, tx, id, by.UID)
		return err
	})
	if err != nil {
		return domain.GroupGift{}, fmt.Errorf("starting a group gift on item %s: %w", itemID, err)
	}
	return out, nil
}

// Pledge sets the caller's pledge to the item's group gift; parse reads the amount in the
// gift's currency. A new pledger is refused once the gift is complete, and any pledge once
// claims have taken the units the group gift is for.
func (r *Repository) Pledge(ctx context.Context, token, itemID string, by caller.Caller,
	parse func(currency string) (int64, error)) (domain.GroupGift, error) {
	var out domain.GroupGift
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		l, item, g, err := lockGroupGift(ctx, tx, token, itemID, by.UID)
		if err != nil {
			return err
		}
		amount, err := parse(g.Currency)
		if err != nil {
			return err
		}
		var mine int64
		err = tx.QueryRow(ctx, "SELECT amount_minor FROM pledges WHERE group_gift_id = $1 AND user_id = $2", g.ID, by.UID).Scan(&mine)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("read pledge: %w", err)
		}
		held := err == nil
		if g.Complete && !held {
			return domain.ErrNotEnoughLeft
		}
		if !g.Complete && item.Quantity-item.Claims < g.Units { // claims took what it was for
			return domain.ErrNotEnoughLeft
		}
		if _, err := tx.Exec(ctx, `INSERT INTO pledges (group_gift_id, user_id, display_name, amount_minor) VALUES ($1, $2, $3, $4)
			ON CONFLICT (group_gift_id, user_id) DO UPDATE SET amount_minor = EXCLUDED.amount_minor, display_name = EXCLUDED.display_name`,
			g.ID, by.UID, by.Name, amount); err != nil {
			return fmt.Errorf("pledge: %w", err)
		}
		s := domain.FormatMinor(amount, g.Currency)
		if err := settlePledges(ctx, tx, l, item, by.UID, events.PledgeSet, &s, g, g.Pledged-mine+amount); err != nil {
			return err
		}
		out, err = groupGiftView(ctx, tx, g.ID, by.UID)
		return err
	})
	if err != nil {
		return domain.GroupGift{}, fmt.Errorf("pledging to item %s: %w", itemID, err)
	}
	return out, nil
}

// Withdraw drops the caller's pledge (none is fine: withdrawing is idempotent). The group gift
// may become incomplete again, and its units free.
func (r *Repository) Withdraw(ctx context.Context, token, itemID, uid string) error {
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		l, item, err := lockSharedItem(ctx, tx, token, itemID, uid)
		if err != nil {
			return err
		}
		g, exists, err := seasonGroupGift(ctx, tx, itemID)
		if err != nil || !exists {
			return err
		}
		var mine int64
		err = tx.QueryRow(ctx, "DELETE FROM pledges WHERE group_gift_id = $1 AND user_id = $2 RETURNING amount_minor", g.ID, uid).Scan(&mine)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("withdraw pledge: %w", err)
		}
		return settlePledges(ctx, tx, l, item, uid, events.PledgeWithdrawn, nil, g, g.Pledged-mine)
	})
	if err != nil {
		return fmt.Errorf("withdrawing from item %s: %w", itemID, err)
	}
	return nil
}

// CancelGroupGift lets its organizer end a group gift nobody else has pledged to.
func (r *Repository) CancelGroupGift(ctx context.Context, token, itemID, uid string) error {
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		l, item, g, err := lockGroupGift(ctx, tx, token, itemID, uid)
		if err != nil {
			return err
		}
		if g.OrganizerUID != uid {
			return domain.ErrNotOrganizer
		}
		var others bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pledges WHERE group_gift_id = $1 AND user_id <> $2)", g.ID, uid).
			Scan(&others); err != nil {
			return fmt.Errorf("read pledges: %w", err)
		}
		if others {
			return domain.ErrGroupGiftHasPledges
		}
		if _, err := tx.Exec(ctx, "DELETE FROM group_gifts WHERE id = $1", g.ID); err != nil {
			return fmt.Errorf("cancel group gift: %w", err)
		}
		g.Complete = false
		return pledgeEvent(ctx, tx, l, item, uid, events.PledgeCancelled, nil, g, false)
	})
	if err != nil {
		return fmt.Errorf("cancelling the group gift on item %s: %w", itemID, err)
	}
	return nil
}

// settlePledges records whether the group gift is complete after a change that left pledged in
// it, and tells the givers.
func settlePledges(ctx context.Context, tx pgx.Tx, l sharedList, item lockedItem, actor, action string, amount *string,
	g groupGiftRow, pledged int64) error {
	complete, completedNow := domain.PledgeTotals(g.Target, pledged, g.Complete)
	if complete != g.Complete {
		if _, err := tx.Exec(ctx, "UPDATE group_gifts SET completed_at = CASE WHEN $2::bool THEN clock_timestamp() END WHERE id = $1",
			g.ID, complete); err != nil {
			return fmt.Errorf("complete group gift: %w", err)
		}
	}
	g.Complete, g.Pledged = complete, pledged
	return pledgeEvent(ctx, tx, l, item, actor, action, amount, g, completedNow)
}

// pledgeEvent publishes item.pledged to the givers (never the recipient: its userId is the
// giver, and notification sends the pledgers a notice only when it completed now) and refreshes
// the list for those who follow it.
func pledgeEvent(ctx context.Context, tx pgx.Tx, l sharedList, item lockedItem, actor, action string, amount *string,
	g groupGiftRow, completedNow bool) error {
	pledgers := []string{}
	if completedNow {
		rows, err := tx.Query(ctx, "SELECT user_id FROM pledges WHERE group_gift_id = $1 ORDER BY created_at, user_id", g.ID)
		if err != nil {
			return fmt.Errorf("read pledgers: %w", err)
		}
		if pledgers, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			return fmt.Errorf("read pledgers: %w", err)
		}
	}
	data := events.PledgeData{ItemID: item.ID, ItemName: item.Name, ListID: l.ID, ListName: l.Name,
		OwnerName: recipientName(l), Action: action, Amount: amount, Currency: g.Currency,
		Target: domain.FormatMinor(g.Target, g.Currency), Pledged: domain.FormatMinor(g.Pledged, g.Currency),
		Complete: g.Complete, CompletedNow: completedNow, Pledgers: pledgers}
	if err := enqueue(ctx, tx, events.TypeItemPledged, actor, data); err != nil {
		return err
	}
	return notifyViewers(ctx, tx, l.ID, actor, events.TypeItemPledged)
}

// recipientName is whom a shared list is for, as its givers call them.
func recipientName(l sharedList) string {
	if l.Kind == domain.RecipientSelf || l.RecipientName == "" {
		return l.OwnerName
	}
	return l.RecipientName
}

// groupGiftColumns and groupGiftFrom read a group gift (g) as the givers see it, $2 being the
// viewer, for writeGroupGift: its own fields, then its pledges' total and their names, amounts
// and whether each is the viewer's, as three arrays in one order (the sorted subquery feeds the
// three aggregates alike). The shared view reads them per item (givingFrom) and the group gift
// routes for one gift, so both answer the same JSON, written in Go: built in SQL it cost the
// givers' shared view about twice as much per group gift (make bench-giving).
const groupGiftColumns = `g.organizer_name, g.organizer_uid = $2 AS organizer_is_me, g.target_minor, g.currency, g.digits,
	g.completed_at IS NOT NULL AS complete, s.total, s.names, s.amounts, s.mine`

const groupGiftFrom = `group_gifts g CROSS JOIN LATERAL (
	SELECT COALESCE(sum(p.amount_minor), 0)::bigint AS total, array_agg(p.display_name) AS names,
		array_agg(p.amount_minor) AS amounts, array_agg(p.user_id = $2) AS mine
	FROM (SELECT * FROM pledges p WHERE p.group_gift_id = g.id ORDER BY p.created_at, p.user_id) p) s`

// groupGiftView reads one group gift as viewer sees it.
func groupGiftView(ctx context.Context, tx pgx.Tx, id, viewer string) (domain.GroupGift, error) {
	var out domain.GroupGift
	rows, err := tx.Query(ctx, "SELECT "+groupGiftColumns+" FROM "+groupGiftFrom+" WHERE g.id = $1::uuid", binaryResults, id, viewer)
	if err != nil {
		return out, fmt.Errorf("read group gift: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		err = rows.Err()
		if err == nil {
			err = pgx.ErrNoRows
		}
		return out, fmt.Errorf("read group gift: %w", err)
	}
	raw, err := writeGroupGift(nil, rows.RawValues())
	if err == nil {
		err = json.Unmarshal(raw, &out)
	}
	if err != nil {
		return out, fmt.Errorf("read group gift: %w", err)
	}
	return out, nil
}
