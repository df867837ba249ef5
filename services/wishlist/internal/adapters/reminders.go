package adapters

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/reminders"
)

// Reminder windows.
const (
	// ShoppingLead: claimers hear of their not-purchased claims a week before those claims'
	// reveal date.
	ShoppingLead = 7 * 24 * time.Hour
	// EmptyListMonths: an owner hears their shared list is empty a month before its reveal date.
	EmptyListMonths = 1
	// DefaultEmptyListQuiet is how long a shared list must have stayed empty before its
	// owner hears of it (REMINDER_EMPTY_LIST_QUIET): three days since it was shared or since
	// its last item went, so that sharing a list one means to fill, or clearing it out to
	// start again, is not answered by "your list is empty".
	DefaultEmptyListQuiet = 72 * time.Hour
)

// occasionFormat writes a reveal date as a reminder's occasion: the claim's or list's
// timestamp in UTC to the microsecond, the same text however often it is read.
const occasionFormat = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`

// ShoppingDue is the scan of reminder.shopping: per claimer and reveal date in the coming
// week, how many of the claimer's own claims of that date are not marked purchased. It reads
// claims for their claimer only; the event goes to the claimer and names no list, item or
// owner, so no owner ever hears of a claim through it.
func (r *Repository) ShoppingDue(ctx context.Context, now time.Time) ([]reminders.Due, error) {
	rows, err := r.pool.Query(ctx, `SELECT c.user_id, c.reveal_at, count(*),
			to_char(c.reveal_at AT TIME ZONE 'UTC', `+occasionFormat+`) AS occasion
		FROM claims c
		WHERE NOT c.purchased AND c.reveal_at > $1 AND c.reveal_at <= $1 + $2::interval
		  AND NOT EXISTS (SELECT 1 FROM sent_reminders s WHERE s.kind = $3 AND s.subject = c.user_id
		      AND s.occasion = to_char(c.reveal_at AT TIME ZONE 'UTC', `+occasionFormat+`))
		GROUP BY c.user_id, c.reveal_at
		ORDER BY c.reveal_at, c.user_id`, now, ShoppingLead.String(), events.TypeReminderShopping)
	if err != nil {
		return nil, fmt.Errorf("scan shopping reminders: %w", err)
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (reminders.Due, error) {
		var claimer, occasion string
		var revealAt time.Time
		var n int
		if err := row.Scan(&claimer, &revealAt, &n, &occasion); err != nil {
			return reminders.Due{}, err
		}
		env, err := reminders.EventAt(now, events.TypeReminderShopping, claimer, events.ShoppingData{
			RevealAt: revealAt.UTC(), DaysLeft: reminders.DaysLeft(now, revealAt), NotPurchased: n,
		})
		return reminders.Due{Kind: events.TypeReminderShopping, Subject: claimer, Occasion: occasion, Event: env}, err
	})
}

// EmptyListsDue is the scan of reminder.list_empty: lists shared by a link or with a family,
// with no items (a suggestion is no wish of the list's recipient's, and must not keep the
// reminder away: that would tell them one exists), whose reveal date in force is at most a
// month away, and that have stayed so for at least quiet: they became shared, and lost their
// last item, at least quiet before now (list_quiet, kept by triggers of migration 0009; a
// list without a row has been quiet since it was made). It counts items, never claims, and
// a suggestion's coming or going moves nothing.
func (r *Repository) EmptyListsDue(quiet time.Duration) reminders.Scan {
	return func(ctx context.Context, now time.Time) ([]reminders.Due, error) {
		return r.emptyListsDue(ctx, now, quiet)
	}
}

func (r *Repository) emptyListsDue(ctx context.Context, now time.Time, quiet time.Duration) ([]reminders.Due, error) {
	rows, err := r.pool.Query(ctx, `SELECT l.id, l.user_id, l.name, l.reveal, to_char(l.reveal AT TIME ZONE 'UTC', `+occasionFormat+`)
		FROM (SELECT id, user_id, name, reveal_in_force_at(reveal_at, $1) AS reveal FROM lists
		      WHERE (share_token IS NOT NULL OR cardinality(family_ids) > 0)
		        AND NOT EXISTS (SELECT 1 FROM items i WHERE i.list_id = lists.id AND i.suggested_by IS NULL)
		        AND coalesce((SELECT q.since FROM list_quiet q WHERE q.list_id = lists.id), lists.created_at)
		            <= $1 - make_interval(secs => $4)) l
		WHERE l.reveal <= $1 + make_interval(months => $2)
		  AND NOT EXISTS (SELECT 1 FROM sent_reminders s WHERE s.kind = $3 AND s.subject = l.id::text
		      AND s.occasion = to_char(l.reveal AT TIME ZONE 'UTC', `+occasionFormat+`))
		ORDER BY l.reveal, l.id`, now, EmptyListMonths, events.TypeReminderListEmpty, quiet.Seconds())
	if err != nil {
		return nil, fmt.Errorf("scan empty-list reminders: %w", err)
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (reminders.Due, error) {
		var listID, owner, name, occasion string
		var revealAt time.Time
		if err := row.Scan(&listID, &owner, &name, &revealAt, &occasion); err != nil {
			return reminders.Due{}, err
		}
		env, err := reminders.EventAt(now, events.TypeReminderListEmpty, owner, events.ListEmptyData{
			ListID: listID, ListName: name, RevealAt: revealAt.UTC(), DaysLeft: reminders.DaysLeft(now, revealAt),
		})
		return reminders.Due{Kind: events.TypeReminderListEmpty, Subject: listID, Occasion: occasion, Event: env}, err
	})
}
