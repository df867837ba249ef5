//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

func TestAddListDeleteThroughTheGateway(t *testing.T) {
	c, _ := newUser(t, "roundtrip")
	code, body := c.json("POST", "/api/wishlist", map[string]any{
		"name": "Toy Racing Car", "description": "A red remote-controlled racing car",
		"category": "Toys", "price": "$29.99", "searchQuery": "", "imageUrl": "",
	})
	if code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, body)
	}
	var created item
	_ = json.Unmarshal(body, &created)
	if created.SearchQuery != "Toy Racing Car" || !strings.Contains(created.ShoppingURL, "q=Toy+Racing+Car") {
		t.Fatalf("defaults: %+v", created)
	}
	items := c.list()
	if len(items) != 1 || items[0].ID != created.ID {
		t.Fatalf("list: %+v", items)
	}
	if code, _, _ := c.do("DELETE", "/api/wishlist/"+created.ID, nil); code != http.StatusNoContent {
		t.Fatalf("delete: %d", code)
	}
	if len(c.list()) != 0 {
		t.Fatal("item still listed after delete")
	}
}

func TestUsersCannotSeeOrDeleteEachOthersItems(t *testing.T) {
	alice, _ := newUser(t, "alice")
	bob, _ := newUser(t, "bob")
	secret := alice.add("Alice's surprise")
	if items := bob.list(); len(items) != 0 {
		t.Fatalf("bob sees %v", items)
	}
	if code, _, _ := bob.do("DELETE", "/api/wishlist/"+secret.ID, nil); code != http.StatusNotFound {
		t.Fatalf("bob deleting alice's item: %d (want 404, never 403)", code)
	}
	if items := alice.list(); len(items) != 1 {
		t.Fatal("alice's item was lost")
	}
	// A uid in the body is ignored: the item belongs to the verified caller.
	code, body := bob.json("POST", "/api/wishlist", map[string]any{
		"name": "Planted item", "description": "Trying to write into alice's list", "category": "Toys", "userId": "alice",
	})
	if code != 201 || len(alice.list()) != 1 || len(bob.list()) != 1 {
		t.Fatalf("userId in body: %d %s", code, body)
	}
}

func TestTheSpecsValidationMessages(t *testing.T) {
	c, _ := newUser(t, "validate")
	code, body := c.json("POST", "/api/wishlist", map[string]any{
		"name": "ab", "description": "too short", "category": "", "searchQuery": "ab", "imageUrl": "nope",
	})
	if code != http.StatusUnprocessableEntity {
		t.Fatalf("status %d", code)
	}
	var e struct {
		Error struct {
			Message string
			Fields  map[string]string
		}
	}
	_ = json.Unmarshal(body, &e)
	want := map[string]string{
		"name":        "Item name must be at least 3 characters.",
		"description": "Please provide a detailed description (at least 10 characters).",
		"category":    "Please select a category.",
		"searchQuery": "Please provide a search query for the product.",
		"imageUrl":    "Please provide a valid image URL or leave it blank.",
	}
	for f, msg := range want {
		if e.Error.Fields[f] != msg {
			t.Errorf("%s: got %q want %q", f, e.Error.Fields[f], msg)
		}
	}
	if e.Error.Message != want["name"] {
		t.Errorf("headline %q", e.Error.Message)
	}
	if len(c.list()) != 0 {
		t.Fatal("an invalid item was saved")
	}
}

func TestBadInputIsA4xxNeverA500(t *testing.T) {
	c, _ := newUser(t, "bad")
	keep := c.add("Saved before the bad input")
	cases := []struct {
		name, method, path string
		body               []byte
	}{
		{"malformed JSON", "POST", "/api/wishlist", []byte(`{"name": "Sled",`)},
		{"not an object", "POST", "/api/wishlist", []byte(`[1,2,3]`)},
		{"wrong types", "POST", "/api/wishlist", []byte(`{"name": 42, "description": true, "features": "many"}`)},
		{"invalid UTF-8", "POST", "/api/wishlist", []byte("{\"name\":\"Sl\xffed\",\"description\":\"A wooden sled for snow\"}")},
		{"huge field", "POST", "/api/wishlist", []byte(`{"name":"` + strings.Repeat("n", 100000) + `","description":"A wooden sled for snow"}`)},
		{"NUL character", "POST", "/api/wishlist", []byte(`{"name":"Sled","description":"A wooden\u0000sled","features":["fast\u0000"]}`)},
		{"non-UUID id", "DELETE", "/api/wishlist/123;DROP TABLE items", nil},
		{"unknown id", "DELETE", "/api/wishlist/6f1c1f64-5c55-4f7e-9a49-0b1f9a1c0000", nil},
		{"empty body", "POST", "/api/wishlist", []byte(``)},
		{"santa wrong id", "POST", "/api/santa", []byte(`{"id":"nope"}`)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, body, hdr := c.do(tc.method, tc.path, tc.body)
			if code < 400 || code >= 500 || !strings.Contains(hdr.Get("Content-Type"), "json") || !strings.Contains(string(body), `"error"`) {
				t.Fatalf("%s: %d %s %s", tc.name, code, hdr.Get("Content-Type"), body)
			}
		})
	}
	if items := c.list(); len(items) != 1 || items[0].ID != keep.ID {
		t.Fatalf("saved data lost after bad input: %+v", items)
	}
}

func TestADoubleTapWithOneIdempotencyKeyAddsOneItem(t *testing.T) {
	c, _ := newUser(t, "tap")
	body := map[string]any{"name": "Snow Globe", "description": "A glass globe with a tiny village", "category": "Home"}
	results := make(chan int, 2)
	for i := 0; i < 2; i++ {
		go func() {
			code, _ := c.json("POST", "/api/wishlist", body, "Idempotency-Key", "double-tap-1")
			results <- code
		}()
	}
	codes := []int{<-results, <-results}
	if len(c.list()) != 1 {
		t.Fatalf("%d items after a double tap (answers %v)", len(c.list()), codes)
	}
	for _, code := range codes {
		if code != 201 && code != 409 { // 409: the twin arrived while the first was still running
			t.Fatalf("answers %v", codes)
		}
	}
	code, _ := c.json("POST", "/api/wishlist", body, "Idempotency-Key", "double-tap-1")
	if code != 201 || len(c.list()) != 1 {
		t.Fatalf("replay: %d, %d items", code, len(c.list()))
	}
}

func TestThePerUserRateLimitAnswers429(t *testing.T) {
	c, _ := newUser(t, "limit")
	// The limit counts per fixed minute (aligned to the clock): a burst that straddles the turn
	// of a minute is counted in two windows and may pass whole. Start it in a fresh minute.
	if left := time.Until(time.Now().Truncate(time.Minute).Add(time.Minute)); left < 20*time.Second {
		time.Sleep(left + 100*time.Millisecond)
	}
	for i := 0; i < 400; i++ {
		code, body, hdr := c.do("GET", "/api/wishlist/recent", nil)
		if code == http.StatusTooManyRequests {
			if hdr.Get("Retry-After") == "" || !strings.Contains(string(body), "rate_limited") {
				t.Fatalf("429 without Retry-After: %s", body)
			}
			if i < 200 {
				t.Fatalf("limited after only %d requests", i)
			}
			return
		}
		if code != 200 {
			t.Fatalf("request %d: %d", i, code)
		}
	}
	t.Fatal("400 requests in a row were never limited")
}

func TestEveryItemAnnouncesItselfOnce(t *testing.T) {
	c, session := newUser(t, "events")
	nc, js, err := events.Connect(testenv.SharedNATSURL(), "e2e", quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	// The stack under test publishes in its own namespace (stack.sh sets EVENTS_NAMESPACE).
	js = events.InNamespace(js, events.Namespace(os.Getenv("EVENTS_NAMESPACE")))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// The services made the stream; the test only reads it (an EnsureStream of the test's
	// would set its replica count back to one on the cluster's three NATS servers).
	stream, err := js.Stream(ctx, events.NamespaceOf(js).Stream())
	if err != nil {
		t.Fatal(err)
	}
	since := time.Now().Add(-time.Second)
	want := map[string]bool{}
	for i := 0; i < 3; i++ {
		want[c.add(fmt.Sprintf("Announced gift %d", i)).ID] = true
	}
	// Read everything the stream got since just before the writes, then a little longer so a
	// late duplicate would be counted too.
	seen := map[string]int{}
	cons, err := stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{
		DeliverPolicy: jetstream.DeliverByStartTimePolicy, OptStartTime: &since,
	})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	quietSince := time.Time{}
	for time.Now().Before(deadline) {
		msg, err := cons.Next(jetstream.FetchMaxWait(500 * time.Millisecond))
		if err != nil {
			if len(seen) == len(want) && !quietSince.IsZero() && time.Since(quietSince) > time.Second {
				break
			}
			if quietSince.IsZero() {
				quietSince = time.Now()
			}
			continue
		}
		quietSince = time.Time{}
		var env events.Envelope
		_ = json.Unmarshal(msg.Data(), &env)
		if env.UserID != session.UID || env.Type != events.TypeItemCreated {
			continue
		}
		var data struct{ ID string }
		_ = json.Unmarshal(env.Data, &data)
		seen[data.ID]++
	}
	for id := range want {
		if seen[id] != 1 {
			t.Errorf("item %s announced %d times", id, seen[id])
		}
	}
}
