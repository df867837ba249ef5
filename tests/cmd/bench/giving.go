package main

import (
	"fmt"
	"log"
	"net/http"
	"sort"
	"strings"
)

// runGivingBench measures what group gifts cost a giver's shared list answer, per request
// through the gateway (issue: within 15% of the answer before group gifts): one relative opens
// two lists of the same 50 items, one with no group gift (the answer as it was before group
// gifts: no item has one) and one where 10 items have a group gift of 5 pledges each.
// Closed-loop rounds alternate the two, so a busy machine slows both alike; the cost per
// request is the inverse of the throughput at saturation, and the CPU every process spent.
func runGivingBench(cfg config, users []user) {
	if len(users) < 9 {
		log.Printf("giving bench needs at least 9 users")
		return
	}
	before, withGifts, viewer := users[1], users[2], users[3]
	pledgers := users[4:9]
	beforeToken, _, err := shareDefaultList(cfg, before)
	if err != nil {
		log.Printf("giving bench: %v", err)
		return
	}
	givingToken, items, err := shareDefaultList(cfg, withGifts)
	if err != nil || len(items) < 10 {
		log.Printf("giving bench: %v (%d items)", err, len(items))
		return
	}
	for _, id := range items[:10] {
		base := cfg.URL + "/api/shared/" + givingToken + "/items/" + id
		if err := call(http.MethodPost, base+"/group-gift", pledgers[0].Token, `{"target":"500.00","currency":"USD","amount":"10.00"}`, nil); err != nil {
			log.Printf("giving bench: start: %v", err)
			return
		}
		for _, p := range pledgers[1:] {
			if err := call(http.MethodPut, base+"/pledge", p.Token, `{"amount":"12.34"}`, nil); err != nil {
				log.Printf("giving bench: pledge: %v", err)
				return
			}
		}
	}
	open := func(token string) func(int) error {
		return func(int) error { return call(http.MethodGet, cfg.URL+"/api/shared/"+token, viewer.Token, "", nil) }
	}
	rounds := max(cfg.Rounds, 1)
	var costRatios, cpuRatios []float64
	var lines []string
	for i := range rounds {
		cpu0 := readCPU(cfg.PidDir, cfg.Services)
		b := closedLoop(cfg.Concurrency, cfg.RoundDuration, open(beforeToken))
		cpu1 := readCPU(cfg.PidDir, cfg.Services)
		g := closedLoop(cfg.Concurrency, cfg.RoundDuration, open(givingToken))
		cpu2 := readCPU(cfg.PidDir, cfg.Services)
		costRatios = append(costRatios, 100*b.throughput()/g.throughput())
		bCPU, gCPU := cpuPerRequest(cpu0, cpu1, len(b.latencies)), cpuPerRequest(cpu1, cpu2, len(g.latencies))
		if bCPU > 0 {
			cpuRatios = append(cpuRatios, 100*gCPU/bCPU)
		}
		lines = append(lines, fmt.Sprintf("  round %d: before %6.0f req/s p50 %5.2f ms CPU %4.0f µs | 10 group gifts %6.0f req/s p50 %5.2f ms CPU %4.0f µs",
			i+1, b.throughput(), ms(b.percentile(50)), bCPU, g.throughput(), ms(g.percentile(50)), gCPU))
	}
	fmt.Printf("a giver's GET /api/shared of 50 items: before group gifts against 10 group gifts x 5 pledges, %d concurrent, alternating rounds of %s\n",
		cfg.Concurrency, cfg.RoundDuration)
	fmt.Println(strings.Join(lines, "\n"))
	fmt.Printf("group gifts / before, cost per request (inverse throughput): median %.0f%% of %s; CPU per request (every process): median %s (target at most 115%%)\n",
		median(costRatios), percents(costRatios), medianOrNone(cpuRatios))
}

// shareDefaultList shares the user's default list and returns its link token and item ids.
func shareDefaultList(cfg config, u user) (string, []string, error) {
	var lists []struct{ ID string }
	if err := call(http.MethodGet, cfg.URL+"/api/lists", u.Token, "", &lists); err != nil || len(lists) == 0 {
		return "", nil, fmt.Errorf("lists: %v", err)
	}
	var share struct{ Token string }
	if err := call(http.MethodPost, cfg.URL+"/api/lists/"+lists[0].ID+"/share", u.Token, "", &share); err != nil {
		return "", nil, fmt.Errorf("share: %w", err)
	}
	var items []struct{ ID string }
	if err := call(http.MethodGet, cfg.URL+"/api/wishlist", u.Token, "", &items); err != nil {
		return "", nil, fmt.Errorf("items: %w", err)
	}
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.ID
	}
	return share.Token, ids, nil
}

// cpuPerRequest is the CPU every measured process spent per request between two snapshots, in
// µs (0 when the stack's processes are not known).
func cpuPerRequest(before, after cpuUse, requests int) float64 {
	if len(after) == 0 || requests == 0 {
		return 0
	}
	total := 0.0
	for name, end := range after {
		total += end - before[name]
	}
	return total / float64(requests) * 1e6
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func medianOrNone(v []float64) string {
	if len(v) == 0 {
		return "not measured (no pid files)"
	}
	return fmt.Sprintf("%.0f%% of %s", median(v), percents(v))
}

func percents(v []float64) string {
	parts := make([]string, len(v))
	for i, r := range v {
		parts[i] = fmt.Sprintf("%.0f%%", r)
	}
	return "[" + strings.Join(parts, " ") + "]"
}
