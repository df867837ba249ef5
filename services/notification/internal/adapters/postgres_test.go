package adapters_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/santa-wishlist/santa/pkg/migrate"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/notification/internal/adapters"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

func store(t *testing.T) (*adapters.Notices, *pgxpool.Pool) {
	t.Helper()
	pool, _ := testenv.Postgres(t)
	if err := migrate.Apply(context.Background(), pool, "notification", adapters.Migrations(), slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatal(err)
	}
	return adapters.NewNotices(pool), pool
}

func countNotice(uid string, count int, at time.Time) domain.Notice {
	data, _ := json.Marshal(domain.CountData{Count: count, ItemID: "item-" + uuid.NewString()[:8], Cause: "item.created"})
	return domain.Notice{EventID: uuid.NewString(), UserID: uid, Event: domain.EventWishlistCount, Data: data, OccurredAt: at}
}

func TestInsertIsOncePerEvent(t *testing.T) {
	notices, _ := store(t)
	ctx := context.Background()
	n := countNotice("kid", 1, time.Now())
	first, fresh, err := notices.Insert(ctx, n)
	if err != nil || !fresh || first.Seq == 0 {
		t.Fatalf("first insert: %+v %v %v", first, fresh, err)
	}
	again, fresh, err := notices.Insert(ctx, n)
	if err != nil || fresh || again.Seq != first.Seq {
		t.Fatalf("second insert of the same event: %+v %v %v (first seq %d)", again, fresh, err, first.Seq)
	}
	// The same event id under another user is a producer bug, not a second notice.
	n.UserID = "someone-else"
	if _, _, err := notices.Insert(ctx, n); err == nil {
		t.Fatal("an event id reused for another user was accepted")
	}
	if list, _ := notices.After(ctx, "kid", 0, 10); len(list) != 1 {
		t.Fatalf("%d notices", len(list))
	}
}

func TestACountEventHandledLateNeverStepsTheBadgeBack(t *testing.T) {
	notices, _ := store(t)
	ctx := context.Background()
	t0 := time.Now().Add(-time.Minute)
	// Created (2 items) then deleted (1 item); the delete is handled first, the create late.
	if _, _, err := notices.Insert(ctx, countNotice("kid", 1, t0.Add(time.Second))); err != nil {
		t.Fatal(err)
	}
	late, _, err := notices.Insert(ctx, countNotice("kid", 2, t0))
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := late.Count(); c != 1 {
		t.Fatalf("the late notice says %d", c)
	}
	if _, count, _ := notices.Position(ctx, "kid"); count != 1 {
		t.Fatalf("current count %d", count)
	}
	// A newer one counts again, and other users are untouched.
	if _, _, err := notices.Insert(ctx, countNotice("kid", 4, t0.Add(2*time.Second))); err != nil {
		t.Fatal(err)
	}
	if _, count, _ := notices.Position(ctx, "kid"); count != 4 {
		t.Fatalf("current count %d", count)
	}
	if seq, count, _ := notices.Position(ctx, "other-kid"); seq != 0 || count != 0 {
		t.Fatalf("another user: seq %d count %d", seq, count)
	}
}

// A stream sends "everything above the last seq I sent". That is only gap-free if a user's
// notices become visible in seq order, even when several replicas store them at once.
func TestAUsersNoticesBecomeVisibleInSeqOrder(t *testing.T) {
	notices, _ := store(t)
	ctx := context.Background()
	const writers, each = 6, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if _, _, err := notices.Insert(ctx, countNotice("kid", i, time.Now())); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	var sent int64
	seen := map[int64]bool{}
	for finished := false; ; {
		select {
		case <-done:
			finished = true
		default:
		}
		page, err := notices.After(ctx, "kid", sent, 1000)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range page {
			seen[n.Seq] = true
			sent = n.Seq
		}
		if finished {
			break
		}
	}
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	all, err := notices.After(ctx, "kid", 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != writers*each {
		t.Fatalf("%d notices stored", len(all))
	}
	for _, n := range all {
		if !seen[n.Seq] {
			t.Fatalf("notice %d became visible after a higher seq had been read: a stream would have skipped it", n.Seq)
		}
	}
}

func TestLatestAndAfter(t *testing.T) {
	notices, _ := store(t)
	ctx := context.Background()
	var seqs []int64
	for i := 1; i <= 5; i++ {
		n, _, err := notices.Insert(ctx, countNotice("kid", i, time.Now()))
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, n.Seq)
		if _, _, err := notices.Insert(ctx, countNotice("other-kid", i, time.Now())); err != nil {
			t.Fatal(err)
		}
	}
	latest, err := notices.Latest(ctx, "kid", 3)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(seqOf(latest)); got != fmt.Sprint([]int64{seqs[4], seqs[3], seqs[2]}) {
		t.Fatalf("latest 3: %s of %v", got, seqs)
	}
	after, err := notices.After(ctx, "kid", seqs[1], 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(seqOf(after)); got != fmt.Sprint([]int64{seqs[2], seqs[3]}) {
		t.Fatalf("2 after %d: %s of %v", seqs[1], got, seqs)
	}
	if seq, count, _ := notices.Position(ctx, "kid"); seq != seqs[4] || count != 5 {
		t.Fatalf("position: %d %d", seq, count)
	}
}

func seqOf(list []domain.Notice) []int64 {
	var out []int64
	for _, n := range list {
		out = append(out, n.Seq)
	}
	return out
}

// A user's notice numbers say nothing of anyone else's notices: each user counts 1, 2, 3 …
// however many notices other users got in between (a shared counter's gaps would count them).
func TestNoticesAreNumberedPerUser(t *testing.T) {
	notices, _ := store(t)
	ctx := context.Background()
	owner, others := "owner-"+uuid.NewString()[:8], "busy-"+uuid.NewString()[:8]
	var got []int64
	for i := 1; i <= 4; i++ {
		n, _, err := notices.Insert(ctx, countNotice(owner, i, time.Now()))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, n.Seq)
		for j := 0; j < i*3; j++ { // someone else's busy day in between
			if _, _, err := notices.Insert(ctx, countNotice(others, j, time.Now())); err != nil {
				t.Fatal(err)
			}
		}
	}
	if fmt.Sprint(got) != "[1 2 3 4]" {
		t.Fatalf("the owner's notices are numbered %v, want [1 2 3 4]", got)
	}
}

// An event for an account still on its way when the account was erased (its consumer was
// behind, or on another replica) stores nothing: no notice, no queued email. Found in the
// cluster, where a restarted notification erased Anna before its email consumer caught up.
func TestNothingIsStoredForAnAccountAfterItsErasure(t *testing.T) {
	notices, pool := store(t)
	outbox := adapters.NewEmailOutbox(pool)
	ctx := context.Background()
	before := countNotice("anna", 1, time.Now())
	if _, fresh, err := notices.Insert(ctx, before); err != nil || !fresh {
		t.Fatalf("insert before the erasure: %v %v", fresh, err)
	}
	if err := notices.EraseUser(ctx, "anna"); err != nil {
		t.Fatal(err)
	}
	if err := notices.EraseUser(ctx, "anna"); err != nil { // a redelivered user.deleted
		t.Fatal(err)
	}
	late := countNotice("anna", 2, time.Now())
	stored, fresh, err := notices.Insert(ctx, late)
	if err != nil || fresh || stored.Seq != 0 {
		t.Fatalf("a late notice for an erased account: %+v fresh=%v err=%v", stored, fresh, err)
	}
	if err := outbox.Enqueue(ctx, domain.PendingOf(late, domain.KindListChanged), time.Now(), time.Hour); err != nil {
		t.Fatal(err)
	}
	// Someone else is unaffected.
	bob := countNotice("bob", 1, time.Now())
	if _, fresh, err := notices.Insert(ctx, bob); err != nil || !fresh {
		t.Fatalf("bob's notice: %v %v", fresh, err)
	}
	if err := outbox.Enqueue(ctx, domain.PendingOf(bob, domain.KindListChanged), time.Now(), time.Hour); err != nil {
		t.Fatal(err)
	}
	for table, want := range map[string]map[string]int{
		"notices":       {"anna": 0, "bob": 1},
		"email_items":   {"anna": 0, "bob": 1},
		"email_batches": {"anna": 0, "bob": 1},
	} {
		for uid, n := range want {
			var got int
			if err := pool.QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE user_id = $1", uid).Scan(&got); err != nil || got != n {
				t.Errorf("%s rows of %s: %d, want %d (%v)", table, uid, got, n, err)
			}
		}
	}
	var mentions int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM erased_users WHERE encode(uid_hash, 'escape') LIKE '%anna%'").Scan(&mentions); err != nil || mentions != 0 {
		t.Errorf("the erasure record holds the uid itself: %d (%v)", mentions, err)
	}
}
