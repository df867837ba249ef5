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

// Thanks and what I gave (docs/family.md: thanks). Only revealed gifts are ever thanked or
// listed: a revealed claim, or a pledge of a revealed, complete group gift. Nothing here reads a
// claim of this season, so no answer differs because of one.

// recipientNameOf is the SQL for whom the list l is for, as its givers call them.
const recipientNameOf = "(CASE WHEN l.recipient_kind = 'self' OR l.recipient_name = '' THEN l.owner_name ELSE l.recipient_name END)"

// Thank thanks the givers of the item's revealed gifts not yet thanked.
func (r *Repository) Thank(ctx context.Context, by caller.Caller, itemID, message string) (domain.Thanks, error) {
	var out domain.Thanks
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		var role *string
		var kind, itemName, recipient string
		var visible bool
		err := tx.QueryRow(ctx, `SELECT `+roleOf+`, l.recipient_kind, items.name, `+recipientNameOf+`, `+wishVisible+`
			FROM items JOIN lists l ON l.id = items.list_id WHERE items.id = $2 FOR UPDATE OF items`, by.UID, itemID).
			Scan(&role, &kind, &itemName, &recipient, &visible)
		if errors.Is(err, pgx.ErrNoRows) || (err == nil && (role == nil || !visible)) {
			return domain.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("find item: %w", err)
		}
		if *role == domain.RoleManager && kind != domain.RecipientPerson {
			return domain.ErrRecipientThanks
		}
		var revealed int
		if err := tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM claims c WHERE c.item_id = $1 AND c.reveal_at <= now())
			+ (SELECT count(*) FROM group_gifts g JOIN pledges p ON p.group_gift_id = g.id
			   WHERE g.item_id = $1 AND g.reveal_at <= now() AND g.completed_at IS NOT NULL)`, itemID).Scan(&revealed); err != nil {
			return fmt.Errorf("count revealed gifts: %w", err)
		}
		if revealed == 0 {
			return domain.ErrNothingRevealed
		}
		at := time.Now().UTC().Truncate(time.Microsecond)
		rows, err := tx.Query(ctx, `WITH c AS (
				UPDATE claims SET thanks_message = $2, thanks_at = $3
				WHERE item_id = $1 AND reveal_at <= now() AND thanks_at IS NULL RETURNING user_id),
			p AS (
				UPDATE pledges p SET thanks_message = $2, thanks_at = $3 FROM group_gifts g
				WHERE g.id = p.group_gift_id AND g.item_id = $1 AND g.reveal_at <= now() AND g.completed_at IS NOT NULL
				  AND p.thanks_at IS NULL RETURNING p.user_id)
			SELECT DISTINCT user_id FROM (SELECT user_id FROM c UNION SELECT user_id FROM p) givers ORDER BY user_id`,
			itemID, message, at)
		if err != nil {
			return fmt.Errorf("thank: %w", err)
		}
		givers, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return fmt.Errorf("thank: %w", err)
		}
		if len(givers) == 0 {
			return domain.ErrAlreadyThanked
		}
		out = domain.Thanks{Message: message, At: at, Thanked: len(givers)}
		return enqueue(ctx, tx, events.TypeItemThanked, by.UID, events.ThanksData{ItemID: itemID, ItemName: itemName,
			RecipientName: recipient, Message: message, Givers: givers, At: out.At})
	})
	if err != nil {
		return domain.Thanks{}, fmt.Errorf("thanking for item %s: %w", itemID, err)
	}
	return out, nil
}

// archiveGifts keeps the revealed gifts on the items where matches (i: items, l: their lists)
// in the givers' histories: call it before deleting those items (their claims and group gifts
// go with them). Their photos go with the items, so the history keeps none.
func archiveGifts(ctx context.Context, tx pgx.Tx, where string, args ...any) error {
	_, err := tx.Exec(ctx, `INSERT INTO gifts_given (user_id, item_id, reveal_at, kind, recipient_name, item_name, quantity,
			amount_minor, currency, thanks_message, thanks_at)
		SELECT c.user_id, i.id, c.reveal_at, 'claim', `+recipientNameOf+`, i.name, c.quantity, NULL, NULL, c.thanks_message, c.thanks_at
		FROM claims c JOIN items i ON i.id = c.item_id JOIN lists l ON l.id = i.list_id
		WHERE c.reveal_at <= now() AND `+where+`
		UNION ALL
		SELECT p.user_id, i.id, g.reveal_at, 'pledge', `+recipientNameOf+`, i.name, g.units, p.amount_minor, g.currency,
			p.thanks_message, p.thanks_at
		FROM pledges p JOIN group_gifts g ON g.id = p.group_gift_id JOIN items i ON i.id = g.item_id JOIN lists l ON l.id = i.list_id
		WHERE g.reveal_at <= now() AND g.completed_at IS NOT NULL AND `+where+`
		ON CONFLICT DO NOTHING`, args...)
	if err != nil {
		return fmt.Errorf("keep the gifts given: %w", err)
	}
	return nil
}

// GiftGiven is one gift in "What I gave".
type GiftGiven struct {
	Season    int           `json:"season"`
	Recipient domain.Person `json:"recipient"`
	Item      struct {
		Name     string  `json:"name"`
		ImageURL *string `json:"imageUrl"`
	} `json:"item"`
	Quantity   int            `json:"quantity"`
	Together   *domain.Amount `json:"together"`
	RevealedAt time.Time      `json:"revealedAt"`
	Thanks     *GiftThanks    `json:"thanks"`
}

// GiftThanks is the thanks a gift got.
type GiftThanks struct {
	Message string    `json:"message"`
	At      time.Time `json:"at"`
}

// GiftsGivenJSON answers GET /api/gifts/given: the caller's revealed gifts, newest first, the
// live ones (their photo while the link they were given through works) and the kept ones.
func (r *Repository) GiftsGivenJSON(ctx context.Context, uid string) (json.RawMessage, error) {
	rows, err := r.pool.Query(ctx, `SELECT reveal_at, recipient, item_name, image_url, via_token, share_token, quantity,
			amount_minor, currency, thanks_message, thanks_at FROM (
		SELECT c.reveal_at, `+recipientNameOf+` AS recipient, i.name AS item_name, i.image_url, c.via_token, l.share_token,
			c.quantity::int AS quantity, NULL::bigint AS amount_minor, NULL::text AS currency, c.thanks_message, c.thanks_at
		FROM claims c JOIN items i ON i.id = c.item_id JOIN lists l ON l.id = i.list_id
		WHERE c.user_id = $1 AND c.reveal_at <= now()
		UNION ALL
		SELECT g.reveal_at, `+recipientNameOf+`, i.name, i.image_url, g.via_token, l.share_token, g.units::int, p.amount_minor,
			g.currency, p.thanks_message, p.thanks_at
		FROM pledges p JOIN group_gifts g ON g.id = p.group_gift_id JOIN items i ON i.id = g.item_id JOIN lists l ON l.id = i.list_id
		WHERE p.user_id = $1 AND g.reveal_at <= now() AND g.completed_at IS NOT NULL
		UNION ALL
		SELECT reveal_at, recipient_name, item_name, NULL, NULL, NULL, quantity::int, amount_minor, currency, thanks_message, thanks_at
		FROM gifts_given WHERE user_id = $1) gifts
		ORDER BY reveal_at DESC, item_name`, uid)
	if err != nil {
		return nil, fmt.Errorf("read gifts given: %w", err)
	}
	photos := r.photoStamp()
	gifts, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (GiftGiven, error) {
		var g GiftGiven
		var via, current, cur, msg *string
		var amount *int64
		var at *time.Time
		if err := row.Scan(&g.RevealedAt, &g.Recipient.DisplayName, &g.Item.Name, &g.Item.ImageURL, &via, &current, &g.Quantity,
			&amount, &cur, &msg, &at); err != nil {
			return g, err
		}
		g.RevealedAt = g.RevealedAt.UTC()
		g.Season = domain.Season(g.RevealedAt)
		g.Item.ImageURL = photos.SignPtr(domain.ClaimPhoto(g.Item.ImageURL, domain.ClaimLink(via, current)))
		if amount != nil && cur != nil {
			a := domain.Money{Minor: *amount, Currency: *cur}.Show()
			g.Together = &a
		}
		if msg != nil && at != nil {
			g.Thanks = &GiftThanks{Message: *msg, At: at.UTC()}
		}
		return g, nil
	})
	if err != nil {
		return nil, fmt.Errorf("read gifts given: %w", err)
	}
	if gifts == nil {
		gifts = []GiftGiven{}
	}
	return json.Marshal(gifts)
}
