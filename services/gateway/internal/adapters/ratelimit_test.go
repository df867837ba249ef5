package adapters_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/gateway/internal/adapters"
	"github.com/santa-wishlist/santa/services/gateway/internal/domain"
)

// A fixed instant 20 s into a minute, so windows are predictable.
var noon = time.Date(2026, 12, 24, 12, 0, 20, 0, time.UTC)

func allowed(l *adapters.RateLimiter, now time.Time, n int, limit domain.Limit) int {
	passed := 0
	for i := 0; i < n; i++ {
		if l.Allow(now, limit).Allowed {
			passed++
		}
	}
	return passed
}

func TestOneGatewayIsExactWithoutWaitingForRedis(t *testing.T) {
	rdb := testenv.Redis(t)
	l := adapters.NewRateLimiter(rdb, "test-rl-"+testenv.RandomHex(4))
	ip := domain.Limit{Scope: "ip", Key: "203.0.113.7", Max: 3}

	if got := allowed(l, noon, 3, ip); got != 3 {
		t.Fatalf("%d of the first 3 passed", got)
	}
	v := l.Allow(noon, ip)
	if v.Allowed || v.Scope != "ip" || v.RetryAfter != 40*time.Second {
		t.Fatalf("4th: %+v, want refused by ip, retry after the window's last 40 s", v)
	}
	// Syncing changes nothing for a lone gateway.
	if err := l.Sync(context.Background(), noon); err != nil {
		t.Fatal(err)
	}
	if l.Allow(noon.Add(time.Second), ip).Allowed {
		t.Fatal("the limit lifted after a sync")
	}
	// The next minute is a new window.
	if !l.Allow(noon.Add(time.Minute), ip).Allowed {
		t.Fatal("the next window refused its first request")
	}
}

func TestGatewaysShareTheirCountsThroughRedis(t *testing.T) {
	rdb := testenv.Redis(t)
	prefix := "test-rl-" + testenv.RandomHex(4)
	a, b := adapters.NewRateLimiter(rdb, prefix), adapters.NewRateLimiter(rdb, prefix)
	user := domain.Limit{Scope: "user", Key: "alice", Max: 5}
	ctx := context.Background()

	if got := allowed(a, noon, 3, user); got != 3 {
		t.Fatalf("gateway a passed %d of 3", got)
	}
	if err := a.Sync(ctx, noon); err != nil {
		t.Fatal(err)
	}
	// b has not counted yet, so it knows nothing of a's 3 until its own first sync.
	if got := allowed(b, noon, 1, user); got != 1 {
		t.Fatal("b refused its first request")
	}
	if err := b.Sync(ctx, noon); err != nil {
		t.Fatal(err)
	}
	// Now b knows the total is 4: one more passes, then the limit holds.
	if got := allowed(b, noon, 3, user); got != 1 {
		t.Fatalf("b passed %d of 3 with 4 of 5 used", got)
	}
	if err := b.Sync(ctx, noon); err != nil {
		t.Fatal(err)
	}
	if err := a.Sync(ctx, noon); err != nil { // nothing pending: a learns only when it counts
		t.Fatal(err)
	}
	v := a.Allow(noon, user)
	if err := a.Sync(ctx, noon); err != nil {
		t.Fatal(err)
	}
	if !v.Allowed { // a judged on its own stale total of 3 (+1), within one interval's leeway
		t.Fatal("a refused before it could know b's counts")
	}
	if a.Allow(noon, user).Allowed {
		t.Fatal("a let a request through after learning the total is over the limit")
	}

	// Redis holds every request counted, refused ones too, and lets the key expire after the window.
	key := prefix + ":user:alice:" + strconv.FormatInt(noon.Truncate(time.Minute).Unix(), 10)
	if n, err := rdb.Get(ctx, key).Int(); err != nil || n != 8 {
		t.Fatalf("Redis count %d (%v), want 8", n, err)
	}
	if ttl := rdb.TTL(ctx, key).Val(); ttl <= 0 {
		t.Fatalf("key %s has no expiry (%s)", key, ttl)
	}
}

func TestLimitsHoldWhileRedisIsDownAndCountsWaitForIt(t *testing.T) {
	down := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	t.Cleanup(func() { _ = down.Close() })
	l := adapters.NewRateLimiter(down, "test-rl-"+testenv.RandomHex(4))
	ip := domain.Limit{Scope: "ip", Key: "198.51.100.1", Max: 2}

	allowed(l, noon, 2, ip)
	if err := l.Sync(context.Background(), noon); err == nil {
		t.Fatal("sync to an unreachable Redis reported success")
	}
	if l.Allow(noon, ip).Allowed {
		t.Fatal("a failed sync lifted the limit")
	}
}

func TestRunSendsTheLastCountsWhenItStops(t *testing.T) {
	rdb := testenv.Redis(t)
	prefix := "test-rl-" + testenv.RandomHex(4)
	l := adapters.NewRateLimiter(rdb, prefix)
	now := time.Now()
	if untilNext := now.Truncate(time.Minute).Add(time.Minute).Sub(now); untilNext < 2*time.Second {
		time.Sleep(untilNext) // the final sync must happen in the same window
		now = time.Now()
	}
	allowed(l, now, 4, domain.Limit{Scope: "ip", Key: "192.0.2.9", Max: 100})

	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.Run(ctx, time.Hour, func(err error) { t.Errorf("sync: %v", err) }) // only the final sync runs
	}()
	stop()
	<-done
	key := prefix + ":ip:192.0.2.9:" + strconv.FormatInt(now.Truncate(time.Minute).Unix(), 10)
	if n, _ := rdb.Get(context.Background(), key).Int(); n != 4 {
		t.Fatalf("Redis count %d after stopping, want 4", n)
	}
}

// Two gateways: a erases a deleted account while b still holds a count from before the
// deletion and sends it at its next sync. No key of the account is left once a is done.
func TestForgetUserOutlastsAnotherGatewaysLateSync(t *testing.T) {
	rdb := testenv.Redis(t)
	prefix := "test-rl-" + testenv.RandomHex(4)
	a, b := adapters.NewRateLimiter(rdb, prefix), adapters.NewRateLimiter(rdb, prefix)
	user := domain.Limit{Scope: "user", Key: "gone-" + testenv.RandomHex(4), Max: 100}
	ctx := context.Background()
	now := time.Now()
	allowed(a, now, 2, user)
	allowed(b, now, 2, user)
	if err := a.Sync(ctx, now); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.ForgetUser(ctx, user.Key) }()
	time.Sleep(200 * time.Millisecond) // a's first sweep is over; b syncs late
	if err := b.Sync(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	if keys, _ := rdb.Keys(ctx, prefix+":user:"+user.Key+":*").Result(); len(keys) == 0 {
		t.Fatal("b's late count did not reach Redis: the test proves nothing")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if keys, _ := rdb.Keys(ctx, prefix+":user:"+user.Key+":*").Result(); len(keys) > 0 {
		t.Fatalf("keys of the deleted account left: %v", keys)
	}
}
