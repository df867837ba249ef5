//go:build e2e && cluster

// The drills of `make k8s-test` (deploy/cluster/k8s-test.sh): the product installed by the
// chart on a real cluster, disturbed the ways a cluster disturbs it, while a client writes and
// reads at a steady rate. Each prints what it did and what was lost. They need kubectl and the
// release's namespace (KUBECTL, K8S_NAMESPACE) and NATS as the gateway user (TEST_NATS_URL) to
// count the events.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

// load is a client writing items and reading the list at a steady rate.
type load struct {
	base, token string
	http        *http.Client
	// retry: a failed write is sent again with the same Idempotency-Key until it succeeds, as
	// the web client does; without it a failure is final.
	retry bool

	mu       sync.Mutex
	created  []string       // item ids the client was told were created
	failures map[string]int // what failed, by answer ("503", "transport", ...)
	answers  []string       // each failure's time and answer, to tell whose it was
	writes   int
	reads    int
}

func newLoad(t *testing.T, owner *client, retry bool) *load {
	return &load{base: owner.base, token: owner.token, retry: retry, failures: map[string]int{},
		http: &http.Client{Timeout: 15 * time.Second}}
}

func (l *load) fail(what string, answer []byte, err error) {
	l.mu.Lock()
	l.failures[what]++
	if err != nil {
		answer = []byte(err.Error())
	}
	l.answers = append(l.answers, fmt.Sprintf("%s %s: %.200s", time.Now().UTC().Format("15:04:05.000"), what, answer))
	l.mu.Unlock()
}

func (l *load) request(method, path string, body []byte, key string) (int, []byte, error) {
	code, out, _, err := l.requestWithHeader(method, path, body, key)
	return code, out, err
}

func (l *load) requestWithHeader(method, path string, body []byte, key string) (int, []byte, http.Header, error) {
	req, _ := http.NewRequest(method, l.base+path, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+l.token)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := l.http.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(resp.Body)
	return resp.StatusCode, buf.Bytes(), resp.Header, nil
}

// retryAfter is how long the answer asks the client to wait (Retry-After seconds), as the web
// client honours it: one second when it does not say, at most five.
func retryAfter(h http.Header) time.Duration {
	if s, err := strconv.Atoi(h.Get("Retry-After")); err == nil && s > 0 {
		return min(time.Duration(s)*time.Second, 5*time.Second)
	}
	return time.Second
}

// write adds one item; with retry, the same key is sent until it is created.
func (l *load) write(ctx context.Context, n int) {
	key := uuid.NewString()
	body, _ := json.Marshal(map[string]any{"name": fmt.Sprintf("Drill gift %d", n),
		"description": "Something Santa's elves can make", "category": "Toys", "price": "$12"})
	for {
		l.mu.Lock()
		l.writes++
		l.mu.Unlock()
		code, out, h, err := l.requestWithHeader(http.MethodPost, "/api/wishlist", body, key)
		if err == nil && code == http.StatusCreated {
			var it item
			_ = json.Unmarshal(out, &it)
			l.mu.Lock()
			l.created = append(l.created, it.ID)
			l.mu.Unlock()
			return
		}
		if err != nil {
			l.fail("write: transport", nil, err)
		} else {
			l.fail(fmt.Sprintf("write: %d", code), out, nil)
		}
		// Only what may succeed later is retried: no answer, a 5xx or a 429.
		retryable := err != nil || code >= 500 || code == http.StatusTooManyRequests
		if !l.retry || !retryable || ctx.Err() != nil {
			return
		}
		time.Sleep(retryAfter(h))
	}
}

func (l *load) read() {
	l.mu.Lock()
	l.reads++
	l.mu.Unlock()
	code, out, err := l.request(http.MethodGet, "/api/wishlist", nil, "")
	switch {
	case err != nil:
		l.fail("read: transport", nil, err)
	case code != http.StatusOK:
		l.fail(fmt.Sprintf("read: %d", code), out, nil)
	}
}

// run writes every interval and reads every other until ctx ends, then waits for the writes
// in flight. At the drills' pace (a write every 500 ms) one user stays well under the
// gateway's per-user limit (240 a minute), so a 429 means something went wrong.
func (l *load) run(ctx context.Context, every time.Duration) (wait func()) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for n := 0; ; n++ {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			wg.Add(1)
			go func() { defer wg.Done(); l.write(context.WithoutCancel(ctx), n) }()
			if n%2 == 0 {
				wg.Add(1)
				go func() { defer wg.Done(); l.read() }()
			}
		}
	}()
	return wg.Wait
}

func (l *load) failed() int {
	total := 0
	for _, n := range l.failures {
		total += n
	}
	return total
}

// verify compares what the client was told with the list and with the item.created events
// published since `since`: nothing lost, nothing twice. It returns lost and doubled counts.
func (l *load) verify(t *testing.T, owner *client, uid string, since time.Time) (lostItems, doubledItems, lostEvents, doubledEvents int) {
	t.Helper()
	listed := map[string]int{}
	for _, it := range owner.list() {
		listed[it.ID]++
	}
	for _, id := range l.created {
		if listed[id] == 0 {
			lostItems++
		}
	}
	for _, n := range listed {
		if n > 1 {
			doubledItems += n - 1
		}
	}
	doubledItems += len(listed) - len(uniq(l.created)) // an item nobody was told about
	seen := itemEvents(t, uid, since, len(listed))
	for id := range listed {
		switch n := seen[id]; {
		case n == 0:
			lostEvents++
		case n > 1:
			doubledEvents += n - 1
		}
	}
	return
}

func uniq(ids []string) map[string]bool {
	m := map[string]bool{}
	for _, id := range ids {
		m[id] = true
	}
	return m
}

// itemEvents counts the item.created events of uid since `since`, by item id, waiting until
// `want` distinct ones came (the outbox relays what was committed while NATS was away) and a
// little longer, so a late duplicate is counted too.
func itemEvents(t *testing.T, uid string, since time.Time, want int) map[string]int {
	return streamEvents(t, events.TypeItemCreated, uid, since, want)
}

// streamEvents counts the events of one type and user since `since` in the product stream, by
// the item they are about (data.id, or data.itemId for claims), waiting as itemEvents does.
func streamEvents(t *testing.T, eventType, uid string, since time.Time, want int) map[string]int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	stream, done := productStream(t, ctx)
	defer done()
	cons, err := stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{
		DeliverPolicy: jetstream.DeliverByStartTimePolicy, OptStartTime: &since,
	})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	quiet := time.Time{}
	for ctx.Err() == nil {
		msg, err := cons.Next(jetstream.FetchMaxWait(time.Second))
		if err != nil {
			if quiet.IsZero() {
				quiet = time.Now()
			}
			if len(seen) >= want && time.Since(quiet) > 3*time.Second {
				break
			}
			continue
		}
		quiet = time.Time{}
		var env events.Envelope
		_ = json.Unmarshal(msg.Data(), &env)
		if env.UserID != uid || env.Type != eventType {
			continue
		}
		var data struct {
			ID     string `json:"id"`
			ItemID string `json:"itemId"`
		}
		_ = json.Unmarshal(env.Data, &data)
		seen[data.ID+data.ItemID]++
	}
	return seen
}

// productStream is the release's event stream, read over its own connection (done closes it).
// The services made the stream; the drills only read it (an EnsureStream of the test's would
// set its replica count back to one on the cluster's three NATS servers).
func productStream(t *testing.T, ctx context.Context) (stream jetstream.Stream, done func()) {
	t.Helper()
	nc, js, err := events.Connect(testenv.SharedNATSURL(), "k8s-drill", quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	js = events.InNamespace(js, events.Namespace(os.Getenv("EVENTS_NAMESPACE")))
	stream, err = js.Stream(ctx, events.NamespaceOf(js).Stream())
	if err != nil {
		nc.Close()
		t.Fatal(err)
	}
	return stream, nc.Close
}

func report(t *testing.T, name string, took time.Duration, l *load, lostItems, doubledItems, lostEvents, doubledEvents int) {
	t.Logf("drill: %s took %s: %d writes (%d created), %d reads, %d failed %v; items lost %d, doubled %d; events lost %d, doubled %d",
		name, took.Round(time.Second), l.writes, len(l.created), l.reads, l.failed(), l.failures,
		lostItems, doubledItems, lostEvents, doubledEvents)
	if lostItems+doubledItems+lostEvents+doubledEvents > 0 {
		t.Errorf("%s lost or doubled something", name)
	}
	if len(l.created) == 0 {
		t.Errorf("%s: nothing was written", name)
	}
}

// Two replicas of every service, their PDBs, readiness and preStop delay: restarting every
// Deployment under a steady client fails no request and loses or doubles nothing.
func TestDrillRolloutRestartLosesNothing(t *testing.T) {
	owner, session := newUser(t, "drill-rollout")
	since := time.Now().Add(-time.Second)
	l := newLoad(t, owner, false)
	ctx, stop := context.WithCancel(context.Background())
	wait := l.run(ctx, 500*time.Millisecond)
	time.Sleep(3 * time.Second)

	start := time.Now()
	deployments := strings.Fields(kubectl(t, "get", "deployment", "-l", "app.kubernetes.io/component=service", "-o", "name"))
	if len(deployments) < 6 {
		t.Fatalf("expected the six services' Deployments, got %v", deployments)
	}
	kubectl(t, append([]string{"rollout", "restart"}, deployments...)...)
	for _, d := range deployments {
		s := time.Now()
		kubectl(t, "rollout", "status", d, "--timeout=300s")
		t.Logf("drill: %s rolled out (%s after the previous one)", d, time.Since(s).Round(time.Second))
	}
	took := time.Since(start)
	time.Sleep(3 * time.Second)
	stop()
	wait()

	lostItems, doubledItems, lostEvents, doubledEvents := l.verify(t, owner, session.UID, since)
	report(t, fmt.Sprintf("rollout restart of %d Deployments", len(deployments)), took, l, lostItems, doubledItems, lostEvents, doubledEvents)
	if l.failed() > 0 {
		// Said first: the diagnosis below runs kubectl, which ends the test if it fails.
		t.Errorf("%d requests failed during the rollout: %v", l.failed(), l.failures)
		// Each failure's answer (the gateway's JSON says which upstream error it was), and what
		// the gateway pods still running said of their upstreams (the replaced pods' logs are gone).
		t.Logf("the failed requests' answers:\n  %s", strings.Join(l.answers, "\n  "))
		for _, line := range strings.Split(kubectl(t, "logs", "-l", "app.kubernetes.io/name=gateway", "--prefix",
			"--since-time="+start.UTC().Format(time.RFC3339), "--tail=-1", "--max-log-requests=10"), "\n") {
			if strings.Contains(line, "upstream failed") {
				t.Logf("gateway: %.400s", line)
			}
		}
	}
}

// Deleting the PostgreSQL pod during writes: writes fail cleanly (an answer, never a hang) or
// wait, the client's retries with the same key succeed after recovery, nothing committed is
// lost and every item's event arrives once. (NATS, three servers here, has its own drills in
// nats_cluster_test.go.)
func TestDrillDependencyPodsDeletedDuringWrites(t *testing.T) {
	for _, dep := range []string{"postgresql"} {
		owner, session := newUser(t, "drill-"+dep)
		since := time.Now().Add(-time.Second)
		l := newLoad(t, owner, true)
		ctx, stop := context.WithCancel(context.Background())
		wait := l.run(ctx, 500*time.Millisecond)
		time.Sleep(3 * time.Second)
		start := time.Now()
		kubectl(t, "delete", "pod", "-l", "app.kubernetes.io/name="+dep, "--wait=false")
		time.Sleep(2 * time.Second)
		kubectl(t, "rollout", "status", "statefulset/"+dep, "--timeout=300s")
		took := time.Since(start)
		time.Sleep(5 * time.Second)
		stop()
		wait()
		for what := range l.failures {
			if strings.HasSuffix(what, ": 500") {
				t.Errorf("%s: a 500 while %s was away: %v", dep, dep, l.failures)
			}
		}
		lostItems, doubledItems, lostEvents, doubledEvents := l.verify(t, owner, session.UID, since)
		report(t, "delete the "+dep+" pod during writes", took, l, lostItems, doubledItems, lostEvents, doubledEvents)
	}
}

// A pod killed with SIGKILL (no preStop, no drain): the client's retries with the same
// Idempotency-Key add nothing twice.
func TestDrillKilledPodRetriesAddNothingTwice(t *testing.T) {
	owner, session := newUser(t, "drill-kill")
	since := time.Now().Add(-time.Second)
	l := newLoad(t, owner, true)
	ctx, stop := context.WithCancel(context.Background())
	wait := l.run(ctx, 500*time.Millisecond)
	time.Sleep(3 * time.Second)
	start := time.Now()
	for _, svc := range []string{"wishlist", "gateway"} {
		pod := strings.Fields(kubectl(t, "get", "pod", "-l", "app.kubernetes.io/name="+svc, "-o", "name"))[0]
		kubectl(t, "delete", pod, "--grace-period=0", "--force")
		t.Logf("drill: killed %s", pod)
		time.Sleep(3 * time.Second)
		kubectl(t, "rollout", "status", "deployment/"+svc, "--timeout=300s")
	}
	took := time.Since(start)
	time.Sleep(3 * time.Second)
	stop()
	wait()
	lostItems, doubledItems, lostEvents, doubledEvents := l.verify(t, owner, session.UID, since)
	report(t, "SIGKILL of a wishlist and a gateway pod", took, l, lostItems, doubledItems, lostEvents, doubledEvents)
}
