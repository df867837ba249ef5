//go:build e2e && cluster

// What an operator is shown, checked against a live Prometheus that scrapes the running
// product and evaluates deploy/observability/alerts.yaml, with Alertmanager sending to a
// receiver in this test (make k8s-test runs both in the cluster: deploy/cluster/monitoring.yaml):
//   - every panel of the Grafana dashboard returns data (a panel that shows nothing is a bug);
//   - alert drills: a service stopped (SantaServiceDown), and on the cluster a pod crash-looping
//     (SantaPodRestarting), every NATS server gone (SantaNATSUnreachable) and a consumer's
//     backlog filled (SantaConsumerLag), each reaching
//     Alertmanager within the rule's `for` and a scrape interval, and resolving once the fault
//     is gone.
//
// Environment: SANTA_PROMETHEUS_URL, SANTA_MONITOR_NAMESPACE (the `namespace` label of the
// series), SANTA_ALERT_WEBHOOK_ADDR (where Alertmanager's webhook sends: this test listens
// there), SANTA_SCRAPE_INTERVAL (Prometheus's scrape and evaluation interval), and to stop and
// start a service either the cluster's (KUBECTL, K8S_NAMESPACE) or the local stack's
// (SANTA_STACK_SH, deploy/observability/monitor.sh runs Prometheus beside it).
// SANTA_MONITOR_ABSENT lists metric names this environment does not scrape at all
// (kube-state-metrics' on the local stack): their panels are printed as such, not failed.
package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/events"
)

func monitorEnv(t *testing.T, name string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		t.Fatalf("%s is not set: run this beside a Prometheus (deploy/observability/monitor.sh or make k8s-test)", name)
	}
	return v
}

// promSample is one series of an instant query's result: its labels and its value, which
// Prometheus writes as [time, "number"].
type promSample struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"`
}

func (s promSample) number() float64 {
	text, _ := s.Value[1].(string)
	f, _ := strconv.ParseFloat(text, 64)
	return f
}

// promQuery runs an instant query and returns the result vector.
func promQuery(t *testing.T, expr string) []promSample {
	t.Helper()
	u := monitorEnv(t, "SANTA_PROMETHEUS_URL") + "/api/v1/query?query=" + url.QueryEscape(expr)
	resp, err := http.Get(u)
	if err != nil {
		t.Fatalf("query %s: %v", expr, err)
	}
	defer resp.Body.Close()
	var out struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			Result []promSample `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Status != "success" {
		t.Fatalf("query %s: %s %v %s", expr, resp.Status, err, out.Error)
	}
	return out.Data.Result
}

func repoFile(t *testing.T, rel string) string {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "..", rel)
}

type dashboardPanel struct {
	Title   string `json:"title"`
	Targets []struct {
		RefID string `json:"refId"`
		Expr  string `json:"expr"`
	} `json:"targets"`
	Panels []dashboardPanel `json:"panels"`
}

func TestMonitoringDashboardPanelsHaveData(t *testing.T) {
	raw, err := os.ReadFile(repoFile(t, "deploy/observability/santa-wishlist-dashboard.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels []dashboardPanel `json:"panels"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	ns := monitorEnv(t, "SANTA_MONITOR_NAMESPACE")
	absent := strings.Fields(strings.ReplaceAll(os.Getenv("SANTA_MONITOR_ABSENT"), ",", " "))
	// Grafana's variables: the namespace, and a rate window of a few scrape intervals.
	expand := strings.NewReplacer("$namespace", ns, "$__rate_interval", "1m")
	var walk func([]dashboardPanel)
	checked := 0
	walk = func(ps []dashboardPanel) {
		for _, p := range ps {
			series, queries := 0, 0
			var empty, notScraped []string
			for _, target := range p.Targets {
				if target.Expr == "" {
					continue
				}
				checked++
				queries++
				n := len(promQuery(t, expand.Replace(target.Expr)))
				series += n
				missing := ""
				for _, a := range absent {
					if strings.Contains(target.Expr, a) {
						missing = a
					}
				}
				switch {
				case n > 0:
				case missing != "":
					notScraped = append(notScraped, missing)
				default:
					empty = append(empty, target.RefID+": "+target.Expr)
				}
			}
			switch {
			case queries == 0:
			case len(empty) > 0:
				t.Errorf("panel %s: no data from %s", p.Title, strings.Join(empty, "; "))
			case len(notScraped) > 0:
				t.Logf("panel %s: %d series (%s is not scraped here)", p.Title, series, strings.Join(notScraped, ", "))
			default:
				t.Logf("panel %s: %d series", p.Title, series)
			}
			walk(p.Panels)
		}
	}
	walk(d.Panels)
	if checked < 15 {
		t.Fatalf("only %d panel queries found in the dashboard", checked)
	}
}

// alertReceiver is Alertmanager's webhook receiver: it records when each alert was first
// reported firing and resolved.
type alertReceiver struct {
	mu       sync.Mutex
	firing   map[string]time.Time
	resolved map[string]time.Time
}

// alertKey names an alert by its rule and what it is about: the pod for a pod's alert, else
// the service (job).
func alertKey(labels map[string]string) string {
	if pod := labels["pod"]; pod != "" {
		return labels["alertname"] + "/" + pod
	}
	return labels["alertname"] + "/" + labels["job"]
}

func startAlertReceiver(t *testing.T) *alertReceiver {
	t.Helper()
	r := &alertReceiver{firing: map[string]time.Time{}, resolved: map[string]time.Time{}}
	ln, err := net.Listen("tcp", monitorEnv(t, "SANTA_ALERT_WEBHOOK_ADDR"))
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var msg struct {
			Alerts []struct {
				Status string            `json:"status"`
				Labels map[string]string `json:"labels"`
			} `json:"alerts"`
		}
		if err := json.NewDecoder(req.Body).Decode(&msg); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		now := time.Now()
		r.mu.Lock()
		for _, a := range msg.Alerts {
			k := alertKey(a.Labels)
			switch a.Status {
			case "firing":
				if _, seen := r.firing[k]; !seen {
					r.firing[k] = now
				}
			case "resolved":
				r.resolved[k] = now
			}
		}
		r.mu.Unlock()
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return r
}

// wait returns when key was first reported in the given state after since, or fails at deadline.
func (r *alertReceiver) wait(t *testing.T, key string, resolved bool, since time.Time, deadline time.Duration) time.Time {
	t.Helper()
	end := time.Now().Add(deadline)
	for time.Now().Before(end) {
		r.mu.Lock()
		at, ok := r.firing[key]
		if resolved {
			at, ok = r.resolved[key]
		}
		r.mu.Unlock()
		if ok && at.After(since) {
			return at
		}
		time.Sleep(time.Second)
	}
	state := "firing"
	if resolved {
		state = "resolved"
	}
	t.Fatalf("%s was not reported %s to Alertmanager's receiver within %s", key, state, deadline)
	return time.Time{}
}

// stopService takes every pod of a service away and returns the function that brings it back.
func stopService(t *testing.T, name string) (restore func()) {
	t.Helper()
	if onCluster() {
		stopDeployment(t, name)
		return func() { startDeployment(t, name) }
	}
	stack := monitorEnv(t, "SANTA_STACK_SH")
	run := func(verb string) {
		if out, err := exec.Command(stack, verb, name).CombinedOutput(); err != nil {
			t.Fatalf("%s %s %s: %v\n%s", stack, verb, name, err, out)
		}
	}
	run("stop-service")
	return func() { run("start-service") }
}

// waitDeploymentsAvailable waits until every Deployment of the release has all its pods
// available again.
func waitDeploymentsAvailable(t *testing.T) {
	t.Helper()
	start := time.Now()
	for _, d := range strings.Fields(kubectl(t, "get", "deployments", "-o", "name")) {
		kubectl(t, "rollout", "status", d, "--timeout=300s")
	}
	t.Logf("every Deployment available again %s later", time.Since(start).Round(time.Second))
}

func scrapeInterval(t *testing.T) time.Duration {
	t.Helper()
	interval, err := time.ParseDuration(monitorEnv(t, "SANTA_SCRAPE_INTERVAL"))
	if err != nil {
		t.Fatal(err)
	}
	return interval
}

// TestMonitoringAlertDrills runs the drills side by side (they disturb different services and
// each waits minutes for a rule), sharing one receiver.
func TestMonitoringAlertDrills(t *testing.T) {
	receiver := startAlertReceiver(t)
	t.Run("ServiceDown", func(t *testing.T) {
		t.Parallel()
		drillServiceDown(t, receiver)
	})
	t.Run("PodRestarting", func(t *testing.T) {
		t.Parallel()
		if !onCluster() {
			t.Skip("needs the cluster: the local stack has no pods to crash-loop")
		}
		drillPodRestarting(t, receiver)
	})
	t.Run("ConsumerLag", func(t *testing.T) {
		t.Parallel()
		if !onCluster() {
			t.Skip("needs the cluster: the local stack's NATS is shared with other stacks")
		}
		drillConsumerLag(t, receiver)
	})
	t.Run("BackupTooOld", func(t *testing.T) {
		t.Parallel()
		if !onCluster() {
			t.Skip("needs the cluster: the local stack's PostgreSQL does not archive")
		}
		drillBackupTooOld(t, receiver)
	})
	// Not beside the others: a service brought back while NATS is away would wait for it.
	// (The parallel drills above start when this one has ended.)
	t.Run("NATSUnreachable", func(t *testing.T) {
		if !onCluster() {
			t.Skip("needs the cluster: the local stack's NATS is shared with other stacks")
		}
		drillNATSUnreachable(t, receiver)
	})
}

// drillNATSUnreachable takes every NATS server away (the StatefulSet scaled to 0): each
// service's pods lose their connection, and SantaNATSUnreachable must fire for them within its
// `for` and a scrape interval, and resolve once the servers are back and the pods reconnected.
func drillNATSUnreachable(t *testing.T, receiver *alertReceiver) {
	interval := scrapeInterval(t)
	const service, alert, forDuration = "wishlist", "SantaNATSUnreachable", time.Minute
	key := alert + "/" + service
	if n := len(promQuery(t, fmt.Sprintf(`nats_connected{job=%q} == 1`, service))); n == 0 {
		t.Fatalf("no %s pod reports a NATS connection before the drill", service)
	}
	servers := kubectl(t, "get", "statefulset/nats", "-o", "jsonpath={.spec.replicas}")
	stopped := time.Now()
	kubectl(t, "scale", "statefulset/nats", "--replicas=0")
	restored := false
	restore := func() {
		kubectl(t, "scale", "statefulset/nats", "--replicas="+servers)
		kubectl(t, "rollout", "status", "statefulset/nats", "--timeout=300s")
		restored = true
	}
	defer func() {
		if !restored {
			restore()
		}
	}()
	// The clock starts when the last server has gone: until then the clients fail over to it.
	for end := time.Now().Add(3 * time.Minute); time.Now().Before(end); time.Sleep(time.Second) {
		if kubectl(t, "get", "pods", "-l", "app.kubernetes.io/name=nats", "-o", "name") == "" {
			break
		}
	}
	gone := time.Now()
	bound := forDuration + interval
	slack := interval + 30*time.Second
	fired := receiver.wait(t, key, false, stopped, bound+slack+time.Minute)
	toFire := fired.Sub(gone)

	back := time.Now()
	restore()
	ready := time.Since(back)
	resolvedAt := receiver.wait(t, key, true, back, 4*time.Minute)
	toResolve := resolvedAt.Sub(back)
	t.Logf("alert drill: %s fired after %ds, resolved after %ds (NATS's %s servers scaled to 0, all gone after %s; bound: for %s + scrape %s + %s; resolved counted from the scale back, servers ready after %s)",
		alert, int(toFire.Round(time.Second).Seconds()), int(toResolve.Round(time.Second).Seconds()),
		servers, gone.Sub(stopped).Round(time.Second), forDuration, interval, slack, ready.Round(time.Second))
	// The drills that follow start from a whole product: the services' pods went unready
	// without NATS (it is in their readiness), and the alert resolves on wishlist alone.
	waitDeploymentsAvailable(t)
	// Early is measured from the scale to 0: the pods stop serving (and the scrape sees it)
	// seconds before the API stops listing them, so from `gone` an alert on time can look early.
	if early := fired.Sub(stopped); early < forDuration {
		t.Errorf("%s fired %s after the scale to 0, before its `for` of %s", alert, early, forDuration)
	}
	if toFire > bound+slack {
		t.Errorf("%s fired after %s, later than `for` + one scrape interval (%s) + %s", alert, toFire, bound, slack)
	}
}

func drillServiceDown(t *testing.T, receiver *alertReceiver) {
	interval := scrapeInterval(t)
	const service, alert, forDuration = "family", "SantaServiceDown", 2 * time.Minute
	key := alert + "/" + service
	if n := len(promQuery(t, fmt.Sprintf(`up{job=%q} == 1`, service))); n == 0 {
		t.Fatalf("no %s target is up before the drill", service)
	}

	stopped := time.Now()
	restore := stopService(t, service)
	restored := false
	defer func() {
		if !restored {
			restore()
		}
	}()
	// The clock starts when the last pod has stopped answering: a pod drains and shuts down
	// (up to its grace period) before its target goes away.
	gone := stopped
	if onCluster() {
		selector := "app.kubernetes.io/component=service,app.kubernetes.io/name=" + service
		for end := time.Now().Add(3 * time.Minute); time.Now().Before(end); time.Sleep(time.Second) {
			if kubectl(t, "get", "pods", "-l", selector, "-o", "name") == "" {
				break
			}
		}
		gone = time.Now()
	}
	// The scrape after the stop sees it (one interval), the rule's evaluation after that makes
	// the alert pending and, `for` later, firing; Prometheus then sends it to Alertmanager,
	// which sends at once (group_wait 0s). Evaluation runs on the same interval, and the
	// machine is shared, hence the slack beyond the one scrape interval.
	bound := forDuration + interval
	slack := interval + 30*time.Second
	fired := receiver.wait(t, key, false, stopped, bound+slack+time.Minute)
	toFire := fired.Sub(gone)

	back := time.Now()
	restore()
	restored = true
	resolvedAt := receiver.wait(t, key, true, back, 3*time.Minute)
	toResolve := resolvedAt.Sub(back)
	t.Logf("alert drill: %s fired after %ds, resolved after %ds (%s scaled to 0, its pods gone after %s; bound: for %s + scrape %s + %s; resolved counted from the scale back)",
		alert, int(toFire.Round(time.Second).Seconds()), int(toResolve.Round(time.Second).Seconds()),
		service, gone.Sub(stopped).Round(time.Second), forDuration, interval, slack)
	// Early is measured from the scale to 0: the pods stop serving (and the scrape sees it)
	// seconds before the API stops listing them, so from `gone` an alert on time can look early.
	if early := fired.Sub(stopped); early < forDuration {
		t.Errorf("%s fired %s after the scale to 0, before its `for` of %s", alert, early, forDuration)
	}
	if toFire > bound+slack {
		t.Errorf("%s fired after %s, later than `for` + one scrape interval (%s) + %s", alert, toFire, bound, slack)
	}
}

// crashLoopPod is a copy of a service's pod without its settings: the service stops at start
// ("DATABASE_URL is required"), and the kubelet restarts it with its back-off. Its labels are
// not the service's, so it is no endpoint and no scrape target of the service.
func crashLoopPod(name, container, image string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Pod
metadata:
  name: %s
  labels: {app: alert-drill}
spec:
  automountServiceAccountToken: false
  terminationGracePeriodSeconds: 0
  securityContext: {runAsNonRoot: true, runAsUser: 65532, seccompProfile: {type: RuntimeDefault}}
  containers:
  - name: %s
    image: %s
    imagePullPolicy: Never
    resources: {requests: {cpu: 5m, memory: 16Mi}, limits: {memory: 64Mi}}
    securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}, readOnlyRootFilesystem: true}
`, name, container, image)
}

func drillPodRestarting(t *testing.T, receiver *alertReceiver) {
	interval := scrapeInterval(t)
	const service, alert, pod = "notification", "SantaPodRestarting", "alert-drill-crashloop"
	key := alert + "/" + pod
	image := kubectl(t, "get", "deployment/"+service, "-o", "jsonpath={.spec.template.spec.containers[0].image}")

	started := time.Now()
	kubectlIn(t, os.Getenv("K8S_NAMESPACE"), crashLoopPod(pod, service, image), "apply", "-f", "-")
	deleted := false
	remove := func() {
		if !deleted {
			kubectl(t, "delete", "pod", pod, "--wait=false", "--ignore-not-found")
			deleted = true
		}
	}
	defer remove()
	// The rule: more than 3 restarts in 30 minutes, no `for`. The kubelet restarts a container
	// that exits at once, then backs off 10 s, doubling: the restarts come about 0, 10, 30, 70
	// and 150 s after the first start. Prometheus' increase() extrapolates a little past the
	// last sample, so the alert may come with the 3rd restart (never before 10 + 20 s of
	// back-off) and must by the 4th, then a scrape and an evaluation, and slack for a shared
	// machine. Once the pod is deleted the rule no longer matches it (alerts.yaml).
	earliest := 30 * time.Second
	bound := 70*time.Second + 2*interval
	slack := 60 * time.Second
	fired := receiver.wait(t, key, false, started, bound+slack+time.Minute)
	toFire := fired.Sub(started)
	restarts := kubectl(t, "get", "pod", pod, "-o", "jsonpath={.status.containerStatuses[0].restartCount}")

	gone := time.Now()
	remove()
	resolvedAt := receiver.wait(t, key, true, gone, 2*time.Minute)
	toResolve := resolvedAt.Sub(gone)
	t.Logf("alert drill: %s fired after %ds, resolved after %ds (a copy of %s without its settings crash-looping, %s restarts when it fired; bound: back-off to the 4th restart, a scrape and an evaluation %s + %s; resolved counted from the pod's deletion)",
		alert, int(toFire.Round(time.Second).Seconds()), int(toResolve.Round(time.Second).Seconds()),
		service, restarts, bound, slack)
	if toFire < earliest {
		t.Errorf("%s fired after %s, before the back-off allows 3 restarts (%s)", alert, toFire, earliest)
	}
	if toFire > bound+slack {
		t.Errorf("%s fired after %s, later than %s + %s", alert, toFire, bound, slack)
	}
}

// drillConsumerLag fills the backlog of notification's durable consumer of every product
// event: the consumer is paused in JetStream (the service keeps running and reporting its lag),
// and users add gifts until more than the rule's 500 events wait. SantaConsumerLag must fire
// within its `for` and a scrape interval of the backlog passing 500, and resolve once the
// consumer is resumed and has caught up.
// notificationConsumer is notification's durable consumer of every product event (its
// service package's ConsumerName), before the namespace is added.
const notificationConsumer = "notification"

func drillConsumerLag(t *testing.T, receiver *alertReceiver) {
	interval := scrapeInterval(t)
	const service, alert, forDuration, threshold = "notification", "SantaConsumerLag", 10 * time.Minute, 500
	const users, giftsEach = 8, 75 // 600 events: the per-user limit (240 a minute) is not reached
	key := alert + "/" + service
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	stream, done := productStream(t, ctx)
	defer done()
	durable := events.Namespace(os.Getenv("EVENTS_NAMESPACE")).Durable(notificationConsumer)
	if _, err := stream.Consumer(ctx, durable); err != nil {
		t.Fatalf("notification's consumer %s: %v", durable, err)
	}

	if _, err := stream.PauseConsumer(ctx, durable, time.Now().Add(30*time.Minute)); err != nil {
		t.Fatalf("pause %s: %v", durable, err)
	}
	resumed := false
	resume := func() {
		if _, err := stream.ResumeConsumer(context.Background(), durable); err != nil {
			t.Errorf("resume %s: %v", durable, err)
		}
		resumed = true
	}
	defer func() {
		if !resumed {
			resume()
		}
	}()

	// The gifts: each user adds theirs at three a second, all users at once.
	var wg sync.WaitGroup
	// added counts the answers of 201: a request that fails on its way ends its user's
	// goroutine (testenv fails the test), and none of that user's later gifts are sent.
	var failed, added atomic.Int64
	for u := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, _ := newUser(t, fmt.Sprintf("lagdrill%d", u))
			for i := range giftsEach {
				code, _ := c.json("POST", "/api/wishlist", map[string]any{
					"name": fmt.Sprintf("Backlog gift %d", i), "description": "A gift added while notifications wait",
				})
				if code != http.StatusCreated {
					failed.Add(1)
				} else {
					added.Add(1)
				}
				time.Sleep(time.Second / 3)
			}
		}()
	}
	wg.Wait()
	if n := added.Load(); n < users*giftsEach {
		t.Fatalf("%d of %d gifts were added (%d refused)", n, users*giftsEach, failed.Load())
	}
	// The clock starts when the service reports the backlog over the threshold.
	var filled time.Time
	pending := 0.0
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(time.Second) {
		for _, s := range promQuery(t, fmt.Sprintf(`max(events_consumer_pending{job=%q, consumer=%q})`, service, durable)) {
			pending = s.number()
		}
		if pending > threshold {
			filled = time.Now()
			break
		}
	}
	if filled.IsZero() {
		// What NATS itself says of the consumer: still paused, and how much waits.
		state := "unknown"
		if c, err := stream.Consumer(ctx, durable); err == nil {
			if info, err := c.Info(ctx); err == nil {
				state = fmt.Sprintf("paused %v, %d pending, %d awaiting ack, %d delivered",
					info.Paused, info.NumPending, info.NumAckPending, info.Delivered.Consumer)
			}
		}
		t.Fatalf("%s reported %v events pending for %s, not over %d, 2 minutes after %d gifts; NATS says: %s",
			service, pending, durable, threshold, users*giftsEach, state)
	}
	bound := forDuration + interval
	slack := interval + 30*time.Second
	fired := receiver.wait(t, key, false, filled, bound+slack+time.Minute)
	toFire := fired.Sub(filled)

	back := time.Now()
	resume()
	resolvedAt := receiver.wait(t, key, true, back, 4*time.Minute)
	toResolve := resolvedAt.Sub(back)
	t.Logf("alert drill: %s fired after %ds, resolved after %ds (%s's consumer %s paused, %d gifts added: %v events pending; bound: for %s + scrape %s + %s; resolved counted from the resume)",
		alert, int(toFire.Round(time.Second).Seconds()), int(toResolve.Round(time.Second).Seconds()),
		service, durable, users*giftsEach, pending, forDuration, interval, slack)
	if toFire < forDuration-interval {
		t.Errorf("%s fired after %s, before its `for` of %s", alert, toFire, forDuration)
	}
	if toFire > bound+slack {
		t.Errorf("%s fired after %s, later than `for` + one scrape interval (%s) + %s", alert, toFire, bound, slack)
	}
}

// drillBackupTooOld: PostgreSQL's record of its last base backup (the backup history file in
// pg_wal, which wishlist reports) is removed, as if no backup had ended for days:
// SantaBackupTooOld must fire within its `for` and a scrape interval, and resolve once a backup
// is taken (pgbackrest backup in the pod, which writes a new record).
func drillBackupTooOld(t *testing.T, receiver *alertReceiver) {
	interval := scrapeInterval(t)
	const alert, forDuration = "SantaBackupTooOld", 5 * time.Minute
	key := alert + "/"
	if n := len(promQuery(t, `wishlist_postgres_last_backup_timestamp_seconds > 0`)); n == 0 {
		t.Fatal("wishlist reports no base backup before the drill")
	}
	stopped := time.Now()
	t.Logf("alert drill: removed %s", pgExec(t, "sh", "-c", `rm -v "$PGDATA"/pg_wal/*.backup`))
	bound := forDuration + interval
	slack := interval + 30*time.Second
	fired := receiver.wait(t, key, false, stopped, bound+slack+time.Minute)
	toFire := fired.Sub(stopped)

	back := time.Now()
	label := takeBackup(t)
	took := time.Since(back)
	resolvedAt := receiver.wait(t, key, true, back, 3*time.Minute)
	t.Logf("alert drill: %s fired after %ds, resolved after %ds (the last backup's record removed; bound: for %s + scrape %s + %s; resolved counted from the start of backup %s, which took %s)",
		alert, int(toFire.Round(time.Second).Seconds()), int(resolvedAt.Sub(back).Round(time.Second).Seconds()),
		forDuration, interval, slack, label, took.Round(time.Second))
	if toFire < forDuration {
		t.Errorf("%s fired %s after the record went, before its `for` of %s", alert, toFire, forDuration)
	}
	if toFire > bound+slack {
		t.Errorf("%s fired after %s, later than `for` + one scrape interval (%s) + %s", alert, toFire, bound, slack)
	}
}
