package adapters

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/santa-wishlist/santa/services/gateway/internal/domain"
)

// IdempotencyStore remembers the answer to a POST by its Idempotency-Key, so a double tap or a
// retried request adds one item and both callers see the same answer.
//
// What it keeps is bounded, because a signed-in user may send any number of fresh keys: each
// user may claim at most MaxKeysPerUser keys per KeepFor (then 429), answers are kept for
// KeepFor (retries come within seconds or minutes, not a day), and an answer over
// MaxStoredBody bytes is kept as its status and SHA-256 only. One user can so hold at most
// about MaxKeysPerUser × MaxStoredBody bytes of Redis.
type IdempotencyStore struct {
	rdb     *redis.Client
	prefix  string
	lockTTL time.Duration
	limits  IdempotencyLimits
}

var _ domain.IdempotencyStore = (*IdempotencyStore)(nil)

// IdempotencyLimits bound what the store keeps.
type IdempotencyLimits struct {
	KeepFor        time.Duration
	MaxKeysPerUser int64
	MaxStoredBody  int
}

// DefaultIdempotencyLimits: an hour, 300 keys a user, 4 KiB answers.
var DefaultIdempotencyLimits = IdempotencyLimits{KeepFor: time.Hour, MaxKeysPerUser: 300, MaxStoredBody: 4 << 10}

// NewIdempotencyStore builds a store whose keys start with prefix.
func NewIdempotencyStore(rdb *redis.Client, prefix string, limits IdempotencyLimits) *IdempotencyStore {
	return &IdempotencyStore{rdb: rdb, prefix: prefix, lockTTL: time.Minute, limits: limits}
}

const pendingMarker = "pending"

// Begin claims the key for user. It returns (nil, nil) when this request is the first and
// must run; the stored answer when one exists; ErrInProgress when the first is still running;
// ErrTooManyKeys when the user has claimed too many keys lately.
func (s *IdempotencyStore) Begin(ctx context.Context, user, key string) (*domain.StoredResponse, error) {
	full := s.prefix + ":" + key
	claimed, err := s.rdb.SetNX(ctx, full, pendingMarker, s.lockTTL).Result()
	if err != nil {
		return nil, fmt.Errorf("claim idempotency key: %w", err)
	}
	if claimed {
		// Count the user's fresh keys in a window of KeepFor that starts with the first.
		count := s.prefix + ":n:" + user
		pipe := s.rdb.Pipeline()
		n := pipe.Incr(ctx, count)
		pipe.ExpireNX(ctx, count, s.limits.KeepFor)
		if _, err := pipe.Exec(ctx); err != nil {
			_ = s.Abandon(ctx, key)
			return nil, fmt.Errorf("count idempotency keys: %w", err)
		}
		if n.Val() > s.limits.MaxKeysPerUser {
			_ = s.Abandon(ctx, key)
			return nil, domain.ErrTooManyKeys
		}
		return nil, nil
	}
	raw, err := s.rdb.Get(ctx, full).Result()
	if errors.Is(err, redis.Nil) {
		// Expired between the two calls: claim again.
		return s.Begin(ctx, user, key)
	}
	if err != nil {
		return nil, fmt.Errorf("read idempotency key: %w", err)
	}
	if raw == pendingMarker {
		return nil, domain.ErrInProgress
	}
	var stored domain.StoredResponse
	if err := json.Unmarshal([]byte(raw), &stored); err != nil {
		return nil, fmt.Errorf("decode stored response: %w", err)
	}
	return &stored, nil
}

// Finish keeps the answer for replay: whole when small, as status and hash when large.
func (s *IdempotencyStore) Finish(ctx context.Context, key string, resp domain.StoredResponse) error {
	if len(resp.Body) > s.limits.MaxStoredBody {
		sum := sha256.Sum256(resp.Body)
		resp.Body, resp.BodyHash = nil, sum[:]
	}
	raw, err := json.Marshal(resp)
	if err != nil {
		return err
	}
	return s.rdb.Set(ctx, s.prefix+":"+key, raw, s.limits.KeepFor).Err()
}

// Abandon releases the key so the client may retry (the first attempt failed on our side).
func (s *IdempotencyStore) Abandon(ctx context.Context, key string) error {
	return s.rdb.Del(ctx, s.prefix+":"+key).Err()
}

// ForgetUser deletes a deleted account's stored answers and its key count.
func (s *IdempotencyStore) ForgetUser(ctx context.Context, uid string) error {
	if err := deleteMatching(ctx, s.rdb, escapeGlob(s.prefix+":"+uid+":")+"*"); err != nil {
		return err
	}
	return s.rdb.Del(ctx, s.prefix+":n:"+uid).Err()
}
