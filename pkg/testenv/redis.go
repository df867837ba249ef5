package testenv

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
)

// RedisURL is the Redis server tests use. Tests share it, so they prefix their keys.
func RedisURL() string { return env("TEST_REDIS_URL", "redis://127.0.0.1:6379/0") }

// Redis returns a client on the test Redis, closed when the test ends.
func Redis(t testing.TB) *redis.Client {
	t.Helper()
	opts, err := redis.ParseURL(RedisURL())
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opts)
	if err := c.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("connect to Redis at %s: %v", RedisURL(), err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}
