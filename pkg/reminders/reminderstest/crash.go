// Package reminderstest drives the reminders' exactly-once cases in the services' tests.
package reminderstest

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/santa-wishlist/santa/pkg/reminders"
)

// CrashWhileSending plays a replica that records due in a transaction on pool and crashes
// before its commit, while the other replica scans: the other must wait on the reminder's key
// (it may not finish while the crashing one holds it), and once the crashed connection is
// gone (PostgreSQL rolls its transaction back) it sends. It answers how many the other sent.
func CrashWhileSending(t testing.TB, pool *pgxpool.Pool, due reminders.Due, other *reminders.Scheduler) int {
	t.Helper()
	ctx := context.Background()
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := reminders.Record(ctx, tx, due); err != nil || !ok {
		t.Fatalf("the crashing replica recorded nothing: %v", err)
	}
	done := make(chan int, 1)
	go func() {
		n, err := other.RunOnce(ctx)
		if err != nil {
			t.Errorf("the other replica: %v", err)
		}
		done <- n
	}()
	select {
	case n := <-done:
		t.Fatalf("the other replica finished (%d sent) while the crashing replica held a reminder's key", n)
	case <-time.After(500 * time.Millisecond):
	}
	// The crash: the connection goes without a commit, so PostgreSQL rolls the transaction back.
	_ = conn.Conn().Close(ctx)
	conn.Release()
	select {
	case n := <-done:
		return n
	case <-time.After(10 * time.Second):
		t.Fatal("the other replica is still waiting after the crash")
	}
	return 0
}
