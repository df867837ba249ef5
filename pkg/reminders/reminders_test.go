package reminders_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/reminders"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

func TestDaysLeftCountsUTCCalendarDays(t *testing.T) {
	reveal := time.Date(2026, 12, 26, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		now  time.Time
		want int
	}{
		{reveal.Add(-7 * 24 * time.Hour), 7},
		{reveal.Add(-7*24*time.Hour + 23*time.Hour), 7},
		{reveal.Add(-time.Minute), 1},
		{reveal, 0},
		{time.Date(2026, 12, 25, 23, 0, 0, 0, time.FixedZone("UTC-5", -5*3600)), 0}, // 04:00 UTC on the 26th
	} {
		if got := reminders.DaysLeft(c.now, reveal); got != c.want {
			t.Errorf("DaysLeft(%v) = %d, want %d", c.now, got, c.want)
		}
	}
}

// Record sends a reminder once per key: its key and its outbox event commit together, a
// second Record of the key (another scan, another replica) adds neither, a rolled-back one
// leaves neither, and a deleted account's keys go.
func TestRecordStoresTheKeyAndTheEventTogetherOnce(t *testing.T) {
	ctx := context.Background()
	pool, _ := testenv.Postgres(t)
	if _, err := pool.Exec(ctx, `CREATE TABLE outbox (id uuid PRIMARY KEY, subject text NOT NULL, payload jsonb NOT NULL,
			created_at timestamptz NOT NULL DEFAULT now(), published_at timestamptz);
		CREATE TABLE sent_reminders (kind text NOT NULL, subject text NOT NULL, occasion text NOT NULL,
			recipient text NOT NULL, event_id uuid NOT NULL, sent_at timestamptz NOT NULL DEFAULT now(),
			PRIMARY KEY (kind, subject, occasion))`); err != nil {
		t.Fatal(err)
	}
	due := func(recipient string) reminders.Due {
		env, err := reminders.EventAt(time.Now(), events.TypeReminderShopping, recipient, events.ShoppingData{RevealAt: time.Now(), DaysLeft: 7, NotPurchased: 1})
		if err != nil {
			t.Fatal(err)
		}
		return reminders.Due{Kind: events.TypeReminderShopping, Subject: recipient, Occasion: "2026-12-26", Event: env}
	}
	count := func(table string) int {
		var n int
		if err := pool.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	record := func(d reminders.Due) bool {
		var ok bool
		if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			var err error
			ok, err = reminders.Record(ctx, tx, d)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return ok
	}
	// Rolled back: nothing stays.
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := reminders.Record(ctx, tx, due("carl")); err != nil || !ok {
		t.Fatalf("record in a transaction: %v %v", ok, err)
	}
	_ = tx.Rollback(ctx)
	if count("outbox") != 0 || count("sent_reminders") != 0 {
		t.Fatal("a rolled-back reminder left rows")
	}
	if !record(due("carl")) || record(due("carl")) {
		t.Fatal("the same key was recorded other than once")
	}
	if !record(due("dora")) {
		t.Fatal("another subject's reminder was not recorded")
	}
	if count("outbox") != 2 || count("sent_reminders") != 2 {
		t.Fatalf("%d events and %d keys, want 2 and 2", count("outbox"), count("sent_reminders"))
	}
	mismatched := due("erin")
	mismatched.Kind = events.TypeReminderListEmpty
	if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { _, err := reminders.Record(ctx, tx, mismatched); return err }); err == nil {
		t.Fatal("a reminder whose kind is not its event's type was recorded")
	}
	if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return reminders.EraseUser(ctx, tx, "carl") }); err != nil {
		t.Fatal(err)
	}
	if count("sent_reminders") != 1 {
		t.Fatal("EraseUser left carl's keys or took dora's")
	}
}
