package service_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/notification/internal/service"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

type instance struct {
	base string
	stop func()
}

func start(t *testing.T, dbURL, natsURL string) *instance {
	t.Helper()
	cfg := service.Config{
		DatabaseURL: dbURL, NATSURL: natsURL,
		Server:       httpserver.Options{Service: "notification", Addr: "127.0.0.1:0"},
		RetryBackOff: []time.Duration{50 * time.Millisecond, 50 * time.Millisecond},
	}
	base, stop := testenv.Serve(t, func(ctx context.Context) (*httpserver.Server, error) { return service.Build(ctx, cfg, quiet) })
	return &instance{base: base, stop: stop}
}

type sse struct {
	ID, Event, Data string
}

// openStream reads a user's stream into a channel of events.
func openStream(t *testing.T, base, uid string, lastEventID string) <-chan sse {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/notifications/stream", nil)
	req.Header.Set(auth.HeaderUserID, uid)
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out := make(chan sse, 100)
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		var cur sse
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "id: "):
				cur.ID = strings.TrimPrefix(line, "id: ")
			case strings.HasPrefix(line, "event: "):
				cur.Event = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				cur.Data = strings.TrimPrefix(line, "data: ")
			case line == "" && cur.Event != "":
				out <- cur
				cur = sse{}
			}
		}
		close(out)
	}()
	return out
}

func next(t *testing.T, c <-chan sse) sse {
	t.Helper()
	select {
	case e, ok := <-c:
		if !ok {
			t.Fatal("stream closed")
		}
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10s")
	}
	return sse{}
}

func nothing(t *testing.T, c <-chan sse, within time.Duration) {
	t.Helper()
	select {
	case e := <-c:
		t.Fatalf("unexpected event %+v", e)
	case <-time.After(within):
	}
}

type broker struct {
	t   *testing.T
	url string
}

func (b broker) publish(env events.Envelope) {
	b.t.Helper()
	nc, js, err := events.Connect(b.url, "test-publisher", quiet)
	if err != nil {
		b.t.Fatal(err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := events.EnsureStream(ctx, js); err != nil {
		b.t.Fatal(err)
	}
	if err := events.Publish(ctx, js, env); err != nil {
		b.t.Fatal(err)
	}
}

func itemEvent(t *testing.T, typ, uid string, count int) events.Envelope {
	env, err := events.NewEnvelope(typ, uid, map[string]any{
		"id": testenv.RandomHex(4) + "-item", "name": "Sled", "imageUrl": nil, "category": "Toys", "wishlistCount": count,
	})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

func santaEvent(t *testing.T, uid, name string) events.Envelope {
	env, _ := events.NewEnvelope(events.TypeSantaSent, uid, map[string]any{"id": "gift-1", "name": name, "imageUrl": nil})
	return env
}

func TestSantaReachesEveryDeviceOfItsUserAndNoOneElse(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	nats := testenv.StartNATS(t)
	b := broker{t, nats.URL()}
	svc := start(t, dbURL, nats.URL())

	phone := openStream(t, svc.base, "kid", "")
	tablet := openStream(t, svc.base, "kid", "")
	stranger := openStream(t, svc.base, "other-kid", "")
	for _, s := range []<-chan sse{phone, tablet, stranger} {
		if hello := next(t, s); hello.Event != "hello" || hello.Data != `{"count":0}` {
			t.Fatalf("hello: %+v", hello)
		}
	}

	b.publish(santaEvent(t, "kid", "Snow Globe"))
	for _, s := range []<-chan sse{phone, tablet} {
		e := next(t, s)
		var d map[string]string
		_ = json.Unmarshal([]byte(e.Data), &d)
		if e.Event != "santa" || d["message"] != "Santa received your gift request!" || d["name"] != "Snow Globe" || e.ID == "" {
			t.Fatalf("santa event: %+v", e)
		}
	}
	b.publish(itemEvent(t, events.TypeItemCreated, "kid", 3))
	for _, s := range []<-chan sse{phone, tablet} {
		if e := next(t, s); e.Event != "wishlist-count" || !strings.Contains(e.Data, `"count":3`) || !strings.Contains(e.Data, `"cause":"item.created"`) {
			t.Fatalf("count event: %+v", e)
		}
	}
	b.publish(itemEvent(t, events.TypeItemDeleted, "kid", 2))
	if e := next(t, phone); !strings.Contains(e.Data, `"count":2`) {
		t.Fatalf("count after delete: %+v", e)
	}
	nothing(t, stranger, 500*time.Millisecond)

	// A device that connects later is told the current count at once.
	late := openStream(t, svc.base, "kid", "")
	if hello := next(t, late); hello.Data != `{"count":2}` {
		t.Fatalf("late hello: %+v", hello)
	}
}

func TestARedeliveredEventChangesNothingTwice(t *testing.T) {
	pool, dbURL := testenv.Postgres(t)
	nats := testenv.StartNATS(t)
	b := broker{t, nats.URL()}
	svc := start(t, dbURL, nats.URL())
	s := openStream(t, svc.base, "kid", "")
	next(t, s) // hello

	env := santaEvent(t, "kid", "Teddy")
	b.publish(env)
	// The same event again past JetStream's duplicate window (a new message id), as a relay
	// that republished after a crash would send it.
	copyEnv := env
	raw, _ := json.Marshal(copyEnv)
	nc, js, _ := events.Connect(nats.URL(), "dup", quiet)
	defer nc.Close()
	if _, err := js.Publish(context.Background(), env.Type, raw); err != nil {
		t.Fatal(err)
	}
	if e := next(t, s); e.Event != "santa" {
		t.Fatalf("first: %+v", e)
	}
	nothing(t, s, time.Second)
	var n int
	_ = pool.QueryRow(context.Background(), "SELECT count(*) FROM notices").Scan(&n)
	if n != 1 {
		t.Fatalf("%d notices for one event", n)
	}
}

func TestReconnectingWithLastEventIDGetsExactlyWhatWasMissed(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	nats := testenv.StartNATS(t)
	b := broker{t, nats.URL()}
	svc := start(t, dbURL, nats.URL())
	s := openStream(t, svc.base, "kid", "")
	next(t, s)
	b.publish(itemEvent(t, events.TypeItemCreated, "kid", 1))
	seen := next(t, s)

	// The phone goes into a tunnel; three things happen meanwhile.
	b.publish(itemEvent(t, events.TypeItemCreated, "kid", 2))
	b.publish(santaEvent(t, "kid", "Kite"))
	b.publish(itemEvent(t, events.TypeItemCreated, "kid", 3))
	testenv.Eventually(t, 10*time.Second, func() error {
		resp, err := http.NewRequest("GET", svc.base+"/api/notifications", nil)
		if err != nil {
			return err
		}
		resp.Header.Set(auth.HeaderUserID, "kid")
		r, err := http.DefaultClient.Do(resp)
		if err != nil {
			return err
		}
		defer r.Body.Close()
		var list []json.RawMessage
		_ = json.NewDecoder(r.Body).Decode(&list)
		if len(list) != 4 {
			return fmt.Errorf("%d notices stored", len(list))
		}
		return nil
	})

	back := openStream(t, svc.base, "kid", seen.ID)
	if hello := next(t, back); hello.Event != "hello" || hello.Data != `{"count":3}` {
		t.Fatalf("hello: %+v", hello)
	}
	var got []string
	for i := 0; i < 3; i++ {
		e := next(t, back)
		got = append(got, e.Event+" "+e.Data)
	}
	if !strings.Contains(got[0], `"count":2`) || !strings.HasPrefix(got[1], "santa") || !strings.Contains(got[2], `"count":3`) {
		t.Fatalf("missed notices, in order: %v", got)
	}
	nothing(t, back, 500*time.Millisecond)
}

func TestEventsWhileTheServiceIsDownAreDeliveredOnceWhenItReturns(t *testing.T) {
	pool, dbURL := testenv.Postgres(t)
	nats := testenv.StartNATS(t)
	b := broker{t, nats.URL()}
	first := start(t, dbURL, nats.URL())
	b.publish(itemEvent(t, events.TypeItemCreated, "kid", 1))
	testenv.Eventually(t, 10*time.Second, func() error { return countNotices(pool, 1) })
	first.stop()

	for i := 2; i <= 4; i++ {
		b.publish(itemEvent(t, events.TypeItemCreated, "kid", i))
	}
	// A poison message among them is terminated and does not hold the others up.
	bad, _ := events.NewEnvelope(events.TypeItemCreated, "kid", map[string]any{"name": "no id or count"})
	b.publish(bad)
	b.publish(itemEvent(t, events.TypeItemCreated, "kid", 5))

	second := start(t, dbURL, nats.URL())
	testenv.Eventually(t, 15*time.Second, func() error { return countNotices(pool, 5) })
	time.Sleep(500 * time.Millisecond)
	if err := countNotices(pool, 5); err != nil {
		t.Fatal(err)
	}
	s := openStream(t, second.base, "kid", "")
	if hello := next(t, s); hello.Data != `{"count":5}` {
		t.Fatalf("hello after restart: %+v", hello)
	}
}

func countNotices(pool *pgxpool.Pool, want int) error {
	var n int
	if err := pool.QueryRow(context.Background(), "SELECT count(*) FROM notices").Scan(&n); err != nil {
		return err
	}
	if n != want {
		return fmt.Errorf("%d notices, want %d", n, want)
	}
	return nil
}
