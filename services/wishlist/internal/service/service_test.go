package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/jackc/pgx/v5/pgxpool"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/outbox"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/pkg/wiring"
	"github.com/santa-wishlist/santa/services/wishlist/internal/service"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

type wishlist struct {
	t    testing.TB
	base string
	pool *pgxpool.Pool // the test's database, for the tests that wait on its projection
}

func start(t testing.TB, dbURL, natsURL string) *wishlist {
	t.Helper()
	cfg := service.Config{OutboxConfig: wiring.OutboxConfig{DatabaseURL: dbURL, NATSURL: natsURL}, Server: httpserver.Options{Service: "wishlist", Addr: "127.0.0.1:0"},
		Identity: testenv.IdentityVerifier("wishlist"), Photos: testenv.MediaURLSigner()}
	base, _ := testenv.Serve(t, func(ctx context.Context) (*httpserver.Server, error) { return service.Build(ctx, cfg, quiet) })
	return &wishlist{t: t, base: base}
}

func (w *wishlist) call(method, path, uid string, body any) (int, []byte) {
	w.t.Helper()
	return w.send(method, path, auth.User{UID: uid}, body)
}

// send calls as u, body sent as JSON (nil: none, still marked JSON).
func (w *wishlist) send(method, path string, u auth.User, body any) (int, []byte) {
	w.t.Helper()
	c := testenv.NewClient(w.t, w.base)
	testenv.AsUser(w.t, c, "wishlist", u)
	r := c.Send(method, path, body)
	return r.Status, r.Body
}

func (w *wishlist) add(uid, name string) string {
	w.t.Helper()
	code, body := w.call("POST", "/api/wishlist", uid, map[string]any{
		"name": name, "description": "A lovely present for Christmas", "category": "Toys", "price": "$10",
	})
	if code != http.StatusCreated {
		w.t.Fatalf("add %s: %d %s", name, code, body)
	}
	var item struct{ ID string }
	_ = json.Unmarshal(body, &item)
	return item.ID
}

// streamEvents reads every event in the stream.
func streamEvents(t *testing.T, natsURL string) []events.Envelope {
	t.Helper()
	return testenv.StreamEvents(t, natsURL)
}

func TestEveryCommittedItemIsPublishedExactlyOnceAcrossANATSOutage(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())

	ids := map[string]bool{}
	for i := 0; i < 5; i++ {
		ids[w.add("elf", fmt.Sprintf("Before outage %d", i))] = true
	}
	broker.Stop()
	for i := 0; i < 10; i++ { // writes keep working: their events wait in the outbox
		ids[w.add("elf", fmt.Sprintf("During outage %d", i))] = true
	}
	broker.Start()
	for i := 0; i < 5; i++ {
		ids[w.add("elf", fmt.Sprintf("After outage %d", i))] = true
	}

	var created []events.Envelope
	testenv.Eventually(t, 30*time.Second, func() error {
		created = created[:0]
		for _, e := range streamEventsQuiet(t, broker.URL()) {
			if e.Type == events.TypeItemCreated {
				created = append(created, e)
			}
		}
		if len(created) < len(ids) {
			return fmt.Errorf("%d of %d item.created events published", len(created), len(ids))
		}
		return nil
	})
	time.Sleep(500 * time.Millisecond) // any duplicate would arrive now
	created = created[:0]
	seen := map[string]int{}
	for _, e := range streamEvents(t, broker.URL()) {
		conformsToSchema(t, e)
		if e.Type != events.TypeItemCreated {
			continue
		}
		var data struct {
			ID            string `json:"id"`
			WishlistCount int    `json:"wishlistCount"`
		}
		_ = json.Unmarshal(e.Data, &data)
		seen[data.ID]++
		if e.UserID != "elf" {
			t.Errorf("event for user %q", e.UserID)
		}
	}
	for id := range ids {
		if seen[id] != 1 {
			t.Errorf("item %s published %d times, want exactly 1", id, seen[id])
		}
	}
	if len(seen) != len(ids) {
		t.Errorf("%d items published, %d saved", len(seen), len(ids))
	}
}

// streamEventsQuiet is streamEvents that tolerates the stream not existing yet.
func streamEventsQuiet(t *testing.T, natsURL string) []events.Envelope {
	nc, js, err := events.Connect(natsURL, "probe", quiet)
	if err != nil {
		return nil
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := js.Stream(ctx, events.StreamName); err != nil {
		return nil
	}
	return streamEvents(t, natsURL)
}

func TestARolledBackWriteEmitsNoEvent(t *testing.T) {
	pool, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())
	keep := w.add("santa", "Kept present")

	ctx := context.Background()
	env, _ := events.NewEnvelope(events.TypeItemCreated, "santa", map[string]string{"id": "rolled-back"})
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if err := outbox.Enqueue(ctx, tx, env); err != nil {
			return err
		}
		return errors.New("the write fails after its event was queued")
	})
	if err == nil {
		t.Fatal("transaction should have failed")
	}
	// An invalid item never reaches the database either.
	if code, _ := w.call("POST", "/api/wishlist", "santa", map[string]any{"name": "x"}); code != http.StatusUnprocessableEntity {
		t.Fatalf("invalid item: %d", code)
	}
	second := w.add("santa", "Second kept present")

	testenv.Eventually(t, 10*time.Second, func() error {
		if n := len(streamEventsQuiet(t, broker.URL())); n < 2 {
			return fmt.Errorf("%d events", n)
		}
		return nil
	})
	time.Sleep(300 * time.Millisecond)
	got := streamEvents(t, broker.URL())
	if len(got) != 2 {
		t.Fatalf("stream holds %d events, want 2 (the kept items only)", len(got))
	}
	for _, e := range got {
		if e.ID == env.ID {
			t.Fatal("the rolled-back event was published")
		}
		if !strings.Contains(string(e.Data), keep) && !strings.Contains(string(e.Data), second) {
			t.Fatalf("unexpected event %s", e.Data)
		}
	}
}

func TestReadinessFollowsPostgres(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	proxy := testenv.StartTCPProxy(t, "127.0.0.1:5432")
	proxied := strings.Replace(dbURL, "127.0.0.1:5432", proxy.Addr(), 1)
	w := start(t, proxied, testenv.StartNATS(t).URL())

	if code, _ := w.call("GET", "/readyz", "", nil); code != http.StatusOK {
		t.Fatalf("ready with PostgreSQL up: %d", code)
	}
	proxy.Cut()
	testenv.Eventually(t, 10*time.Second, func() error {
		if code, _ := w.call("GET", "/readyz", "", nil); code != http.StatusServiceUnavailable {
			return fmt.Errorf("readyz = %d while PostgreSQL is unreachable", code)
		}
		return nil
	})
	// A write while the database is gone is a clear 503, not a 500.
	if code, body := w.call("POST", "/api/wishlist", "elf", map[string]any{
		"name": "Sled", "description": "A wooden sled for snow", "category": "Toys",
	}); code != http.StatusServiceUnavailable || !strings.Contains(string(body), "Failed to add item to wishlist") {
		t.Fatalf("write during outage: %d %s", code, body)
	}
	proxy.Restore()
	testenv.Eventually(t, 15*time.Second, func() error {
		if code, _ := w.call("GET", "/readyz", "", nil); code != http.StatusOK {
			return fmt.Errorf("readyz = %d after PostgreSQL came back", code)
		}
		return nil
	})
}

func TestItemsAreScopedToTheirOwner(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	w := start(t, dbURL, testenv.StartNATS(t).URL())
	var aliceIDs []string
	for i := 0; i < 7; i++ {
		aliceIDs = append(aliceIDs, w.add("alice", fmt.Sprintf("Alice gift %d", i)))
	}
	bobID := w.add("bob", "Bob gift")

	list := func(path, uid string) []map[string]any {
		code, body := w.call("GET", path, uid, nil)
		if code != 200 {
			t.Fatalf("%s: %d %s", path, code, body)
		}
		var items []map[string]any
		_ = json.Unmarshal(body, &items)
		return items
	}
	all := list("/api/wishlist", "alice")
	if len(all) != 7 || all[0]["name"] != "Alice gift 6" || all[6]["name"] != "Alice gift 0" {
		t.Fatalf("alice's list is not her 7 items newest first: %v", all)
	}
	if recent := list("/api/wishlist/recent", "alice"); len(recent) != 5 || recent[0]["name"] != "Alice gift 6" {
		t.Fatalf("recent: %v", recent)
	}
	if bobs := list("/api/wishlist", "bob"); len(bobs) != 1 || bobs[0]["id"] != bobID {
		t.Fatalf("bob sees %v", bobs)
	}
	// Bob cannot delete Alice's item, and cannot even learn that it exists.
	if code, body := w.call("DELETE", "/api/wishlist/"+aliceIDs[0], "bob", nil); code != http.StatusNotFound {
		t.Fatalf("bob deleting alice's item: %d %s", code, body)
	}
	if code, _ := w.call("DELETE", "/api/wishlist/"+aliceIDs[0], "alice", nil); code != http.StatusNoContent {
		t.Fatalf("alice deleting her item: %d", code)
	}
	if code, _ := w.call("DELETE", "/api/wishlist/"+aliceIDs[0], "alice", nil); code != http.StatusNotFound {
		t.Fatalf("deleting twice: %d", code)
	}
	if code, _ := w.call("DELETE", "/api/wishlist/not-a-uuid", "alice", nil); code != http.StatusBadRequest {
		t.Fatalf("non-UUID id: %d", code)
	}
	if code, _ := w.call("GET", "/api/wishlist", "", nil); code != http.StatusUnauthorized {
		t.Fatalf("no verified user: %d", code)
	}
	if len(list("/api/wishlist", "alice")) != 6 {
		t.Fatal("alice should have 6 items left")
	}
}

func TestSendToSantaSavesOnceAndMarksTheItem(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())
	gift := map[string]any{"name": "Snow Globe", "description": "A glass globe with a tiny village", "price": "$15.00", "imageUrl": ""}
	code, body := w.call("POST", "/api/santa", "kid", gift)
	if code != 200 {
		t.Fatalf("santa: %d %s", code, body)
	}
	var first map[string]any
	_ = json.Unmarshal(body, &first)
	if first["sentToSanta"] != true || first["category"] != nil {
		t.Fatalf("first send: %v", first)
	}
	// Sending the same gift again does not add it twice.
	code, body = w.call("POST", "/api/santa", "kid", gift)
	var second map[string]any
	_ = json.Unmarshal(body, &second)
	if code != 200 || second["id"] != first["id"] {
		t.Fatalf("second send: %d %v", code, second)
	}
	// An item already on the list is marked by id.
	id := w.add("kid", "Wooden Train")
	if code, body := w.call("POST", "/api/santa", "kid", map[string]any{"id": id}); code != 200 || !strings.Contains(string(body), `"sentToSanta":true`) {
		t.Fatalf("send by id: %d %s", code, body)
	}
	if code, _ := w.call("POST", "/api/santa", "someone-else", map[string]any{"id": id}); code != http.StatusNotFound {
		t.Fatalf("another user's item: %d", code)
	}
	code, body = w.call("GET", "/api/wishlist", "kid", nil)
	if code != 200 || strings.Count(string(body), `"sentToSanta":true`) != 2 || strings.Count(string(body), `"id"`) != 2 {
		t.Fatalf("list after sends: %s", body)
	}
	testenv.Eventually(t, 10*time.Second, func() error {
		n := 0
		for _, e := range streamEventsQuiet(t, broker.URL()) {
			conformsToSchema(t, e)
			if e.Type == events.TypeSantaSent {
				n++
			}
		}
		if n != 3 {
			return fmt.Errorf("%d santa.sent events, want 3", n)
		}
		return nil
	})
}
