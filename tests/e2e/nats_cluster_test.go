//go:build e2e && cluster

// The NATS drills of `make k8s-test`: the chart's three-server JetStream cluster (nats.replicas
// 3 in deploy/cluster/values.yaml) loses a server, then restarts all three one by one, while a
// client writes items and family members claim gifts on a shared list. The stream and every
// consumer keep a copy on each server, so nothing is lost and nothing arrives twice.
package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/santa-wishlist/santa/pkg/events"
)

// claimBurst is family members claiming the gifts of one shared list, each at a steady pace.
type claimBurst struct {
	token    string
	items    []string
	claimers []*load // each member's own client (plain HTTP: nothing that stops the test from a goroutine)
	uids     []string

	mu       sync.Mutex
	claimed  map[string][]string // by claimer uid: the items whose claim was answered 200
	failures map[string]int
}

// newClaimBurst makes a list owner with n gifts (each wanted 99 times, so every claimer may
// claim each), shares the list, and signs in `claimers` family members who open the link.
func newClaimBurst(t *testing.T, claimers, n int) *claimBurst {
	owner, _ := newUser(t, "burst-owner")
	var lists []struct {
		ID        string `json:"id"`
		IsDefault bool   `json:"isDefault"`
	}
	owner.must(200, "GET", "/api/lists", nil, &lists)
	b := &claimBurst{claimed: map[string][]string{}, failures: map[string]int{}}
	for i := 0; i < n; i++ {
		var it item
		owner.must(201, "POST", "/api/wishlist", map[string]any{"name": fmt.Sprintf("Burst gift %d", i),
			"description": "A gift the whole family wants to give", "category": "Toys", "quantity": 99,
			"listId": lists[0].ID}, &it)
		b.items = append(b.items, it.ID)
	}
	var share struct{ Token string }
	owner.must(200, "POST", "/api/lists/"+lists[0].ID+"/share", nil, &share)
	b.token = share.Token
	for i := 0; i < claimers; i++ {
		c, session := newUser(t, fmt.Sprintf("burst-claimer-%d", i))
		c.must(200, "GET", "/api/shared/"+b.token, nil, nil)
		b.claimers = append(b.claimers, newLoad(t, c, false))
		b.uids = append(b.uids, session.UID)
	}
	return b
}

// run has every claimer claim the next gift every `every` until ctx ends or the gifts run out,
// then waits for the claims in flight. A claim without an answer or with a 5xx is sent again.
func (b *claimBurst) run(ctx context.Context, every time.Duration) (wait func()) {
	var wg sync.WaitGroup
	for i, c := range b.claimers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tick := time.NewTicker(every)
			defer tick.Stop()
			for _, itemID := range b.items {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
				b.claim(c, b.uids[i], itemID)
			}
		}()
	}
	return wg.Wait
}

func (b *claimBurst) claim(c *load, uid, itemID string) {
	body, _ := json.Marshal(map[string]any{"quantity": 1})
	for attempt := 0; attempt < 10; attempt++ {
		code, _, err := c.request(http.MethodPut, "/api/shared/"+b.token+"/items/"+itemID+"/claim", body, "")
		b.mu.Lock()
		if err == nil && code == http.StatusOK {
			b.claimed[uid] = append(b.claimed[uid], itemID)
			b.mu.Unlock()
			return
		}
		what := "claim: transport"
		if err == nil {
			what = fmt.Sprintf("claim: %d", code)
		}
		b.failures[what]++
		b.mu.Unlock()
		if err == nil && code < 500 {
			return
		}
		time.Sleep(time.Second)
	}
}

func (b *claimBurst) total() (claims, failed int) {
	for _, ids := range b.claimed {
		claims += len(ids)
	}
	for _, n := range b.failures {
		failed += n
	}
	return
}

// verify counts each claimer's item.claimed events since `since`: one per claim answered 200.
func (b *claimBurst) verify(t *testing.T, since time.Time) (lost, doubled int) {
	t.Helper()
	for _, uid := range b.uids {
		want := map[string]bool{}
		for _, id := range b.claimed[uid] {
			want[id] = true
		}
		seen := streamEvents(t, events.TypeItemClaimed, uid, since, len(want))
		for id := range want {
			if seen[id] == 0 {
				lost++
			}
		}
		for id, n := range seen {
			switch {
			case !want[id]:
				doubled += n // a claim nobody was told about
			case n > 1:
				doubled += n - 1
			}
		}
	}
	return lost, doubled
}

// natsStream is the product stream as the cluster's NATS sees it: its replica count, leader
// and followers.
func natsStream(t *testing.T) *jetstream.StreamInfo {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, done := productStream(t, ctx)
	defer done()
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// waitStreamWhole waits until the stream has a leader and every follower is current again,
// and returns how long that took.
func waitStreamWhole(t *testing.T, replicas int) time.Duration {
	t.Helper()
	start := time.Now()
	for time.Since(start) < 3*time.Minute {
		info := natsStream(t)
		current := 0
		if info.Cluster != nil && info.Cluster.Leader != "" {
			current = 1
			for _, p := range info.Cluster.Replicas {
				if p.Current && !p.Offline {
					current++
				}
			}
		}
		if current == replicas {
			return time.Since(start)
		}
		time.Sleep(time.Second)
	}
	t.Fatalf("the stream did not get its %d current copies back in 3 minutes: %+v", replicas, natsStream(t).Cluster)
	return 0
}

// requireR3 checks the drills' premise: three servers, the stream on all three, each durable
// consumer too (a consumer on one server would lose its place with that server).
func requireR3(t *testing.T) {
	t.Helper()
	info := natsStream(t)
	if info.Config.Replicas != 3 || info.Cluster == nil || len(info.Cluster.Replicas) != 2 {
		t.Fatalf("the stream is not on three servers: replicas %d, cluster %+v", info.Config.Replicas, info.Cluster)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, done := productStream(t, ctx)
	defer done()
	consumers := 0
	for ci := range s.ListConsumers(ctx).Info() {
		if ci.Config.Durable == "" {
			continue
		}
		consumers++
		if ci.Cluster == nil || len(ci.Cluster.Replicas) != 2 {
			t.Errorf("consumer %s is not on three servers: %+v", ci.Name, ci.Cluster)
		}
	}
	if consumers == 0 {
		t.Fatal("no durable consumer on the stream")
	}
	t.Logf("drill: stream %s on 3 servers (leader %s), %d durable consumers on 3 servers each",
		info.Config.Name, info.Cluster.Leader, consumers)
}

// natsDrill runs the write load and the claim burst around disturb, then counts.
func natsDrill(t *testing.T, name string, claimEvery time.Duration, disturb func()) {
	requireR3(t)
	owner, session := newUser(t, "drill-nats")
	burst := newClaimBurst(t, 3, 60)
	since := time.Now().Add(-time.Second)
	l := newLoad(t, owner, true)
	ctx, stop := context.WithCancel(context.Background())
	waitLoad := l.run(ctx, 500*time.Millisecond)
	waitClaims := burst.run(ctx, claimEvery)
	time.Sleep(3 * time.Second)

	start := time.Now()
	disturb()
	took := time.Since(start)
	whole := waitStreamWhole(t, 3)
	time.Sleep(3 * time.Second)
	stop()
	waitLoad()
	waitClaims()

	lostItems, doubledItems, lostEvents, doubledEvents := l.verify(t, owner, session.UID, since)
	report(t, name, took, l, lostItems, doubledItems, lostEvents, doubledEvents)
	claims, claimsFailed := burst.total()
	lostClaims, doubledClaims := burst.verify(t, since)
	t.Logf("drill: %s: %d claims by %d family members (%d failed %v); claim events lost %d, doubled %d; stream whole again %s later",
		name, claims, len(burst.claimers), claimsFailed, burst.failures, lostClaims, doubledClaims, whole.Round(time.Second))
	if claims == 0 {
		t.Errorf("%s: no claim was made", name)
	}
	if lostClaims+doubledClaims > 0 {
		t.Errorf("%s lost or doubled claim events", name)
	}
}

// One NATS server deleted, the stream's leader, during writes and a claim burst: the other two
// elect a new leader and go on; the deleted one comes back and catches up.
func TestDrillNATSServerLostDuringWritesAndClaims(t *testing.T) {
	natsDrill(t, "delete the NATS stream leader's pod during writes and claims", 250*time.Millisecond, func() {
		leader := natsStream(t).Cluster.Leader
		kubectl(t, "delete", "pod", leader, "--wait=false")
		t.Logf("drill: deleted pod %s, the stream's leader", leader)
		time.Sleep(3 * time.Second)
		kubectl(t, "rollout", "status", "statefulset/nats", "--timeout=300s")
		t.Logf("drill: new leader %s", natsStream(t).Cluster.Leader)
	})
}

// All three NATS servers restarted one by one (a version upgrade, a config change).
func TestDrillNATSRollingRestart(t *testing.T) {
	natsDrill(t, "restart all three NATS servers one by one during writes and claims", time.Second, func() {
		kubectl(t, "rollout", "restart", "statefulset/nats")
		time.Sleep(2 * time.Second)
		kubectl(t, "rollout", "status", "statefulset/nats", "--timeout=600s")
	})
}
