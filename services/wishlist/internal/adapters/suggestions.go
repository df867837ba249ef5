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

// Suggestions (docs/family.md: suggestions): gifts a giver adds to someone else's shared list.
// A suggestion is an item of the list that belongs to its suggester, so nothing scoped to the
// list's owner meets it; every answer to the list's recipient leaves it out (wishVisible).

// giverOn finds the shared list and checks that by may give on it: never its recipient
// (domain.ErrOwnList); on a list shared with families, only a member of one of them or one of
// its managers, so a relative removed from the family loses their rights with the family.
func giverOn(ctx context.Context, tx pgx.Tx, token, uid string) (sharedList, bool, error) {
	l, err := findShared(ctx, tx, token)
	if err != nil {
		return l, false, err
	}
	if err := domain.CheckClaimer(l.RecipientUID, uid); err != nil {
		return l, false, err
	}
	var manages, inFamily bool
	err = tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM list_managers WHERE list_id = $1 AND uid = $2),
			EXISTS (SELECT 1 FROM family_memberships WHERE uid = $2 AND member AND family_id = ANY($3::uuid[]))`,
		l.ID, uid, l.Families).Scan(&manages, &inFamily)
	if err != nil {
		return l, false, fmt.Errorf("check giver: %w", err)
	}
	if len(l.Families) > 0 && !manages && !inFamily {
		return l, false, domain.ErrShareNotFound
	}
	return l, manages, nil
}

// Suggest saves a suggestion on a shared list (at most domain.MaxSuggestions a list), with
// list.suggestion.created and list.changed for the givers who follow the list, in one transaction.
func (r *Repository) Suggest(ctx context.Context, token string, by caller.Caller, item domain.Item) (domain.Item, error) {
	err := r.inUserTx(ctx, by.UID, func(tx pgx.Tx) error {
		l, _, err := giverOn(ctx, tx, token, by.UID)
		if err != nil {
			return err
		}
		// The list's row lock makes concurrent suggestions take turns at the cap.
		var n int
		err = tx.QueryRow(ctx, `SELECT count(*) FROM items WHERE list_id = (SELECT id FROM lists WHERE id = $1 FOR UPDATE)
			AND suggested_by IS NOT NULL`, l.ID).Scan(&n)
		if err != nil {
			return fmt.Errorf("count suggestions: %w", err)
		}
		if n >= domain.MaxSuggestions {
			return domain.ErrTooManySuggestions
		}
		item.UserID, item.ListID = by.UID, l.ID
		if err := insertItem(ctx, tx, &item); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE items SET suggested_by = $2, suggested_by_name = $3 WHERE id = $1", item.ID, by.UID, by.Name); err != nil {
			return fmt.Errorf("mark suggestion: %w", err)
		}
		if err := enqueue(ctx, tx, events.TypeSuggestionCreated, by.UID, events.SuggestionCreatedData{ListID: l.ID, ItemID: item.ID,
			Name: item.Name, SuggestedBy: by.Name}); err != nil {
			return err
		}
		return notifyViewers(ctx, tx, l.ID, by.UID, events.TypeSuggestionCreated)
	})
	if err != nil {
		return domain.Item{}, fmt.Errorf("suggesting a gift: %w", err)
	}
	return item, nil
}

// lockSuggestion finds a suggestion of the shared list that by may change (theirs, or any
// when they manage the list) and locks its row; anything else is domain.ErrNotFound.
func lockSuggestion(ctx context.Context, tx pgx.Tx, token, itemID string, by caller.Caller) (sharedList, domain.Item, error) {
	l, manages, err := giverOn(ctx, tx, token, by.UID)
	if err != nil {
		return l, domain.Item{}, err
	}
	var item domain.Item
	err = tx.QueryRow(ctx, "SELECT "+itemColumns+`, items.suggested_by_name FROM items WHERE id = $1 AND list_id = $2
		AND suggested_by IS NOT NULL AND (suggested_by = $3 OR $4) FOR UPDATE`, itemID, l.ID, by.UID, manages).
		Scan(append(itemTargets(&item), &item.SuggestedByName)...)
	if errors.Is(err, pgx.ErrNoRows) {
		return l, item, domain.ErrNotFound
	}
	if err != nil {
		return l, item, fmt.Errorf("find suggestion: %w", err)
	}
	normalizeFeatures(&item)
	return l, item, nil
}

// EditSuggestion applies edit to a suggestion under its row lock; claims beyond a lowered
// quantity are released as for any item.
func (r *Repository) EditSuggestion(ctx context.Context, token, itemID string, by caller.Caller,
	edit func(domain.Item) (domain.Item, error)) (domain.Item, error) {
	var out domain.Item
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		l, saved, err := lockSuggestion(ctx, tx, token, itemID, by)
		if err != nil {
			return err
		}
		next, err := edit(saved)
		if err != nil {
			return err
		}
		next.ListID = saved.ListID // a suggestion stays on the list it was made for
		if err := updateItem(ctx, tx, itemID, &next); err != nil {
			return err
		}
		if next.Quantity < saved.Quantity {
			if err := dropExcessClaims(ctx, tx, next); err != nil {
				return err
			}
		}
		out = next
		return notifyViewers(ctx, tx, l.ID, by.UID, events.TypeItemUpdated)
	})
	if err != nil {
		return domain.Item{}, fmt.Errorf("editing suggestion %s: %w", itemID, err)
	}
	return out, nil
}

// DeleteSuggestion removes a suggestion; its claimers are told, as for any item.
func (r *Repository) DeleteSuggestion(ctx context.Context, token, itemID string, by caller.Caller) error {
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		l, _, err := lockSuggestion(ctx, tx, token, itemID, by)
		if err != nil {
			return err
		}
		if err := claimsEnded(ctx, tx, "i.id = $1", itemID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM items WHERE id = $1", itemID); err != nil {
			return fmt.Errorf("delete suggestion: %w", err)
		}
		return notifyViewers(ctx, tx, l.ID, by.UID, events.TypeItemDeleted)
	})
	if err != nil {
		return fmt.Errorf("deleting suggestion %s: %w", itemID, err)
	}
	return nil
}
