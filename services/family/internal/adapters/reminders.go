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

// SetDrawOn sets (or, with nil, clears) the family's planned Secret Santa draw date (admins
// only). Setting it starts a new plan: a draw made before now is not the planned one.
func (r *Repository) SetDrawOn(ctx context.Context, familyID, callerUID string, drawOn *time.Time) error {
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if _, err := lockAsAdmin(ctx, tx, familyID, callerUID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE families SET draw_on = $2,
			draw_on_set_at = CASE WHEN $2::date IS NULL THEN NULL
				WHEN draw_on IS NOT DISTINCT FROM $2::date THEN draw_on_set_at ELSE clock_timestamp() END
			WHERE id = $1`, familyID, drawOn)
		if err != nil {
			return fmt.Errorf("save the draw date: %w", err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("planning family %s's draw: %w", familyID, err)
	}
	return nil
}

// DrawSoonDue is the scan of reminder.draw_soon: for each family whose planned draw date is
// 0 to 3 days away (UTC days) and that has not drawn since the date was set, one reminder per
// admin. Its subject is the family and the admin, its occasion the date: a new date is a new
// occasion.
func (r *Repository) DrawSoonDue(ctx context.Context, now time.Time) ([]reminders.Due, error) {
	today := now.UTC().Format(time.DateOnly)
	rows, err := r.pool.Query(ctx, `SELECT f.id, f.name, f.draw_on, m.uid
		FROM families f
		JOIN family_members m ON m.family_id = f.id AND m.role = 'admin'
		WHERE f.draw_on BETWEEN $1::date AND $1::date + $2::int
		  AND NOT EXISTS (SELECT 1 FROM secret_santa_draws d WHERE d.family_id = f.id AND d.drawn_at >= f.draw_on_set_at)
		  AND NOT EXISTS (SELECT 1 FROM sent_reminders s WHERE s.kind = $3
		      AND s.subject = f.id::text || '/' || m.uid AND s.occasion = to_char(f.draw_on, 'YYYY-MM-DD'))
		ORDER BY f.draw_on, f.id, m.uid`, today, domain.DrawSoonDays, events.TypeReminderDrawSoon)
	if err != nil {
		return nil, fmt.Errorf("scan draw reminders: %w", err)
	}
	due, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (reminders.Due, error) {
		var familyID, name, admin string
		var drawOn time.Time
		if err := row.Scan(&familyID, &name, &drawOn, &admin); err != nil {
			return reminders.Due{}, err
		}
		day := drawOn.Format(time.DateOnly)
		env, err := reminders.EventAt(now, events.TypeReminderDrawSoon, admin, events.DrawSoonData{
			FamilyID: familyID, FamilyName: name, DrawOn: day, DaysLeft: reminders.DaysLeft(now, drawOn),
		})
		if err != nil {
			return reminders.Due{}, fmt.Errorf("build the reminder of family %s for %s: %w", familyID, admin, err)
		}
		return reminders.Due{Kind: events.TypeReminderDrawSoon, Subject: familyID + "/" + admin, Occasion: day, Event: env}, nil
	})
	if err != nil {
		return nil, fmt.Errorf("scan draw reminders: %w", err)
	}
	return due, nil
}
