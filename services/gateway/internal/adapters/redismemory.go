package adapters

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
)

// RedisMemory reports Redis's memory at scrape time (INFO memory), so the dashboard and the
// alerts see it fill before maxmemory refuses writes: the chart's Redis runs with noeviction,
// which never drops rate-limit or idempotency state silently but refuses new keys when full.
type RedisMemory struct {
	rdb       *redis.Client
	used, max *prometheus.Desc
}

// NewRedisMemory builds the collector of gateway_redis_memory_used_bytes and
// gateway_redis_memory_max_bytes (0 when Redis has no maxmemory).
func NewRedisMemory(rdb *redis.Client) *RedisMemory {
	return &RedisMemory{rdb: rdb,
		used: prometheus.NewDesc("gateway_redis_memory_used_bytes", "Memory Redis uses (INFO memory used_memory).", nil, nil),
		max:  prometheus.NewDesc("gateway_redis_memory_max_bytes", "Redis's maxmemory; 0 means no limit.", nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (r *RedisMemory) Describe(ch chan<- *prometheus.Desc) { ch <- r.used; ch <- r.max }

// Collect implements prometheus.Collector; an unreachable Redis reports nothing.
func (r *RedisMemory) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	info, err := r.rdb.Info(ctx, "memory").Result()
	if err != nil {
		return
	}
	for _, line := range strings.Split(info, "\n") {
		name, value, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		n, err := strconv.ParseFloat(value, 64)
		if err != nil {
			continue
		}
		switch name {
		case "used_memory":
			ch <- prometheus.MustNewConstMetric(r.used, prometheus.GaugeValue, n)
		case "maxmemory":
			ch <- prometheus.MustNewConstMetric(r.max, prometheus.GaugeValue, n)
		}
	}
}
