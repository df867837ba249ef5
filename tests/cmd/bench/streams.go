package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// streamsPerUser matches the notification service's MaxStreamsPerUser: a household's phones,
// tablets and tabs.
const streamsPerUser = 10

// liveStream is one device's open stream, as the web app holds it: it remembers the last
// event id, so a reconnection resumes where it stopped.
type liveStream struct {
	user    int
	lastID  atomic.Int64
	up      atomic.Bool
	mu      sync.Mutex
	arrived map[string]time.Time // item id -> when its count update arrived
	dupes   int
}

func (s *liveStream) got(itemID string, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.arrived[itemID]; ok {
		s.dupes++
		return
	}
	s.arrived[itemID] = at
}

// streamClient opens every stream on a connection of its own, as separate phones do.
var streamClient = &http.Client{Transport: &http.Transport{
	DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
	MaxIdleConnsPerHost: -1, // a finished stream's connection is not kept
	DisableCompression:  true,
}}

// openLive connects s once and reads it until it ends. ready is called with the answer's
// status (and Retry-After) before any event is read; the returned error says why it ended.
func openLive(ctx context.Context, base, token string, s *liveStream, ready func(status int, retryAfter string)) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/notifications/stream", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "text/event-stream")
	if id := s.lastID.Load(); id > 0 {
		req.Header.Set("Last-Event-ID", strconv.FormatInt(id, 10))
	}
	resp, err := streamClient.Do(req)
	if err != nil {
		ready(0, "")
		return err
	}
	defer resp.Body.Close()
	ready(resp.StatusCode, resp.Header.Get("Retry-After"))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("stream answered %d", resp.StatusCode)
	}
	rd := bufio.NewReaderSize(resp.Body, 512)
	var event, id string
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			return err
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "id: "):
			id = line[4:]
		case strings.HasPrefix(line, "event: "):
			event = line[7:]
		case strings.HasPrefix(line, "data: "):
			if event == "hello" {
				s.up.Store(true)
			}
			if event == "wishlist-count" {
				var d struct {
					ItemID string `json:"itemId"`
				}
				if json.Unmarshal([]byte(line[6:]), &d) == nil && d.ItemID != "" {
					s.got(d.ItemID, time.Now())
				}
			}
		case line == "":
			if n, err := strconv.ParseInt(id, 10, 64); err == nil {
				s.lastID.Store(n)
			}
			event, id = "", ""
		}
	}
}

// processMemory is a process's resident memory in KB from /proc: VmRSS and its own (anonymous)
// part.
func processMemory(pidDir, name string) (rss, anon float64, ok bool) {
	pid, found := stackPID(pidDir, name)
	if !found {
		return 0, 0, false
	}
	status, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0, 0, false
	}
	for _, line := range strings.Split(string(status), "\n") {
		k, v, _ := strings.Cut(line, ":")
		var n float64
		fmt.Sscan(strings.TrimSpace(v), &n)
		switch k {
		case "VmRSS":
			rss = n
		case "RssAnon":
			anon = n
		}
	}
	return rss, anon, true
}

// chartMemoryLimitMB reads services.<name>.resources.limits.memory (in Mi) from the chart's
// values, so the bench checks the limit the cluster really gets.
func chartMemoryLimitMB(name string) (float64, bool) {
	b, err := os.ReadFile("charts/santa-wishlist/values.yaml")
	if err != nil {
		return 0, false
	}
	text := string(b)
	at := strings.Index(text, "\nservices:\n")
	if at < 0 {
		return 0, false
	}
	text = text[at:]
	at = strings.Index(text, "\n  "+name+":\n")
	if at < 0 {
		return 0, false
	}
	m := regexp.MustCompile(`limits: \{[^}]*memory: (\d+)Mi`).FindStringSubmatch(text[at:])
	if m == nil {
		return 0, false
	}
	n, _ := strconv.ParseFloat(m[1], 64)
	return n, true
}

// signUpMany signs up n users, 16 at a time.
func signUpMany(cfg config, n int, tag string) []user {
	users := make([]user, n)
	run := time.Now().UnixNano()
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				u, err := signUp(cfg.EmulatorHost, fmt.Sprintf("bench-%s-%d-%d@example.com", tag, run, i))
				if err != nil {
					log.Fatalf("sign up: %v", err)
				}
				users[i] = u
			}
		}()
	}
	wg.Wait()
	return users
}

// streamFleet is n devices: streamsPerUser per user.
type streamFleet struct {
	users   []user
	streams []*liveStream
}

func newFleet(cfg config, n int, tag string) *streamFleet {
	users := signUpMany(cfg, (n+streamsPerUser-1)/streamsPerUser, tag)
	f := &streamFleet{users: users}
	for i := 0; i < n; i++ {
		f.streams = append(f.streams, &liveStream{user: i / streamsPerUser, arrived: map[string]time.Time{}})
	}
	return f
}

func (f *streamFleet) upCount() int {
	n := 0
	for _, s := range f.streams {
		if s.up.Load() {
			n++
		}
	}
	return n
}

// waitUp waits until every stream has had its hello, or the timeout passes.
func (f *streamFleet) waitUp(timeout time.Duration) (time.Duration, bool) {
	start := time.Now()
	for time.Since(start) < timeout {
		if f.upCount() == len(f.streams) {
			return time.Since(start), true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Since(start), false
}

// creates posts rate items per second for seconds, spread over the users, and returns when
// each was sent (by item id) and for which user.
func (f *streamFleet) creates(cfg config, rate, seconds int) (sent map[string]time.Time, owner map[string]int, errs int64) {
	sent, owner = map[string]time.Time{}, map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	var failed atomic.Int64
	interval := time.Second / time.Duration(rate)
	start := time.Now()
	for i := 0; i < rate*seconds; i++ {
		time.Sleep(time.Until(start.Add(time.Duration(i) * interval)))
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			u := i % len(f.users)
			t0 := time.Now()
			code, body, err := post(cfg.URL+"/api/wishlist", f.users[u].Token,
				fmt.Sprintf(`{"name":"Stream gift %d","description":"Measuring the fan-out","category":"Toys"}`, i))
			if err != nil || code != http.StatusCreated {
				failed.Add(1)
				return
			}
			var it struct{ ID string }
			_ = json.Unmarshal(body, &it)
			mu.Lock()
			sent[it.ID], owner[it.ID] = t0, u
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	return sent, owner, failed.Load()
}

// fanOut is, for each create, the time until the last of its user's streams had it; missing
// counts deliveries that never came, dupes those that came twice.
func (f *streamFleet) fanOut(sent map[string]time.Time, owner map[string]int) (res *result, missing, dupes int) {
	res = &result{}
	byUser := map[int][]*liveStream{}
	for _, s := range f.streams {
		byUser[s.user] = append(byUser[s.user], s)
		s.mu.Lock()
		dupes += s.dupes
		s.mu.Unlock()
	}
	for id, t0 := range sent {
		var last time.Time
		complete := true
		for _, s := range byUser[owner[id]] {
			s.mu.Lock()
			at, ok := s.arrived[id]
			s.mu.Unlock()
			if !ok {
				missing++
				complete = false
				continue
			}
			if at.After(last) {
				last = at
			}
		}
		if complete {
			res.latencies = append(res.latencies, last.Sub(t0))
		}
	}
	return res, missing, dupes
}

// runStreams opens BENCH_STREAMS streams through the gateway and measures what each costs the
// gateway and notification processes, then the fan-out of creates across them.
func runStreams(cfg config) {
	n := envInt("BENCH_STREAMS", 8000)
	rate := envInt("BENCH_FANOUT_RATE", 100)
	seconds := envInt("BENCH_FANOUT_SECONDS", 10)
	log.Printf("streams: signing up %d users for %d streams", (n+streamsPerUser-1)/streamsPerUser, n)
	f := newFleet(cfg, n, "streams")

	names := []string{"gateway", "notification"}
	before := map[string][2]float64{}
	runtimeBefore := map[string][]float64{}
	for _, name := range names {
		rss, anon, _ := processMemory(cfg.PidDir, name)
		before[name] = [2]float64{rss, anon}
		runtimeBefore[name] = runtimeGauges(cfg, name)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Every device opens as the web client does: one the server sheds (503, or 429 past the
	// address's allowance) comes back after Retry-After, with jitter.
	seen := &answers{codes: map[int]int{}}
	ups := make([]atomic.Int64, n)
	t0 := time.Now()
	for i, s := range f.streams {
		go keepLive(ctx, cfg.URL, f.users[s.user].Token, s, seen, &ups[i])
		if i%64 == 63 {
			time.Sleep(20 * time.Millisecond) // phones opening the app over a few seconds
		}
	}
	_, all := f.waitUp(120 * time.Second)
	seen.mu.Lock()
	codes := seen.codes
	seen.mu.Unlock()
	log.Printf("streams: %d of %d open after %s (opens answered %v)", f.upCount(), n, time.Since(t0).Round(time.Millisecond), codes)
	if !all {
		fmt.Printf("streams: only %d of %d opened (opens answered %v)\n", f.upCount(), n, codes)
	}
	// Each service hands back what the burst of opens left behind once requests pause
	// (IDLE_MEMORY_RELEASE); what stays is what the open streams hold.
	time.Sleep(12 * time.Second)

	fmt.Printf("%d open streams through the gateway (%d users x %d devices), each on its own connection\n", f.upCount(), len(f.users), streamsPerUser)
	fmt.Printf("  %-13s %12s %12s %16s %14s %12s\n", "", "before MB", "after MB", "per stream KB", "own memory KB", "chart limit")
	for _, name := range names {
		rss, anon, ok := processMemory(cfg.PidDir, name)
		if !ok {
			fmt.Printf("  %-13s unavailable (BENCH_PID_DIR)\n", name)
			continue
		}
		b := before[name]
		per := (rss - b[0]) / float64(f.upCount())
		limit, hasLimit := chartMemoryLimitMB(name)
		verdict := ""
		if hasLimit {
			verdict = fmt.Sprintf("%.0f Mi: ", limit)
			if rss/1024 <= limit {
				verdict += "within ✓"
			} else {
				verdict += "OVER ✗"
			}
		}
		fmt.Printf("  %-13s %12.1f %12.1f %16.1f %14.1f %12s\n", name, b[0]/1024, rss/1024, per, (anon-b[1])/float64(f.upCount()), verdict)
	}
	// Where the memory is, from each process's Go runtime: a goroutine stack is allocated whole,
	// so stacks per stream show how many goroutines a stream holds and how deep they grew.
	fmt.Printf("  %-13s %16s %16s %16s\n", "Go runtime", "goroutines/str", "stack KB/str", "heap KB/str")
	for _, name := range names {
		after, b := runtimeGauges(cfg, name), runtimeBefore[name]
		if after == nil || b == nil {
			continue
		}
		per := func(i int, unit float64) float64 { return (after[i] - b[i]) / unit / float64(f.upCount()) }
		fmt.Printf("  %-13s %16.2f %16.1f %16.1f\n", name, per(0, 1), per(1, 1024), per(2, 1024))
	}
	fmt.Printf("  open streams reported: gateway %s, notification %s\n",
		gauge(cfg, "gateway", "live_streams_open"), gauge(cfg, "notification", "live_streams_open"))

	log.Printf("streams: %d creates/s for %ds across the users", rate, seconds)
	sent, owner, errs := f.creates(cfg, rate, seconds)
	time.Sleep(3 * time.Second) // stragglers
	res, missing, dupes := f.fanOut(sent, owner)
	fmt.Printf("POST /api/wishlist -> count on all %d streams of its user, %d creates/s for %ds with %d streams open\n",
		streamsPerUser, rate, seconds, f.upCount())
	fmt.Printf("  complete %d of %d, deliveries missing %d, twice %d, create errors %d\n", len(res.latencies), rate*seconds, missing, dupes, errs)
	fmt.Printf("  p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", ms(res.percentile(50)), ms(res.percentile(99)), ms(res.percentile(100)))

	// The devices leave. The gateway notices a device that left at its stream's next heartbeat
	// (every 15 s); the next scenario starts once it has let go of them, so that it does not
	// count their sockets against the process's open-files limit.
	cancel()
	for deadline := time.Now().Add(45 * time.Second); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		if gauge(cfg, "gateway", "live_streams_open") == "0" {
			break
		}
	}
}

// runtimeGauges reads a service's goroutines, stack in use and heap in use (bytes), or nil.
func runtimeGauges(cfg config, service string) []float64 {
	var out []float64
	for _, m := range []string{"go_goroutines", "go_memstats_stack_inuse_bytes", "go_memstats_heap_inuse_bytes"} {
		v, err := strconv.ParseFloat(gauge(cfg, service, m), 64)
		if err != nil {
			return nil
		}
		out = append(out, v)
	}
	return out
}

// gauge reads one metric of a service's /metrics, or "-".
func gauge(cfg config, service, metric string) string {
	for _, svc := range cfg.Services {
		name, url, _ := strings.Cut(svc, "=")
		if name != service {
			continue
		}
		resp, err := httpClient.Get(url + "/metrics")
		if err != nil {
			return "-"
		}
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if line := sc.Text(); strings.HasPrefix(line, metric+" ") {
				return strings.TrimPrefix(line, metric+" ")
			}
		}
	}
	return "-"
}

func envInt(k string, d int) int {
	if v := os.Getenv(k); v != "" {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	return d
}
