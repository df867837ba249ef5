package main

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// answers counts how the stream opens were answered during a drill.
type answers struct {
	mu    sync.Mutex
	codes map[int]int // 0: no answer (connection failed)
}

func (a *answers) add(code int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.codes[code]++
}

// keepLive holds s open as the web client must: on any end it comes back after a jittered,
// exponentially growing pause (Retry-After when the server gives one), resuming with the
// last event id it received.
func keepLive(ctx context.Context, base, token string, s *liveStream, seen *answers, upAt *atomic.Int64) {
	attempt := 0
	for ctx.Err() == nil {
		var retryAfter time.Duration
		_ = openLive(ctx, base, token, s, func(status int, ra string) {
			seen.add(status)
			if status == http.StatusOK {
				attempt = 0
				upAt.Store(time.Now().UnixNano())
				return
			}
			if secs, err := strconv.Atoi(ra); err == nil {
				retryAfter = time.Duration(secs) * time.Second
			}
		})
		s.up.Store(false)
		if ctx.Err() != nil {
			return
		}
		// Full jitter: a random pause up to min(8 s, 250 ms x 2^attempt), and at least what
		// the server asked for.
		ceiling := min(8*time.Second, 250*time.Millisecond<<min(attempt, 5))
		pause := retryAfter + time.Duration(rand.Int64N(int64(ceiling)))
		attempt++
		select {
		case <-ctx.Done():
		case <-time.After(pause):
		}
	}
}

// restartNotification stops the stack's notification process and starts the same binary with
// the same environment, as a pod replaced in a rollout.
func restartNotification(pidDir string) (stopped time.Time, err error) {
	pid, ok := stackPID(pidDir, "notification")
	if !ok {
		return time.Time{}, fmt.Errorf("no notification pid in %s", pidDir)
	}
	exe, err := os.Readlink("/proc/" + pid + "/exe")
	if err != nil {
		return time.Time{}, err
	}
	environ, err := os.ReadFile("/proc/" + pid + "/environ")
	if err != nil {
		return time.Time{}, err
	}
	n, _ := strconv.Atoi(pid)
	if err := syscall.Kill(n, syscall.SIGTERM); err != nil {
		return time.Time{}, err
	}
	stopped = time.Now()
	for syscall.Kill(n, 0) == nil {
		time.Sleep(20 * time.Millisecond)
	}
	logFile, err := os.OpenFile(filepath.Join(pidDir, "notification.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return stopped, err
	}
	defer logFile.Close()
	cmd := exec.Command(exe)
	cmd.Env = strings.Split(strings.TrimRight(string(environ), "\x00"), "\x00")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // outlives the bench; stack.sh stops it
	if err := cmd.Start(); err != nil {
		return stopped, err
	}
	return stopped, os.WriteFile(filepath.Join(pidDir, "notification.pid"), []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o644)
}

// runReconnect opens BENCH_STREAMS streams, restarts notification (every stream drops at
// once), creates items while it is away, and reports the time until every stream is back,
// how the opens were answered, and whether every device got every notice exactly once.
func runReconnect(cfg config) {
	n := envInt("BENCH_STREAMS", 8000)
	log.Printf("reconnect: signing up %d users for %d streams", (n+streamsPerUser-1)/streamsPerUser, n)
	f := newFleet(cfg, n, "reconnect")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := &answers{codes: map[int]int{}}
	ups := make([]atomic.Int64, n)
	for i, s := range f.streams {
		go keepLive(ctx, cfg.URL, f.users[s.user].Token, s, seen, &ups[i])
		if i%64 == 63 {
			time.Sleep(20 * time.Millisecond) // phones opening the app over a few seconds
		}
	}
	if took, all := f.waitUp(120 * time.Second); !all {
		log.Fatalf("reconnect: only %d of %d streams opened in %s", f.upCount(), n, took)
	}
	// One notice per user first, so every device holds an event id to resume from, as a phone
	// that has been open a while does (a device with none starts from now: its hello carries
	// the count).
	primed, primedOwner, _ := f.creates(cfg, 100, (len(f.users)+99)/100)
	time.Sleep(3 * time.Second)
	if _, missing, _ := f.fanOut(primed, primedOwner); missing > 0 {
		log.Printf("reconnect: %d deliveries of the first notices missing before the restart", missing)
	}
	before := map[int]int{}
	seen.mu.Lock()
	for k, v := range seen.codes {
		before[k] = v
	}
	seen.codes = map[int]int{}
	seen.mu.Unlock()
	log.Printf("reconnect: %d streams open (opens answered %v); restarting notification", n, before)

	stopped, err := restartNotification(cfg.PidDir)
	if err != nil {
		log.Fatalf("restart: %v", err)
	}
	// Writes go on while notification is away: their notices must reach every device once.
	sent, owner, errs := f.creates(cfg, 20, 5)
	start := stopped.UnixNano()
	var back time.Duration
	deadline := time.Now().Add(180 * time.Second)
	for time.Now().Before(deadline) {
		all := true
		latest := int64(0)
		for i, s := range f.streams {
			at := ups[i].Load()
			if !s.up.Load() || at < start {
				all = false
				break
			}
			latest = max(latest, at)
		}
		if all {
			back = time.Duration(latest - start)
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(5 * time.Second) // the last catch-ups
	res, missing, dupes := f.fanOut(sent, owner)
	seen.mu.Lock()
	codes := seen.codes
	seen.mu.Unlock()
	other5xx := 0
	for code, count := range codes {
		if code >= 500 && code != http.StatusServiceUnavailable {
			other5xx += count
		}
	}
	fmt.Printf("reconnect drill: %d streams, notification restarted, %d creates while it was away\n", n, len(sent)+int(errs))
	if back == 0 {
		fmt.Printf("  NOT all back within 180 s: %d of %d up\n", f.upCount(), n)
	} else {
		fmt.Printf("  all %d streams back %.1f s after the restart began\n", n, back.Seconds())
	}
	fmt.Printf("  opens answered: %v (503 = shed with Retry-After, 0 = no answer); other 5xx: %d\n", codes, other5xx)
	fmt.Printf("  notices: %d of %d complete on every device of their user, missing %d, twice %d, create errors %d\n",
		len(res.latencies), len(sent), missing, dupes, errs)
}
