package adapters

import (
	"context"

	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/reminders"
	"github.com/santa-wishlist/santa/services/family/internal/domain"
)

// SetExchange saves the exchange's date and place on the family and the budget on the current
// draw (admins only; a budget without a draw is ErrNoDraw), and answers what is saved.
func (r *Repository) SetExchange(ctx context.Context, familyID, callerUID string, ch domain.ExchangeChange) (domain.Exchange, error) {
	var out domain.Exchange
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if _, err := lockAsAdmin(ctx, tx, familyID, callerUID); err != nil {
			return err
		}
		if ch.SetBudget {
			tag, err := tx.Exec(ctx, "UPDATE secret_santa_draws SET budget = $2 WHERE family_id = $1", familyID, ch.Budget)
			if err != nil {
				return fmt.Errorf("save the budget: %w", err)
			}
			if tag.RowsAffected() == 0 {
				return domain.ErrNoDraw
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE families SET
				exchange_on = CASE WHEN $2 THEN $3::date ELSE exchange_on END,
				exchange_place = CASE WHEN $4 THEN $5 ELSE exchange_place END
			WHERE id = $1`, familyID, ch.SetExchangeOn, ch.ExchangeOn, ch.SetPlace, ch.Place); err != nil {
			return fmt.Errorf("save the exchange: %w", err)
		}
		return tx.QueryRow(ctx, `SELECT f.exchange_on, f.exchange_place, d.budget FROM families f
			LEFT JOIN secret_santa_draws d ON d.family_id = f.id WHERE f.id = $1`, familyID).
			Scan(&out.ExchangeOn, &out.Place, &out.Budget)
	})
	if err != nil {
		return domain.Exchange{}, fmt.Errorf("saving family %s's exchange: %w", familyID, err)
	}
	return out, nil
}

// Circle reads the whole draw, for a participant (uid gives in it), and only when the draw
// chose revealAfterExchange and the family's exchange day is before today (UTC): the
// condition is in the query itself, so no other path answers a pair. Otherwise nil.
func (r *Repository) Circle(ctx context.Context, familyID, uid string, now time.Time) ([]domain.CirclePair, error) {
	rows, err := r.pool.Query(ctx, `SELECT p.giver, gm.display_name, p.receiver, rm.display_name
		FROM families f
		JOIN secret_santa_draws d ON d.family_id = f.id AND d.reveal_after_exchange
		JOIN secret_santa_pairs p ON p.family_id = f.id
		JOIN family_members gm ON gm.family_id = f.id AND gm.uid = p.giver
		JOIN family_members rm ON rm.family_id = f.id AND rm.uid = p.receiver
		WHERE f.id = $1 AND f.exchange_on < $3::date
		  AND EXISTS (SELECT 1 FROM secret_santa_pairs me WHERE me.family_id = f.id AND me.giver = $2)
		ORDER BY p.giver`, familyID, uid, domain.Today(now).Format(time.DateOnly))
	if err != nil {
		return nil, fmt.Errorf("reading the circle of family %s: %w", familyID, err)
	}
	pairs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.CirclePair, error) {
		var p domain.CirclePair
		return p, row.Scan(&p.Giver.UID, &p.Giver.DisplayName, &p.Receiver.UID, &p.Receiver.DisplayName)
	})
	if err != nil {
		return nil, fmt.Errorf("reading the circle of family %s: %w", familyID, err)
	}
	if len(pairs) == 0 {
		return nil, nil
	}
	return pairs, nil
}

// ExchangeSoonDue is the scan of reminder.exchange_soon: for each family whose exchange day is
// 0 to 3 days away (UTC days) and that has a draw, one reminder per participant. Its subject is
// the family and the participant, its occasion the date: a new date is a new occasion, and a
// redraw with the same date reminds nobody twice.
func (r *Repository) ExchangeSoonDue(ctx context.Context, now time.Time) ([]reminders.Due, error) {
	today := now.UTC().Format(time.DateOnly)
	// Only the givers' column is read: who takes part, never whom they give to.
	rows, err := r.pool.Query(ctx, `SELECT f.id, f.name, f.exchange_on, f.exchange_place, p.giver
		FROM families f
		JOIN secret_santa_pairs p ON p.family_id = f.id
		WHERE f.exchange_on BETWEEN $1::date AND $1::date + $2::int
		  AND NOT EXISTS (SELECT 1 FROM sent_reminders s WHERE s.kind = $3
		      AND s.subject = f.id::text || '/' || p.giver AND s.occasion = to_char(f.exchange_on, 'YYYY-MM-DD'))
		ORDER BY f.exchange_on, f.id, p.giver`, today, domain.ExchangeSoonDays, events.TypeReminderExchangeSoon)
	if err != nil {
		return nil, fmt.Errorf("scan exchange reminders: %w", err)
	}
	due, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (reminders.Due, error) {
		var familyID, name, place, uid string
		var on time.Time
		if err := row.Scan(&familyID, &name, &on, &place, &uid); err != nil {
			return reminders.Due{}, err
		}
		day := on.Format(time.DateOnly)
		env, err := reminders.EventAt(now, events.TypeReminderExchangeSoon, uid, events.ExchangeSoonData{
			FamilyID: familyID, FamilyName: name, ExchangeOn: day, Place: place, DaysLeft: reminders.DaysLeft(now, on),
		})
		if err != nil {
			return reminders.Due{}, fmt.Errorf("build the exchange reminder of family %s for %s: %w", familyID, uid, err)
		}
		return reminders.Due{Kind: events.TypeReminderExchangeSoon, Subject: familyID + "/" + uid, Occasion: day, Event: env}, nil
	})
	if err != nil {
		return nil, fmt.Errorf("scan exchange reminders: %w", err)
	}
	return due, nil
}
