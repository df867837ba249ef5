package adapters_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/gateway/internal/adapters"
	"github.com/santa-wishlist/santa/services/gateway/internal/domain"
)

// redisBytes is the memory Redis reports for every key under prefix.
func redisBytes(t *testing.T, rdb *redis.Client, prefix string) (keys int, bytes int64) {
	t.Helper()
	ctx := context.Background()
	iter := rdb.Scan(ctx, 0, prefix+"*", 1000).Iterator()
	for iter.Next(ctx) {
		n, err := rdb.MemoryUsage(ctx, iter.Val()).Result()
		if err != nil {
			t.Fatal(err)
		}
		keys++
		bytes += n
	}
	if err := iter.Err(); err != nil {
		t.Fatal(err)
	}
	return keys, bytes
}

// flood claims n fresh keys for one user and finishes each with a 10 KB answer, as a client
// sending POSTs with a new Idempotency-Key each would; it returns how many were refused.
func flood(t *testing.T, s *adapters.IdempotencyStore, user string, n int) int {
	ctx := context.Background()
	answer := bytes.Repeat([]byte("x"), 10_000)
	refused := 0
	for i := range n {
		key := fmt.Sprintf("%s:/api/wishlist:key-%d", user, i)
		stored, err := s.Begin(ctx, user, key)
		if errors.Is(err, domain.ErrTooManyKeys) {
			refused++
			continue
		}
		if err != nil || stored != nil {
			t.Fatalf("key %d: %v %v", i, stored, err)
		}
		if err := s.Finish(ctx, key, domain.StoredResponse{Status: 201, ContentType: "application/json", Body: answer}); err != nil {
			t.Fatal(err)
		}
	}
	return refused
}

// 10,000 POSTs with fresh keys from one user: at most MaxKeysPerUser answers are kept, large
// ones as status and hash, for an hour. Before these bounds every answer stayed 24 h whole:
// the same test with the old behaviour's limits is run on 1,000 keys for comparison.
func TestIdempotencyKeysCannotFillRedis(t *testing.T) {
	rdb := testenv.Redis(t)
	prefix := "test-idem-" + testenv.RandomHex(4)
	t.Cleanup(func() {
		ctx := context.Background()
		iter := rdb.Scan(ctx, 0, prefix+"*", 1000).Iterator()
		for iter.Next(ctx) {
			rdb.Del(ctx, iter.Val())
		}
	})

	bounded := adapters.NewIdempotencyStore(rdb, prefix+"-new", adapters.DefaultIdempotencyLimits)
	refused := flood(t, bounded, "flooder", 10_000)
	keys, used := redisBytes(t, rdb, prefix+"-new")
	t.Logf("bounded: 10000 POSTs, %d refused (429), %d keys, %d KiB in Redis", refused, keys, used>>10)
	if kept := 10_000 - refused; kept != int(adapters.DefaultIdempotencyLimits.MaxKeysPerUser) {
		t.Errorf("kept %d keys for one user, want the cap %d", kept, adapters.DefaultIdempotencyLimits.MaxKeysPerUser)
	}
	if used > 512<<10 {
		t.Errorf("one user's flood holds %d KiB of Redis, want under 512", used>>10)
	}
	ttl, err := rdb.TTL(context.Background(), prefix+"-new:flooder:/api/wishlist:key-0").Result()
	if err != nil || ttl > time.Hour || ttl < 50*time.Minute {
		t.Errorf("answers kept for %s, want about an hour", ttl)
	}
	// Another user is not affected by the first one's cap.
	if refused := flood(t, bounded, "someone-else", 3); refused != 0 {
		t.Errorf("another user refused %d", refused)
	}

	unbounded := adapters.NewIdempotencyStore(rdb, prefix+"-old", adapters.IdempotencyLimits{
		KeepFor: 24 * time.Hour, MaxKeysPerUser: 1 << 40, MaxStoredBody: 1 << 20})
	flood(t, unbounded, "flooder", 1000)
	_, old := redisBytes(t, rdb, prefix+"-old")
	t.Logf("before (24 h, no cap, whole answers): 1000 POSTs hold %d KiB, so 10000 about %d MiB", old>>10, old*10>>20)
	if old < 10*used {
		t.Errorf("the comparison is meaningless: unbounded %d vs bounded %d bytes", old, used)
	}
}
