// Package adapters holds the gateway's Redis-backed rate limiter and idempotency store.
package adapters

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// RateLimiter counts requests per fixed one-minute window in Redis, so every gateway replica
// shares the same counts.
type RateLimiter struct {
	rdb    *redis.Client
	prefix string
	window time.Duration
}

// NewRateLimiter builds a limiter whose keys start with prefix.
func NewRateLimiter(rdb *redis.Client, prefix string) *RateLimiter {
	return &RateLimiter{rdb: rdb, prefix: prefix, window: time.Minute}
}

// Limit is one counter to check: a scope ("ip", "user"), who, and how many per window.
type Limit struct {
	Scope string
	Key   string
	Max   int64
}

// Verdict says whether a request may pass and, if not, when to come back.
type Verdict struct {
	Allowed    bool
	Scope      string // the limit that refused
	RetryAfter time.Duration
}

// Allow counts the request against every limit in one round trip.
func (r *RateLimiter) Allow(ctx context.Context, now time.Time, limits ...Limit) (Verdict, error) {
	windowStart := now.Truncate(r.window)
	pipe := r.rdb.Pipeline()
	counts := make([]*redis.IntCmd, len(limits))
	for i, l := range limits {
		key := fmt.Sprintf("%s:%s:%s:%d", r.prefix, l.Scope, l.Key, windowStart.Unix())
		counts[i] = pipe.Incr(ctx, key)
		pipe.ExpireNX(ctx, key, r.window+5*time.Second)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return Verdict{Allowed: true}, fmt.Errorf("rate limit counters: %w", err)
	}
	for i, l := range limits {
		if counts[i].Val() > l.Max {
			retry := windowStart.Add(r.window).Sub(now)
			if retry < time.Second {
				retry = time.Second
			}
			return Verdict{Allowed: false, Scope: l.Scope, RetryAfter: retry}, nil
		}
	}
	return Verdict{Allowed: true}, nil
}
