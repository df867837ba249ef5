package main

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// result holds every latency of a run, so percentiles are exact.
type result struct {
	latencies []time.Duration
	errors    int64
	elapsed   time.Duration
}

func (r *result) throughput() float64 { return float64(len(r.latencies)) / r.elapsed.Seconds() }

func (r *result) percentile(p float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	sort.Slice(r.latencies, func(i, j int) bool { return r.latencies[i] < r.latencies[j] })
	idx := int(float64(len(r.latencies)-1) * p / 100)
	return r.latencies[idx]
}

func header() string {
	return fmt.Sprintf("  %-26s %10s %9s %9s %9s %7s", "", "req/s", "p50 ms", "p99 ms", "max ms", "errors")
}

func (r *result) row(name string) string {
	return fmt.Sprintf("  %-26s %10.0f %9.2f %9.2f %9.2f %7d", name, r.throughput(),
		ms(r.percentile(50)), ms(r.percentile(99)), ms(r.percentile(100)), r.errors)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// closedLoop runs workers that each send the next request as soon as the last answered: the
// most the system can do.
func closedLoop(workers int, d time.Duration, call func(i int) error) *result {
	var mu sync.Mutex
	res := &result{}
	var errs atomic.Int64
	var n atomic.Int64
	deadline := time.Now().Add(d)
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var local []time.Duration
			for time.Now().Before(deadline) {
				t0 := time.Now()
				if err := call(int(n.Add(1))); err != nil {
					errs.Add(1)
					continue
				}
				local = append(local, time.Since(t0))
			}
			mu.Lock()
			res.latencies = append(res.latencies, local...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	res.errors = errs.Load()
	return res
}

// openLoop sends requests at a fixed rate whatever the answers do, and measures each from
// its scheduled start, so a stall shows up in the percentiles instead of slowing the load.
func openLoop(rate int, d time.Duration, call func(i int) error) *result {
	total := int(float64(rate) * d.Seconds())
	interval := time.Second / time.Duration(rate)
	res := &result{latencies: make([]time.Duration, 0, total)}
	var mu sync.Mutex
	var errs atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < total; i++ {
		scheduled := start.Add(time.Duration(i) * interval)
		time.Sleep(time.Until(scheduled))
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if err := call(i); err != nil {
				errs.Add(1)
				return
			}
			lat := time.Since(scheduled)
			mu.Lock()
			res.latencies = append(res.latencies, lat)
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	res.errors = errs.Load()
	return res
}
