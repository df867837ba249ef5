package service_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

// accountCall calls as a signed-in user with an email, as the gateway forwards it.
func (w *wishlist) accountCall(method, uid, email string, body string) (int, string) {
	w.t.Helper()
	c := testenv.NewClient(w.t, w.base)
	testenv.AsUser(w.t, c, "wishlist", auth.User{UID: uid, Email: email})
	r := c.Do(method, "/api/account", strings.NewReader(body), "Content-Type", "application/json")
	return r.Status, string(r.Body)
}

func count(t *testing.T, pool *pgxpool.Pool, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

func TestDeletingAnAccountErasesTheWishlistsDataAndWaitsForEveryService(t *testing.T) {
	pool, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())

	// Anna has two lists (one shared), and a claim on Bob's list; Bob claimed on Anna's.
	annaList := w.defaultList("anna")
	annaItem := w.addTo("anna", annaList.ID, "Sledge", 2)
	annaToken := w.share("anna", annaList.ID)
	w.must(201, "POST", "/api/lists", "anna", map[string]any{"name": "Birthday"}, nil)
	bobList := w.defaultList("bob")
	bobItem := w.addTo("bob", bobList.ID, "Kite", 3)
	bobToken := w.share("bob", bobList.ID)
	w.must(200, "PUT", "/api/shared/"+bobToken+"/items/"+bobItem+"/claim", "anna", map[string]any{"quantity": 2}, nil)
	w.must(200, "PUT", "/api/shared/"+annaToken+"/items/"+annaItem+"/claim", "bob", map[string]any{"quantity": 1}, nil)
	w.must(200, "GET", "/api/shared/"+bobToken, "anna", nil, nil)

	code, body := w.accountCall("GET", "anna", "anna@example.com", "")
	if code != 200 || !strings.Contains(body, `"deletionPending":false`) || !strings.Contains(body, `"email":"anna@example.com"`) {
		t.Fatalf("GET /api/account: %d %s", code, body)
	}
	// Anything but the account's email is a 400 that says what to send.
	for _, bad := range []string{"", "{}", `{"confirm": "bob@example.com"}`, `{"confirm": 5}`, "not json"} {
		code, body := w.accountCall("DELETE", "anna", "anna@example.com", bad)
		if code != 400 || !strings.Contains(body, `send {\"confirm\": \"\u003cyour account's email\u003e\"}`) {
			t.Fatalf("DELETE with %q: %d %s", bad, code, body)
		}
	}
	code, body = w.accountCall("DELETE", "anna", "anna@example.com", `{"confirm": " Anna@Example.com "}`)
	if code != 202 || body != `{"deletionPending":true}` {
		t.Fatalf("DELETE: %d %s", code, body)
	}
	// Asking again changes nothing and sends no second event.
	if code, _ := w.accountCall("DELETE", "anna", "anna@example.com", `{"confirm": "anna@example.com"}`); code != 202 {
		t.Fatalf("second DELETE: %d", code)
	}

	userTables := []string{
		"SELECT count(*) FROM lists WHERE user_id = $1",
		"SELECT count(*) FROM items WHERE user_id = $1",
		"SELECT count(*) FROM claims WHERE user_id = $1",
		"SELECT count(*) FROM list_viewers WHERE user_id = $1",
		"SELECT count(*) FROM outbox WHERE payload->>'userId' = $1",
	}
	testenv.Eventually(t, 20*time.Second, func() error {
		for _, q := range userTables {
			if n := count(t, pool, q, "anna"); n > 0 {
				return fmt.Errorf("%s: %d rows left", q, n)
			}
		}
		return nil
	})
	// Bob keeps everything; the units Anna claimed are his to give again.
	if n := count(t, pool, "SELECT COALESCE(sum(quantity), 0) FROM claims WHERE item_id = $1", bobItem); n != 0 {
		t.Fatalf("Bob's item still counts %d claimed units", n)
	}
	if n := count(t, pool, "SELECT count(*) FROM lists WHERE user_id = 'bob'"); n != 1 {
		t.Fatalf("Bob has %d lists", n)
	}
	if n := count(t, pool, "SELECT count(*) FROM claims WHERE item_id = $1", annaItem); n != 0 {
		t.Fatalf("Bob's claim on Anna's deleted item survived")
	}

	// The wishlist confirmed; the others have not yet, so the deletion is pending.
	testenv.Eventually(t, 10*time.Second, func() error {
		if n := count(t, pool, "SELECT count(*) FROM account_deletions WHERE uid = 'anna' AND wishlist_erased_at IS NOT NULL"); n != 1 {
			return fmt.Errorf("wishlist has not confirmed")
		}
		return nil
	})
	if _, body := w.accountCall("GET", "anna", "anna@example.com", ""); !strings.Contains(body, `"deletionPending":true`) {
		t.Fatalf("GET after DELETE: %s", body)
	}

	// The other services answer (one twice); then the deletion is complete.
	nc, js, err := events.Connect(broker.URL(), "test", quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	var deleted []events.Envelope
	for _, e := range streamEvents(t, broker.URL()) {
		conformsToSchema(t, e)
		if e.Type == events.TypeUserDeleted {
			deleted = append(deleted, e)
		}
	}
	if len(deleted) != 1 || deleted[0].UserID != "anna" {
		t.Fatalf("user.deleted events: %+v", deleted)
	}
	for _, svc := range []string{"family", "notification", "media", "vision", "gateway", "gateway", "unknown"} {
		if err := events.Publish(context.Background(), js, events.ErasedEnvelope(deleted[0], svc)); err != nil {
			t.Fatal(err)
		}
	}
	testenv.Eventually(t, 10*time.Second, func() error {
		if _, body := w.accountCall("GET", "anna", "anna@example.com", ""); !strings.Contains(body, `"deletionPending":false`) {
			return fmt.Errorf("still pending: %s", body)
		}
		return nil
	})
	// The only trace is the deletion record: the uid and dates.
	if n := count(t, pool, "SELECT count(*) FROM account_deletions WHERE uid = 'anna' AND completed_at IS NOT NULL"); n != 1 {
		t.Fatal("the deletion record is not complete")
	}
	var cols []string
	rows, _ := pool.Query(context.Background(), `SELECT column_name || ':' || data_type FROM information_schema.columns
		WHERE table_name = 'account_deletions' AND column_name <> 'uid'`)
	for rows.Next() {
		var c string
		_ = rows.Scan(&c)
		cols = append(cols, c)
	}
	for _, c := range cols {
		if !strings.HasSuffix(c, "timestamp with time zone") {
			t.Fatalf("account_deletions holds more than dates: %v", cols)
		}
	}
}
