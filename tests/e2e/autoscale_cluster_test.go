//go:build e2e && cluster

// The autoscaling drill of `make k8s-test`: a load generator (vegeta, as a library) pushes
// signed-in requests at the gateway until its HorizontalPodAutoscaler adds pods, then keeps a
// trickle going while the load is gone and the HPA takes them away again. No request may fail
// in either direction: readiness, the preStop delay and the disruption budget are what make
// a scale-in invisible. It prints the replica counts over time.
package e2e

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// replicaTimeline samples the gateway's ready pods and the HPA's CPU figure every few
// seconds, for the drill's log.
type replicaTimeline struct {
	start time.Time
	mu    sync.Mutex
	lines []string
	last  int
	max   int
}

func (r *replicaTimeline) sample() {
	out, err := exec.Command(os.Getenv("KUBECTL"), "-n", os.Getenv("K8S_NAMESPACE"), "get", "hpa", "gateway", "-o",
		`jsonpath={.status.currentReplicas} {.status.desiredReplicas} {.status.currentMetrics[?(@.type=="Resource")].resource.current.averageUtilization}`).Output()
	if err != nil {
		return
	}
	f := strings.Fields(string(out))
	if len(f) < 2 {
		return
	}
	ready, _ := exec.Command(os.Getenv("KUBECTL"), "-n", os.Getenv("K8S_NAMESPACE"), "get", "deployment", "gateway", "-o",
		"jsonpath={.status.readyReplicas}").Output()
	n, _ := strconv.Atoi(strings.TrimSpace(string(ready)))
	cpu := "?"
	if len(f) > 2 {
		cpu = f[2] + "%"
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.last = n
	r.max = max(r.max, n)
	line := fmt.Sprintf("%3ds: %d ready (HPA: %s current, %s desired, CPU %s of request)", int(time.Since(r.start).Seconds()), n, f[0], f[1], cpu)
	if len(r.lines) == 0 || r.lines[len(r.lines)-1][5:] != line[5:] {
		r.lines = append(r.lines, line)
	}
}

func (r *replicaTimeline) now() int { r.mu.Lock(); defer r.mu.Unlock(); return r.last }

// attackUntil sends rate requests a second, spread over the users' tokens (each stays under the
// gateway's per-user limit), until done says so or limit passes; it returns what came back.
func attackUntil(t *testing.T, targets []vegeta.Target, rate int, limit time.Duration, done func() bool) vegeta.Metrics {
	t.Helper()
	attacker := vegeta.NewAttacker(vegeta.Timeout(15*time.Second), vegeta.KeepAlive(true))
	results := attacker.Attack(vegeta.NewStaticTargeter(targets...), vegeta.ConstantPacer{Freq: rate, Per: time.Second}, limit, "load")
	stop := make(chan struct{})
	go func() {
		tick := time.NewTicker(2 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if done() {
					attacker.Stop()
					return
				}
			}
		}
	}()
	var m vegeta.Metrics
	for res := range results {
		m.Add(res)
	}
	close(stop)
	m.Close()
	return m
}

func describe(m vegeta.Metrics) string {
	return fmt.Sprintf("%d requests at %.0f/s, %.2f%% succeeded, codes %v, p50 %s, p99 %s, errors %v",
		m.Requests, m.Rate, 100*m.Success, m.StatusCodes, m.Latencies.P50.Round(time.Millisecond),
		m.Latencies.P99.Round(time.Millisecond), m.Errors)
}

func TestAutoscalingGatewayScalesOutAndIn(t *testing.T) {
	base, host := baseURL(t), ""
	// Through the ingress controller, as users come: its node port, with the app's host name.
	if addr := os.Getenv("SANTA_INGRESS_ADDR"); addr != "" {
		base, host = "http://"+addr, os.Getenv("SANTA_INGRESS_HOST")
	}
	// 200 a second over 70 users: each sends 2.9 a second, under the gateway's 4 a second.
	const users, rate, trickle = 70, 200, 2
	var targets []vegeta.Target
	for i := 0; i < users; i++ {
		c, _ := newUser(t, fmt.Sprintf("load-%d", i))
		h := http.Header{"Authorization": {"Bearer " + c.token}}
		if host != "" {
			h.Set("Host", host)
		}
		targets = append(targets, vegeta.Target{Method: http.MethodGet, URL: base + "/api/wishlist", Header: h})
	}
	minReplicas, _ := strconv.Atoi(kubectl(t, "get", "hpa", "gateway", "-o", "jsonpath={.spec.minReplicas}"))
	tl := &replicaTimeline{start: time.Now()}
	sampling := make(chan struct{})
	go func() {
		for {
			tl.sample()
			select {
			case <-sampling:
				return
			case <-time.After(5 * time.Second):
			}
		}
	}()
	defer func() {
		close(sampling)
		t.Logf("drill: gateway replicas over time (load to %s, Host %q):\n  %s", base, host, strings.Join(tl.lines, "\n  "))
	}()
	// The suite before may have left it scaled out: start from the minimum.
	for wait := time.Now(); tl.now() != minReplicas && time.Since(wait) < 3*time.Minute; {
		time.Sleep(5 * time.Second)
	}
	if tl.now() != minReplicas {
		t.Fatalf("the gateway runs %d pods before the load, want the HPA's minimum %d", tl.now(), minReplicas)
	}

	out := attackUntil(t, targets, rate, 4*time.Minute, func() bool { return tl.now() > minReplicas })
	scaledOut := time.Since(tl.start)
	t.Logf("drill: load until scale-out: %s", describe(out))
	if tl.now() <= minReplicas {
		t.Fatalf("no scale-out after %s of %d requests a second", scaledOut.Round(time.Second), rate)
	}
	t.Logf("drill: the gateway scaled out to %d pods %s after the load began", tl.now(), scaledOut.Round(time.Second))

	in := attackUntil(t, targets, trickle, 5*time.Minute, func() bool { return tl.now() == minReplicas })
	t.Logf("drill: trickle until scale-in: %s", describe(in))
	if tl.now() != minReplicas {
		t.Errorf("no scale-in to %d pods within 5 minutes of the load ending", minReplicas)
	} else {
		t.Logf("drill: scaled back in to %d pods %s after the load ended", minReplicas, (time.Since(tl.start) - scaledOut).Round(time.Second))
	}
	for name, m := range map[string]vegeta.Metrics{"scale-out": out, "scale-in": in} {
		if failed := m.Requests - uint64(m.Success*float64(m.Requests)+0.5); failed > 0 {
			t.Errorf("%s: %d requests failed: %s", name, failed, describe(m))
		}
	}
}
