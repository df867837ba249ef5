//go:build e2e && cluster

// The autoscaling drill of `make k8s-test`: a load generator (vegeta, as a library) pushes
// signed-in requests at the gateway until its HorizontalPodAutoscaler adds pods, then keeps a
// trickle going while the load is gone and the HPA takes them away again. No request may fail
// in either direction: readiness, the preStop delay and the disruption budget are what make
// a scale-in invisible. It prints the replica counts over time.
package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/testenv"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// replicaTimeline samples a Deployment's ready pods and what its HPA (KEDA's, on the local
// cluster) reads of each of its metrics every few seconds, for the drill's log.
type replicaTimeline struct {
	deployment string
	// triggerNames: KEDA names each external metric after its trigger's index and type
	// ("s1-prometheus"); the timeline prints the trigger's own name instead ("live-streams").
	triggerNames map[string]string
	start        time.Time
	mu           sync.Mutex
	lines        []string
	last         int
	max          int
}

// hpaStatus is the part of an HPA's status the timeline prints.
type hpaStatus struct {
	Status struct {
		CurrentReplicas int `json:"currentReplicas"`
		DesiredReplicas int `json:"desiredReplicas"`
		CurrentMetrics  []struct {
			Type     string `json:"type"`
			Resource *struct {
				Current struct {
					AverageUtilization *int `json:"averageUtilization"`
				} `json:"current"`
			} `json:"resource"`
			External *struct {
				Metric struct {
					Name string `json:"name"`
				} `json:"metric"`
				Current struct {
					AverageValue string `json:"averageValue"`
				} `json:"current"`
			} `json:"external"`
		} `json:"currentMetrics"`
	} `json:"status"`
}

// metrics reads as "cpu 12% of request, live-streams 40 per pod": what the HPA last read.
func (h hpaStatus) metrics(names map[string]string) string {
	var parts []string
	for _, m := range h.Status.CurrentMetrics {
		switch {
		case m.Resource != nil && m.Resource.Current.AverageUtilization != nil:
			parts = append(parts, fmt.Sprintf("cpu %d%% of request", *m.Resource.Current.AverageUtilization))
		case m.External != nil:
			name := m.External.Metric.Name
			if names[name] != "" {
				name = names[name]
			}
			parts = append(parts, fmt.Sprintf("%s %s per pod", name, m.External.Current.AverageValue))
		}
	}
	return strings.Join(parts, ", ")
}

func (r *replicaTimeline) sample() {
	ns := os.Getenv("K8S_NAMESPACE")
	out, err := exec.Command(os.Getenv("KUBECTL"), "-n", ns, "get", "hpa", r.deployment, "-o", "json").Output()
	var h hpaStatus
	if err != nil || json.Unmarshal(out, &h) != nil {
		return
	}
	ready, _ := exec.Command(os.Getenv("KUBECTL"), "-n", ns, "get", "deployment", r.deployment, "-o",
		"jsonpath={.status.readyReplicas}").Output()
	n, _ := strconv.Atoi(strings.TrimSpace(string(ready)))
	r.mu.Lock()
	defer r.mu.Unlock()
	r.last = n
	r.max = max(r.max, n)
	line := fmt.Sprintf("%3ds: %d ready (HPA: %d current, %d desired; %s)", int(time.Since(r.start).Seconds()), n,
		h.Status.CurrentReplicas, h.Status.DesiredReplicas, h.metrics(r.triggerNames))
	if len(r.lines) == 0 || r.lines[len(r.lines)-1][5:] != line[5:] {
		r.lines = append(r.lines, line)
	}
}

// watch samples every 5 s until the returned stop is called, which logs the timeline.
func (r *replicaTimeline) watch(t *testing.T, about string) (stop func()) {
	out, _ := exec.Command(os.Getenv("KUBECTL"), "-n", os.Getenv("K8S_NAMESPACE"), "get", "scaledobject", r.deployment,
		"--ignore-not-found", "-o", `jsonpath={range .spec.triggers[*]}{.type}/{.name}{"\n"}{end}`).Output()
	r.triggerNames = map[string]string{}
	for i, line := range strings.Fields(string(out)) {
		if kind, name, _ := strings.Cut(line, "/"); name != "" {
			r.triggerNames[fmt.Sprintf("s%d-%s", i, kind)] = name
		}
	}
	r.start = time.Now()
	done := make(chan struct{})
	go func() {
		for {
			r.sample()
			select {
			case <-done:
				return
			case <-time.After(5 * time.Second):
			}
		}
	}()
	return func() {
		close(done)
		t.Logf("drill: %s replicas over time (%s):\n  %s", r.deployment, about, strings.Join(r.lines, "\n  "))
	}
}

// settle waits up to limit for the Deployment to run want pods.
func (r *replicaTimeline) settle(want int, limit time.Duration) bool {
	for wait := time.Now(); r.now() != want && time.Since(wait) < limit; {
		time.Sleep(2 * time.Second)
	}
	return r.now() == want
}

func (r *replicaTimeline) now() int { r.mu.Lock(); defer r.mu.Unlock(); return r.last }

// attackUntil sends rate requests a second, spread over the users' tokens (each stays under the
// gateway's per-user limit), until done says so or limit passes; it returns what came back.
func attackUntil(t *testing.T, targets []vegeta.Target, rate int, limit time.Duration, done func() bool) vegeta.Metrics {
	t.Helper()
	opts := []func(*vegeta.Attacker){vegeta.Timeout(15 * time.Second), vegeta.KeepAlive(true)}
	if os.Getenv("SANTA_INGRESS_ADDR") != "" { // HTTPS, the Ingress's host as the server name
		opts = append(opts, vegeta.TLSConfig(ingressTLS(t)))
	}
	attacker := vegeta.NewAttacker(opts...)
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

// failedRequests: vegeta reports a success ratio; this is the count it stands for.
func failedRequests(m vegeta.Metrics) uint64 {
	return m.Requests - uint64(m.Success*float64(m.Requests)+0.5)
}

func describe(m vegeta.Metrics) string {
	return fmt.Sprintf("%d requests at %.0f/s, %.2f%% succeeded, codes %v, p50 %s, p99 %s, errors %v",
		m.Requests, m.Rate, 100*m.Success, m.StatusCodes, m.Latencies.P50.Round(time.Millisecond),
		m.Latencies.P99.Round(time.Millisecond), m.Errors)
}

func TestAutoscalingGatewayScalesOutAndIn(t *testing.T) {
	base, host := baseURL(t), ""
	// Through the ingress controller, as users come: its HTTPS node port, with the app's host
	// name (attackUntil's TLS names it too).
	if addr := os.Getenv("SANTA_INGRESS_ADDR"); addr != "" {
		base, host = "https://"+addr, os.Getenv("SANTA_INGRESS_HOST")
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
	tl := &replicaTimeline{deployment: "gateway"}
	defer tl.watch(t, fmt.Sprintf("load to %s, Host %q", base, host))()
	// The suite before may have left it scaled out: start from the minimum.
	if !tl.settle(minReplicas, 3*time.Minute) {
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
		if failed := failedRequests(m); failed > 0 {
			t.Errorf("%s: %d requests failed: %s", name, failed, describe(m))
		}
	}
}

// Open live streams cost notification memory, not CPU: with KEDA, its ScaledObject reads
// live_streams_open from Prometheus. Phones open streams until notification scales out, hold
// them (none may break), close them, and notification scales back in; a trickle of requests
// to notification runs throughout and none may fail.
func TestAutoscalingNotificationScalesOnOpenStreams(t *testing.T) {
	threshold := kubectl(t, "get", "scaledobject", "notification", "-o",
		`jsonpath={.spec.triggers[?(@.name=="live-streams")].metadata.threshold}`)
	perPod, err := strconv.Atoi(threshold)
	if err != nil {
		t.Fatalf("notification's ScaledObject has no live-streams trigger (%q): is KEDA installed?", threshold)
	}
	minReplicas, _ := strconv.Atoi(kubectl(t, "get", "hpa", "notification", "-o", "jsonpath={.spec.minReplicas}"))
	tl := &replicaTimeline{deployment: "notification"}
	defer tl.watch(t, fmt.Sprintf("streams, %d per pod wanted", perPod))()
	if !tl.settle(minReplicas, 3*time.Minute) {
		t.Fatalf("notification runs %d pods before the streams, want the HPA's minimum %d", tl.now(), minReplicas)
	}

	// Enough phones for two more pods than the minimum: 10 devices per user, each user opening
	// one every 300 ms (under the gateway's per-user rate).
	const devices = 10
	want := (minReplicas + 2) * perPod
	users := (want + devices - 1) / devices
	var (
		mu      sync.Mutex
		streams []*testenv.Stream
		events  []<-chan liveEvent
		refused []int
		wg      sync.WaitGroup
	)
	for i := 0; i < users; i++ {
		c, _ := newUser(t, fmt.Sprintf("streams-%d", i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := 0; d < devices; d++ {
				s := testenv.NewClient(t, c.base)
				s.Header.Set("Authorization", "Bearer "+c.token)
				st := s.Open("/api/notifications/stream")
				mu.Lock()
				if st.Status == http.StatusOK {
					streams, events = append(streams, st), append(events, st.Events())
				} else {
					refused = append(refused, st.Status)
				}
				mu.Unlock()
				time.Sleep(300 * time.Millisecond)
			}
		}()
	}
	wg.Wait()
	if len(refused) > 0 {
		t.Fatalf("%d of %d streams refused: %v", len(refused), users*devices, refused)
	}
	opened := time.Since(tl.start)
	t.Logf("drill: %d streams open after %s", len(streams), opened.Round(time.Second))

	// The trickle: a signed-in request to notification every 500 ms.
	trickler, _ := newUser(t, "streams-trickle")
	var trickle vegeta.Metrics
	target := vegeta.Target{Method: http.MethodGet, URL: baseURL(t) + "/api/notifications",
		Header: http.Header{"Authorization": {"Bearer " + trickler.token}}}
	attacker := vegeta.NewAttacker(vegeta.Timeout(15 * time.Second))
	results := attacker.Attack(vegeta.NewStaticTargeter(target), vegeta.ConstantPacer{Freq: 2, Per: time.Second}, 0, "trickle")
	trickleDone := make(chan struct{})
	go func() {
		defer close(trickleDone)
		for res := range results { // read only after trickleDone closes
			trickle.Add(res)
		}
	}()

	for wait := time.Now(); tl.now() <= minReplicas && time.Since(wait) < 4*time.Minute; {
		time.Sleep(2 * time.Second)
	}
	if tl.now() <= minReplicas {
		t.Fatalf("no scale-out with %d streams open for 4 minutes (%d per pod wanted)", len(streams), perPod)
	}
	t.Logf("drill: notification scaled out to %d pods %s after the streams were open", tl.now(), (time.Since(tl.start) - opened).Round(time.Second))
	time.Sleep(10 * time.Second)
	// Every stream is still open: a stream whose event channel closed has ended.
	broken := 0
	for _, ev := range events {
	drain:
		for {
			select {
			case _, ok := <-ev:
				if !ok {
					broken++
					break drain
				}
			default:
				break drain
			}
		}
	}
	if broken > 0 {
		t.Errorf("%d of %d streams ended while notification scaled out", broken, len(streams))
	}

	for _, st := range streams {
		st.Close()
	}
	closed := time.Now()
	if !tl.settle(minReplicas, 5*time.Minute) {
		t.Errorf("no scale-in to %d pods within 5 minutes of the streams closing", minReplicas)
	} else {
		t.Logf("drill: scaled back in to %d pods %s after the streams closed", minReplicas, time.Since(closed).Round(time.Second))
	}
	attacker.Stop()
	<-trickleDone
	trickle.Close()
	t.Logf("drill: the trickle to notification: %s", describe(trickle))
	if failed := failedRequests(trickle); failed > 0 || trickle.Requests == 0 {
		t.Errorf("the trickle: %d of %d requests failed: %s", failed, trickle.Requests, describe(trickle))
	}
}
