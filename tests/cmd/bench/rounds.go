package main

import (
	"fmt"
	"strings"
	"time"
)

// contender is one side of the alternating rounds: the pgx floor, the stack's gateway, or the
// baseline commit's gateway (BENCH_BASELINE_URL). Each keeps every round's throughput and the
// CPU every process spent while it ran, summed over its rounds.
type contender struct {
	name     string
	call     func(i int) error
	rates    []float64 // requests a second, one per round
	cpu      cpuUse    // CPU seconds spent during its rounds, per process
	requests int
}

// alternate runs rounds of each contender's closed loop one after the other. The order turns
// every round (floor first, then the rest rotated), so neither gateway always runs right after
// the floor, and a machine whose load changes slows the contenders of a round alike: a round's
// ratio is comparable even when the floor itself moves from round to round.
func alternate(cfg config, processes []string, floor *contender, others ...*contender) {
	for r := range cfg.Rounds {
		order := []*contender{floor}
		for k := range others {
			order = append(order, others[(k+r)%len(others)])
		}
		for _, c := range order {
			before := readCPU(cfg.PidDir, processes)
			res := closedLoop(cfg.Concurrency, cfg.RoundDuration, c.call)
			after := readCPU(cfg.PidDir, processes)
			c.rates = append(c.rates, res.throughput())
			c.requests += len(res.latencies)
			if c.cpu == nil {
				c.cpu = cpuUse{}
			}
			for name, end := range after {
				c.cpu[name] += end - before[name]
			}
		}
	}
}

// ratios is each round's throughput of c against other's in the same round, in percent.
func (c *contender) ratios(other *contender) []float64 {
	out := make([]float64, len(c.rates))
	for i, r := range c.rates {
		out[i] = 100 * r / other.rates[i]
	}
	return out
}

// cpuLine is c's CPU per request over all its rounds, by process.
func (c *contender) cpuLine() string {
	return perRequest(cpuUse{}, c.cpu, c.requests)
}

// roundsSummary prints each alternating round's gateway / floor ratio and their median.
func roundsSummary(ratios []float64, d time.Duration) string {
	if len(ratios) == 0 {
		return "no alternating rounds (BENCH_ROUNDS=0)"
	}
	parts := make([]string, len(ratios))
	for i, r := range ratios {
		parts[i] = fmt.Sprintf("%.0f%%", r)
	}
	return fmt.Sprintf("alternating rounds of %s: %s, median %.0f%%", d, strings.Join(parts, ", "), median(ratios))
}
