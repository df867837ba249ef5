package main

import (
	"context"
	"fmt"
	"log"
	"sync"
	"sync/atomic"
	"time"
)

// runStorm is Christmas morning's opening storm: BENCH_STREAMS devices (8,000 by default) open
// their live streams all at once, unpaced, each retrying a shed open after Retry-After with
// jitter as the web client does. It prints, per service, resident memory before, at its peak
// (sampled every 100 ms from /proc), once every stream is open, and a minute after every
// stream has closed again, against the chart's memory limit.
func runStorm(cfg config) {
	n := envInt("BENCH_STREAMS", 8000)
	log.Printf("storm: signing up %d users for %d streams", (n+streamsPerUser-1)/streamsPerUser, n)
	f := newFleet(cfg, n, "storm")
	names := []string{"gateway", "notification"}

	// The steady state: what each process holds once it has served streams (a process that
	// has served nothing yet has not even paged in its code), with nothing open and requests
	// paused.
	warmUp(cfg, newFleet(cfg, 100, "storm-warm-up"))
	time.Sleep(6 * time.Second)
	before := map[string]float64{}
	for _, name := range names {
		before[name], _, _ = processMemory(cfg.PidDir, name)
	}
	peaks := newPeakSampler(cfg.PidDir, names)
	stopSampling := peaks.run(100 * time.Millisecond)

	ctx, cancel := context.WithCancel(context.Background())
	seen := &answers{codes: map[int]int{}}
	ups := make([]atomic.Int64, n)
	var wg sync.WaitGroup
	for i, s := range f.streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			keepLive(ctx, cfg.URL, f.users[s.user].Token, s, seen, &ups[i])
		}()
	}
	took, all := f.waitUp(180 * time.Second)
	seen.mu.Lock()
	codes := fmt.Sprint(seen.codes)
	seen.mu.Unlock()
	open := map[string]float64{}
	for _, name := range names {
		open[name], _, _ = processMemory(cfg.PidDir, name)
	}
	log.Printf("storm: %d of %d open after %s (opens answered %s)", f.upCount(), n, took.Round(time.Millisecond), codes)

	// Every device goes away; a minute later each service should be back near its steady state.
	cancel()
	wg.Wait()
	time.Sleep(60 * time.Second)
	stopSampling()

	fmt.Printf("opening storm: %d devices (%d users x %d) opening at once, unpaced, retrying after Retry-After\n", n, len(f.users), streamsPerUser)
	verdict := "all open"
	if !all {
		verdict = fmt.Sprintf("only %d open", f.upCount())
	}
	fmt.Printf("  %s after %s; opens answered %s\n", verdict, took.Round(100*time.Millisecond), codes)
	fmt.Printf("  %-13s %10s %10s %12s %16s %14s\n", "RSS MB", "before", "peak", "all open", "1 min after close", "chart limit")
	for _, name := range names {
		after, _, _ := processMemory(cfg.PidDir, name)
		limit, hasLimit := chartMemoryLimitMB(name)
		peak := peaks.peak(name)
		mark := ""
		if hasLimit {
			mark = fmt.Sprintf("%.0f Mi: peak %s half, after %s 2x before", limit,
				check(peak/1024 < limit/2, "under", "OVER"), check(after < 2*before[name], "under", "OVER"))
		}
		fmt.Printf("  %-13s %10.1f %10.1f %12.1f %16.1f   %s\n", name, before[name]/1024, peak/1024, open[name]/1024, after/1024, mark)
	}
}

// warmUp opens the fleet's streams (users of their own, so the storm's users start with
// none open), paced, and closes them again.
func warmUp(cfg config, f *streamFleet) {
	n := len(f.streams)
	ctx, cancel := context.WithCancel(context.Background())
	seen := &answers{codes: map[int]int{}}
	ups := make([]atomic.Int64, n)
	var wg sync.WaitGroup
	for i, s := range f.streams[:n] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			keepLive(ctx, cfg.URL, f.users[s.user].Token, s, seen, &ups[i])
		}()
		time.Sleep(10 * time.Millisecond)
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		up := 0
		for _, s := range f.streams[:n] {
			if s.up.Load() {
				up++
			}
		}
		if up == n {
			break
		}
	}
	cancel()
	wg.Wait()
}

func check(ok bool, yes, no string) string {
	if ok {
		return yes + " ✓"
	}
	return no + " ✗"
}

// peakSampler records each process's highest resident memory.
type peakSampler struct {
	pidDir string
	names  []string
	mu     sync.Mutex
	peaks  map[string]float64
}

func newPeakSampler(pidDir string, names []string) *peakSampler {
	return &peakSampler{pidDir: pidDir, names: names, peaks: map[string]float64{}}
}

func (p *peakSampler) run(every time.Duration) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			for _, name := range p.names {
				if rss, _, ok := processMemory(p.pidDir, name); ok {
					p.mu.Lock()
					p.peaks[name] = max(p.peaks[name], rss)
					p.mu.Unlock()
				}
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}

func (p *peakSampler) peak(name string) float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.peaks[name]
}
