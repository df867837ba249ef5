package adapters

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

// testRedis is the test Redis under a prefix no other test uses; its keys are removed when
// the test ends.
func testRedis(t *testing.T) *Redis {
	t.Helper()
	prefix := "vision-test:" + testenv.RandomHex(6) + ":"
	r, err := NewRedis(testenv.RedisURL(), prefix)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Ping(context.Background()); err != nil {
		t.Fatalf("Redis at %s: %v", testenv.RedisURL(), err)
	}
	t.Cleanup(func() {
		_ = r.Purge(context.Background())
		_ = r.Close()
	})
	return r
}

func TestRedisCache(t *testing.T) {
	r := testRedis(t)
	ctx := context.Background()
	if _, ok, err := r.Get(ctx, "k"); ok || err != nil {
		t.Fatalf("empty cache: %v %v", ok, err)
	}
	if err := r.Set(ctx, "k", []byte(`{"name":"x"}`), time.Minute); err != nil {
		t.Fatal(err)
	}
	v, ok, err := r.Get(ctx, "k")
	if !ok || err != nil || string(v) != `{"name":"x"}` {
		t.Fatalf("%q %v %v", v, ok, err)
	}
	ttl := r.client.TTL(ctx, r.prefix+"cache:k").Val()
	if ttl <= 0 || ttl > time.Minute {
		t.Fatalf("ttl %s", ttl)
	}
}

func TestRedisQuotaCountsUntilTheLimit(t *testing.T) {
	r := testRedis(t)
	ctx := context.Background()
	expireAt := time.Now().Add(time.Hour)
	counters := []domain.Counter{{Scope: "user", Key: "u", Limit: 2}, {Scope: "ip", Key: "ip", Limit: 3}}

	for i := range 2 {
		if spent, err := r.Take(ctx, counters, expireAt); spent != nil || err != nil {
			t.Fatalf("call %d: %v %v", i+1, spent, err)
		}
	}
	spent, err := r.Take(ctx, counters, expireAt)
	if err != nil || spent == nil || spent.Scope != "user" {
		t.Fatalf("third call: %+v %v", spent, err)
	}
	// A refused call counts against nothing.
	if n, _ := r.Used(ctx, "ip"); n != 2 {
		t.Fatalf("ip used %d, want 2", n)
	}
	// Another user on the same address has one call left there.
	other := []domain.Counter{{Scope: "user", Key: "u2", Limit: 2}, {Scope: "ip", Key: "ip", Limit: 3}}
	if spent, _ := r.Take(ctx, other, expireAt); spent != nil {
		t.Fatal("fourth call from the address refused")
	}
	if spent, _ := r.Take(ctx, other, expireAt); spent == nil || spent.Scope != "ip" {
		t.Fatalf("fifth call from the address: %+v", spent)
	}
	exp := r.client.ExpireTime(ctx, r.prefix+"quota:ip").Val()
	if got := time.Unix(int64(exp/time.Second), 0); got.Sub(expireAt).Abs() > time.Second {
		t.Fatalf("expires at %s, want %s", got, expireAt)
	}
}

func TestRedisQuotaIsExactUnderConcurrency(t *testing.T) {
	r := testRedis(t)
	ctx := context.Background()
	counters := []domain.Counter{{Scope: "ip", Key: "busy", Limit: 10}}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		granted int
	)
	for range 40 {
		wg.Go(func() {
			spent, err := r.Take(ctx, counters, time.Now().Add(time.Hour))
			if err != nil {
				t.Error(err)
				return
			}
			if spent == nil {
				mu.Lock()
				granted++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if granted != 10 {
		t.Fatalf("%d calls granted, want 10", granted)
	}
}
