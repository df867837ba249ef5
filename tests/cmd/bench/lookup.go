package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/redis/go-redis/v9"
)

// benchCode is a product of the fake databases (Open Products Facts, after Open Food Facts
// says it does not know it): a miss asks two upstreams.
const benchCode = "5901234123457"

// runLookup measures POST /api/lookup/barcode through the gateway: answered from the Redis
// cache (closed loop), and from the fake upstreams (the cache entry deleted before each call,
// paced under our own Open Facts limit of 100 a minute, burst 10, so none is throttled).
func runLookup(cfg config) {
	rdb := redis.NewClient(mustRedis(get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")))
	defer rdb.Close()
	key := get("BENCH_LOOKUP_KEY_PREFIX", "vision:cache:barcode:") + benchCode
	ctx := context.Background()
	client := &http.Client{Timeout: 10 * time.Second}
	lookup := func() error {
		resp, err := client.Post(cfg.URL+"/api/lookup/barcode", "application/json", bytes.NewReader([]byte(`{"code":"`+benchCode+`"}`)))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("lookup answered %d", resp.StatusCode)
		}
		return nil
	}

	var samples int
	fmt.Sscan(get("BENCH_LOOKUP_UPSTREAM_SAMPLES", "30"), &samples)
	pace := 650 * time.Millisecond
	upstream := &result{}
	start := time.Now()
	for i := 0; i < samples; i++ {
		next := start.Add(time.Duration(i) * pace)
		time.Sleep(time.Until(next))
		if err := rdb.Del(ctx, key).Err(); err != nil {
			log.Fatalf("redis: %v", err)
		}
		t0 := time.Now()
		if err := lookup(); err != nil {
			upstream.errors++
			log.Printf("upstream lookup: %v", err)
			continue
		}
		upstream.latencies = append(upstream.latencies, time.Since(t0))
	}
	upstream.elapsed = time.Since(start)

	if err := lookup(); err != nil { // the answer the cached loop reads
		log.Fatalf("warming the cache: %v", err)
	}
	cached := closedLoop(cfg.Concurrency, cfg.Duration, func(int) error { return lookup() })

	fmt.Println()
	fmt.Printf("POST /api/lookup/barcode through the gateway (code %s)\n", benchCode)
	fmt.Println(header())
	fmt.Println(cached.row(fmt.Sprintf("cache hit, %d concurrent", cfg.Concurrency)))
	fmt.Println(upstream.row(fmt.Sprintf("fake upstream, %d paced", samples)))
	fmt.Printf("lookup p50/p99: cache %.2f/%.2f ms, fake upstream %.2f/%.2f ms\n",
		ms(cached.percentile(50)), ms(cached.percentile(99)), ms(upstream.percentile(50)), ms(upstream.percentile(99)))
}

func get(k, d string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return d
}

func mustRedis(url string) *redis.Options {
	o, err := redis.ParseURL(url)
	if err != nil {
		log.Fatalf("BENCH_REDIS_URL: %v", err)
	}
	return o
}
