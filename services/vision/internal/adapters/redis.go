package adapters

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/santa-wishlist/santa/pkg/redisclient"
	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

// Redis keeps the answer cache and the daily quota counters. Every key starts with prefix,
// so tests (and several environments on one server) stay apart.
type Redis struct {
	client *redis.Client
	prefix string
}

var (
	_ domain.Cache = (*Redis)(nil)
	_ domain.Quota = (*Redis)(nil)
)

// NewRedis connects to the server at url ("redis://host:6379/0").
func NewRedis(url, prefix string) (*Redis, error) {
	client, err := redisclient.New(url)
	if err != nil {
		return nil, err
	}
	return &Redis{client: client, prefix: prefix}, nil
}

// Ping checks the server answers (readiness).
func (r *Redis) Ping(ctx context.Context) error { return r.client.Ping(ctx).Err() }

// Close closes the connection pool.
func (r *Redis) Close() error { return r.client.Close() }

// Get returns the cached answer under key, if there is one.
func (r *Redis) Get(ctx context.Context, key string) ([]byte, bool, error) {
	v, err := r.client.Get(ctx, r.prefix+"cache:"+key).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("cache get: %w", err)
	}
	return v, true, nil
}

// Set caches an answer for ttl.
func (r *Redis) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if err := r.client.Set(ctx, r.prefix+"cache:"+key, value, ttl).Err(); err != nil {
		return fmt.Errorf("cache set: %w", err)
	}
	return nil
}

// takeScript counts one call on every counter, but only if none of them has reached its
// limit; it answers the 1-based index of the first counter that has, or 0. Checking and
// counting in one script keeps two concurrent requests from both taking the last call.
var takeScript = redis.NewScript(`
for i, key in ipairs(KEYS) do
  local used = tonumber(redis.call('GET', key) or '0')
  if used >= tonumber(ARGV[i]) then return i end
end
local expireAt = tonumber(ARGV[#KEYS + 1])
for _, key in ipairs(KEYS) do
  redis.call('INCR', key)
  redis.call('EXPIREAT', key, expireAt)
end
return 0
`)

// Take counts one model call against every counter, unless one is spent; it returns that
// one. The counters expire at expireAt (the end of their day).
func (r *Redis) Take(ctx context.Context, counters []domain.Counter, expireAt time.Time) (*domain.Counter, error) {
	if len(counters) == 0 {
		return nil, nil
	}
	keys := make([]string, len(counters))
	args := make([]any, 0, len(counters)+1)
	for i, c := range counters {
		keys[i] = r.prefix + "quota:" + c.Key
		args = append(args, c.Limit)
	}
	args = append(args, expireAt.Unix())
	n, err := takeScript.Run(ctx, r.client, keys, args...).Int()
	if err != nil {
		return nil, fmt.Errorf("quota: %w", err)
	}
	if n > 0 && n <= len(counters) {
		spent := counters[n-1]
		return &spent, nil
	}
	return nil, nil
}

// Used returns how many calls a counter has taken (for tests and diagnostics).
func (r *Redis) Used(ctx context.Context, key string) (int, error) {
	n, err := r.client.Get(ctx, r.prefix+"quota:"+key).Int()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	return n, err
}

// DeleteQuotas deletes every quota counter of one subject (app.UserSubject), whatever its
// day or kind: a deleted account's counters go at once rather than at their expiry.
func (r *Redis) DeleteQuotas(ctx context.Context, subject string) error {
	iter := r.client.Scan(ctx, 0, r.prefix+"quota:*"+subject+":*", 500).Iterator()
	for iter.Next(ctx) {
		if err := r.client.Del(ctx, iter.Val()).Err(); err != nil {
			return fmt.Errorf("delete quota: %w", err)
		}
	}
	if err := iter.Err(); err != nil {
		return fmt.Errorf("find quotas: %w", err)
	}
	return nil
}

// Purge deletes every key under the prefix. Tests use it to leave the shared server clean.
func (r *Redis) Purge(ctx context.Context) error {
	iter := r.client.Scan(ctx, 0, r.prefix+"*", 200).Iterator()
	for iter.Next(ctx) {
		if err := r.client.Del(ctx, iter.Val()).Err(); err != nil {
			return err
		}
	}
	return iter.Err()
}
