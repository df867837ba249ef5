package outbox_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/outbox"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

func TestPublishedRowsArePrunedAfterTheRetentionAndAUsersRowsAtOnce(t *testing.T) {
	ctx := context.Background()
	pool, _ := testenv.Postgres(t)
	if _, err := pool.Exec(ctx, `CREATE TABLE outbox (id uuid PRIMARY KEY, subject text NOT NULL, payload jsonb NOT NULL,
		created_at timestamptz NOT NULL DEFAULT now(), published_at timestamptz)`); err != nil {
		t.Fatal(err)
	}
	broker := testenv.StartNATS(t)
	nc, js, err := events.Connect(broker.URL(), "test", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	enqueue := func(uid string) {
		env, _ := events.NewEnvelope(events.TypeItemCreated, uid, map[string]any{"id": "x"})
		if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return outbox.Enqueue(ctx, tx, env) }); err != nil {
			t.Fatal(err)
		}
	}
	countRows := func(where string) int {
		var n int
		if err := pool.QueryRow(ctx, "SELECT count(*) FROM outbox WHERE "+where).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	relay := outbox.NewRelay(pool, js, prometheus.NewRegistry(), slog.New(slog.NewTextHandler(io.Discard, nil))).WithRetention(outbox.DefaultRetention)
	enqueue("old")
	enqueue("fresh")
	enqueue("gone")
	if n, err := relay.PublishPending(ctx); err != nil || n != 3 {
		t.Fatalf("published %d: %v", n, err)
	}
	// "old" was published two days ago: past the window. "fresh" is kept for now.
	if _, err := pool.Exec(ctx, "UPDATE outbox SET published_at = now() - interval '48 hours' WHERE payload->>'userId' = 'old'"); err != nil {
		t.Fatal(err)
	}
	enqueue("old") // pending: never pruned, whatever its age
	if _, err := pool.Exec(ctx, "UPDATE outbox SET created_at = now() - interval '72 hours' WHERE published_at IS NULL"); err != nil {
		t.Fatal(err)
	}
	if n, err := relay.Prune(ctx); err != nil || n != 1 {
		t.Fatalf("pruned %d: %v", n, err)
	}
	if countRows("published_at IS NULL AND payload->>'userId' = 'old'") != 1 || countRows("payload->>'userId' = 'fresh'") != 1 {
		t.Fatal("pruning took a pending or a fresh row")
	}
	// A deleted account's rows go at once, published or not.
	enqueue("gone")
	if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return outbox.EraseUser(ctx, tx, "gone") }); err != nil {
		t.Fatal(err)
	}
	if countRows("payload->>'userId' = 'gone'") != 0 || countRows("true") != 2 {
		t.Fatal("EraseUser left the user's rows or took others'")
	}
}
