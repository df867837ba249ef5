//go:build security

// Package security is `make security`: the hostile-input suite, run over the running test
// stack (deploy/local/security.sh). Every check prints what was tried and what came back.
package security

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/fakes/hostileimages"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

func env(t *testing.T, name string) string {
	v := os.Getenv(name)
	if v == "" {
		t.Fatalf("%s is not set: run this through `make security` (deploy/local/security.sh)", name)
	}
	return v
}

func say(format string, args ...any) { fmt.Printf("    "+format+"\n", args...) }

type answer struct {
	status int
	code   string
	took   time.Duration
	header http.Header
}

func do(t *testing.T, req *http.Request) answer {
	t.Helper()
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	_ = json.Unmarshal(body, &e)
	return answer{resp.StatusCode, e.Error.Code, time.Since(start), resp.Header}
}

func upload(t *testing.T, base, token, name string, data []byte) answer {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	part, _ := w.CreateFormFile("image", name)
	_, _ = part.Write(data)
	_ = w.Close()
	req, _ := http.NewRequest(http.MethodPost, base+"/api/media", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	return do(t, req)
}

// memory reads a /proc/<pid>/status field in KiB.
func memory(t *testing.T, pid int, field string) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatalf("media process %d: %v", pid, err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

func pidOf(t *testing.T, service string) int {
	raw, err := os.ReadFile(filepath.Join(env(t, "SANTA_STATE_DIR"), service+".pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// The bomb corpus, eight at a time through the gateway, each as its own user: every file is
// refused with a 4xx, and media's resident memory, sampled every 2 ms from /proc while they
// arrive, stays under 128 MiB.
func TestBombCorpus(t *testing.T) {
	base := env(t, "SANTA_E2E_URL")
	pid := pidOf(t, "media")
	corpus := hostileimages.Corpus()
	tokens := make([]string, len(corpus))
	for i := range corpus {
		tokens[i] = testenv.SignUp(t, testenv.UniqueEmail("bomber"), "secret123", "").IDToken
	}
	say("media pid %d: VmRSS %d KiB before, VmHWM %d KiB so far", pid, memory(t, pid, "VmRSS"), memory(t, pid, "VmHWM"))

	var peak atomic.Int64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if kb := memory(t, pid, "VmRSS"); kb > peak.Load() {
				peak.Store(kb)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	answers := make([]answer, len(corpus))
	var wg sync.WaitGroup
	slots := make(chan struct{}, 8)
	start := time.Now()
	for i, c := range corpus {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			answers[i] = upload(t, base, tokens[i], c.Name, c.Data)
		})
	}
	wg.Wait()
	took := time.Since(start)
	close(stop)
	<-sampled
	for i, c := range corpus {
		a := answers[i]
		say("%-20s %7d bytes  %s  ->  %d %-28s %6.1f ms", c.Name, len(c.Data), c.What, a.status, a.code, float64(a.took.Microseconds())/1000)
		if a.status < 400 || a.status >= 500 {
			t.Errorf("%s: %d, want a 4xx", c.Name, a.status)
		}
		if a.took > 5*time.Second {
			t.Errorf("%s took %s", c.Name, a.took)
		}
	}
	say("all %d in %s, 8 at a time; media peak VmRSS while they arrived: %.1f MiB (limit 128 MiB)", len(corpus), took.Round(time.Millisecond), float64(peak.Load())/1024)
	if peak.Load() >= 128<<10 {
		t.Errorf("media's resident memory reached %d KiB", peak.Load())
	}

	// The same bomb inline, as a data: URL in a wishlist item: the wishlist hands it to media's
	// pipeline, which refuses it the same way.
	png := hostileimages.PNG16(7000, 7000)
	body, _ := json.Marshal(map[string]string{"name": "Bomb", "description": "inline 16-bit PNG",
		"imageUrl": "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)})
	req, _ := http.NewRequest(http.MethodPost, base+"/api/wishlist", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tokens[0])
	a := do(t, req)
	say("inline png16-7000 in POST /api/wishlist  ->  %d %s (%.1f ms)", a.status, a.code, float64(a.took.Microseconds())/1000)
	if a.status < 400 || a.status >= 500 {
		t.Errorf("inline bomb: %d, want a 4xx", a.status)
	}
	say("media VmRSS after: %d KiB", memory(t, pid, "VmRSS"))
}

// One user sends uploads faster than media's per-user rate (30 a minute, bursts of 20).
func TestUploadRatePerUser(t *testing.T) {
	base := env(t, "SANTA_E2E_URL")
	token := testenv.SignUp(t, testenv.UniqueEmail("fast"), "secret123", "").IDToken
	gif := hostileimages.ManyFrameGIF(1)
	counts := map[string]int{}
	for range 30 {
		a := upload(t, base, token, "tiny.gif", gif)
		counts[fmt.Sprintf("%d %s", a.status, a.code)]++
	}
	say("30 uploads of a 1-frame GIF by one user at once  ->  %v", counts)
	if counts["429 too_many_uploads"] == 0 {
		t.Error("no upload was refused for the per-user rate")
	}
}

// 10,000 POSTs, each with a fresh Idempotency-Key, from one user: what Redis keeps.
func TestIdempotencyFlood(t *testing.T) {
	base := env(t, "SANTA_E2E_URL")
	prefix := env(t, "SANTA_REDIS_PREFIX")
	user := testenv.SignUp(t, testenv.UniqueEmail("flood"), "secret123", "")
	rdb := testenv.Redis(t)
	ctx := context.Background()
	usedBefore := redisUsed(t)
	statuses := map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range 16 {
		wg.Go(func() {
			for i := range jobs {
				// An invalid item: the 400 answer is kept for replay like any other.
				req, _ := http.NewRequest(http.MethodPost, base+"/api/wishlist", strings.NewReader(`{"name":""}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+user.IDToken)
				req.Header.Set("Idempotency-Key", fmt.Sprintf("flood-%d", i))
				a := do(t, req)
				mu.Lock()
				statuses[fmt.Sprintf("%d %s", a.status, a.code)]++
				mu.Unlock()
			}
		})
	}
	start := time.Now()
	for i := range 10_000 {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	keys, bytes := 0, int64(0)
	iter := rdb.Scan(ctx, 0, prefix+":idem:"+user.UID+":*", 1000).Iterator()
	for iter.Next(ctx) {
		n, _ := rdb.MemoryUsage(ctx, iter.Val()).Result()
		keys++
		bytes += n
	}
	say("10000 POST /api/wishlist with fresh Idempotency-Keys in %s  ->  %v", time.Since(start).Round(time.Millisecond), statuses)
	say("Redis keeps %d idempotency keys for this user, %d KiB; used_memory %d KiB before, %d KiB after",
		keys, bytes>>10, usedBefore>>10, redisUsed(t)>>10)
	if keys > 301 || bytes > 512<<10 {
		t.Errorf("one user's flood is kept as %d keys, %d bytes", keys, bytes)
	}
}

func redisUsed(t *testing.T) int64 {
	info, err := testenv.Redis(t).Info(context.Background(), "memory").Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "used_memory:"); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	return 0
}

// The Auth emulator switch: the gateway binary refuses to start with the emulator for a real
// project id, even with ALLOW_AUTH_EMULATOR=true.
func TestEmulatorSwitch(t *testing.T) {
	bin := filepath.Join(env(t, "SANTA_STATE_DIR"), "bin", "gateway")
	for _, tc := range []struct{ project, allow string }{{"santa-wishlist-prod", "true"}, {"demo-santa", "false"}} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, bin)
		cmd.Env = []string{"PORT=0", "ADMIN_PORT=0", "REDIS_URL=" + testenv.RedisURL(), "WISHLIST_URL=http://127.0.0.1:1",
			"FIREBASE_PROJECT_ID=" + tc.project, "FIREBASE_AUTH_EMULATOR_HOST=" + testenv.AuthEmulatorHost(), "ALLOW_AUTH_EMULATOR=" + tc.allow,
			// A valid identity key, so that only the emulator switch can be what it refuses.
			"IDENTITY_SIGNING_KEY=" + testenv.IdentitySigningKey("gateway")}
		out, err := cmd.CombinedOutput()
		timedOut := ctx.Err() != nil // still running after 10 s: it started
		cancel()
		last := strings.TrimSpace(string(out))
		if i := strings.LastIndexByte(last, '\n'); i >= 0 {
			last = last[i+1:]
		}
		say("gateway with the emulator, FIREBASE_PROJECT_ID=%s ALLOW_AUTH_EMULATOR=%s  ->  %v: %.200s", tc.project, tc.allow, err, last)
		if err == nil || timedOut || !strings.Contains(strings.ToLower(last), "emulator") {
			t.Errorf("%s/%s: the gateway did not refuse to start (%v)", tc.project, tc.allow, err)
		}
	}
}

// Rate-limit holes: requests with a bad token and /media/ downloads are counted per IP (read
// from the limiter's count in Redis), and /readyz and /metrics are not public.
func TestRateLimitHolesAndPublicInternals(t *testing.T) {
	base := env(t, "SANTA_E2E_URL")
	prefix := env(t, "SANTA_REDIS_PREFIX")
	rdb := testenv.Redis(t)
	ctx := context.Background()
	if s := time.Now().Second(); s > 50 {
		time.Sleep(time.Duration(62-s) * time.Second) // one counting window for the whole check
	}
	key := fmt.Sprintf("%s:rl:ip:127.0.0.1:%d", prefix, time.Now().Truncate(time.Minute).Unix())
	count := func() int64 {
		time.Sleep(300 * time.Millisecond) // the gateway adds its counts to Redis every 100 ms
		n, _ := rdb.Get(ctx, key).Int64()
		return n
	}
	for _, tc := range []struct {
		what, method, path, token string
	}{
		{"GET /api/wishlist with a forged token", http.MethodGet, "/api/wishlist", "forged.token.value"},
		{"GET /media/ of a missing photo, signed out", http.MethodGet, "/media/items/unattached/0000.jpg", ""},
	} {
		before := count()
		codes := map[int]int{}
		for range 50 {
			req, _ := http.NewRequest(tc.method, base+tc.path, nil)
			if tc.token != "" {
				req.Header.Set("Authorization", "Bearer "+tc.token)
			}
			codes[do(t, req).status]++
		}
		after := count()
		say("50 x %s  ->  %v; the per-IP count went %d -> %d", tc.what, codes, before, after)
		if after-before < 50 {
			t.Errorf("%s: only %d of 50 requests were counted per IP", tc.what, after-before)
		}
	}
	for _, path := range []string{"/readyz", "/metrics", "/healthz"} {
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		a := do(t, req)
		say("public GET %s  ->  %d %s", path, a.status, a.code)
		if want := http.StatusNotFound; path != "/healthz" && a.status != want {
			t.Errorf("public %s: %d, want %d", path, a.status, want)
		}
	}
	codes := []string{}
	for _, path := range []string{"/readyz", "/metrics"} {
		req, _ := http.NewRequest(http.MethodGet, env(t, "SANTA_ADMIN_URL")+path, nil)
		a := do(t, req)
		codes = append(codes, fmt.Sprintf("%s %d", path, a.status))
		if a.status != http.StatusOK {
			t.Errorf("admin %s: %d", path, a.status)
		}
	}
	sort.Strings(codes)
	say("the gateway's admin port (cluster only)  ->  %v", codes)
}
