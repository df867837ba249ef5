// Package redisclient opens the Redis client every service uses.
package redisclient

import (
	"fmt"

	"github.com/redis/go-redis/v9"
)

// bufferSize suits what we keep in Redis (counters, stored answers of a few kilobytes, cached
// analyses): larger replies still arrive whole, in more reads. go-redis's defaults (32 KiB per
// connection each way, 128 KiB on pipeline connections) held a quarter of a megabyte per
// pipeline connection, a large share of a small service's memory.
const bufferSize = 4 << 10

// New parses a redis:// URL and opens a client with small connection buffers.
func New(url string) (*redis.Client, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("REDIS_URL: %w", err)
	}
	opts.ReadBufferSize, opts.WriteBufferSize = bufferSize, bufferSize
	opts.PipelineReadBufferSize, opts.PipelineWriteBufferSize = bufferSize, bufferSize
	return redis.NewClient(opts), nil
}
