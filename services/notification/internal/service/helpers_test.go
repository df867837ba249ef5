package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/notification/internal/service"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// instance is one replica of the service, in-process, on its own port.
type instance struct {
	base string
	stop func()
}

func start(t *testing.T, dbURL, natsURL string, tweak ...func(*service.Config)) *instance {
	t.Helper()
	cfg := service.Config{
		DatabaseURL: dbURL, NATSURL: natsURL,
		Server:       httpserver.Options{Service: "notification", Addr: "127.0.0.1:0"},
		RetryBackOff: []time.Duration{50 * time.Millisecond, 50 * time.Millisecond},
		Identity:     testenv.IdentityVerifier("notification"),
	}
	for _, f := range tweak {
		f(&cfg)
	}
	base, stop := testenv.Serve(t, func(ctx context.Context) (*httpserver.Server, error) { return service.Build(ctx, cfg, quiet) })
	return &instance{base: base, stop: stop}
}

// sse is one Server-Sent Event as a client parses it.
type sse testenv.Event

func (e sse) seq(t *testing.T) int64 {
	t.Helper()
	n, err := strconv.ParseInt(e.ID, 10, 64)
	if err != nil {
		t.Fatalf("event without a numeric id: %+v", e)
	}
	return n
}

func (e sse) decode(t *testing.T) map[string]any {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal([]byte(e.Data), &d); err != nil {
		t.Fatalf("event data is not JSON: %+v", e)
	}
	return d
}

// stream is an open live stream of one device; C is closed when the server ends it.
type stream struct {
	*testenv.Stream
	C <-chan testenv.Event
}

type streamOpts struct {
	lastEventID string // sent as the Last-Event-ID header
	queryID     string // sent as ?lastEventId=
	client      *http.Client
}

// as is a client calling the service as the gateway would forward uid's requests ("" for
// nobody).
func as(t *testing.T, base, uid string, opts streamOpts) *testenv.Client {
	t.Helper()
	c := testenv.NewClient(t, base)
	c.HTTP = opts.client
	testenv.AsUser(t, c, "notification", auth.User{UID: uid})
	if opts.lastEventID != "" {
		c.Header.Set("Last-Event-ID", opts.lastEventID)
	}
	return c
}

// tryStream asks for uid's live stream and returns the answer, whatever its status.
func tryStream(t *testing.T, base, uid string, opts streamOpts) *testenv.Stream {
	t.Helper()
	path := "/api/notifications/stream"
	if opts.queryID != "" {
		path += "?lastEventId=" + opts.queryID
	}
	return as(t, base, uid, opts).Open(path)
}

// openStream connects a device of uid and parses its events into C.
func openStream(t *testing.T, base, uid string, opts streamOpts) *stream {
	t.Helper()
	s := tryStream(t, base, uid, opts)
	if s.Status != 200 || !strings.HasPrefix(s.Header.Get("Content-Type"), "text/event-stream") {
		body, _ := io.ReadAll(s.Body)
		t.Fatalf("stream: %d %s %s", s.Status, s.Header.Get("Content-Type"), body)
	}
	return &stream{Stream: s, C: s.Events()}
}

func (s *stream) next(t *testing.T) sse {
	t.Helper()
	select {
	case e, ok := <-s.C:
		if !ok {
			t.Fatal("stream closed")
		}
		return sse(e)
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10s")
	}
	return sse{}
}

// hello reads the first event and checks it is the hello with the given count.
func (s *stream) hello(t *testing.T, count int) {
	t.Helper()
	e := s.next(t)
	if e.Event != "hello" || e.Data != fmt.Sprintf(`{"count":%d}`, count) || e.ID != "" {
		t.Fatalf("want hello with count %d and no id, got %+v", count, e)
	}
}

func (s *stream) nothing(t *testing.T, within time.Duration) {
	t.Helper()
	select {
	case e, ok := <-s.C:
		if ok {
			t.Fatalf("unexpected event %+v", e)
		}
	case <-time.After(within):
	}
}

// broker publishes events as the wishlist service's outbox relay does.
type broker struct {
	t  *testing.T
	js jetstream.JetStream
}

func newBroker(t *testing.T, url string) broker {
	t.Helper()
	nc, js, err := events.Connect(url, "test-publisher", quiet)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := events.EnsureStream(ctx, js); err != nil {
		t.Fatal(err)
	}
	return broker{t: t, js: js}
}

// publish sends an envelope with its id as Nats-Msg-Id.
func (b broker) publish(env events.Envelope) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := events.Publish(ctx, b.js, env); err != nil {
		b.t.Fatal(err)
	}
}

// publishRaw sends bytes without a message id, so JetStream keeps every copy.
func (b broker) publishRaw(subject string, payload []byte) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := b.js.Publish(ctx, subject, payload); err != nil {
		b.t.Fatal(err)
	}
}

// consumerSettled waits until the notification consumer has nothing pending or unacked.
func (b broker) consumerSettled(timeout time.Duration) {
	b.t.Helper()
	b.consumerSettledNamed(service.ConsumerName, timeout)
}

// consumerSettledNamed waits until the named consumer has nothing pending or unacked.
func (b broker) consumerSettledNamed(name string, timeout time.Duration) {
	b.t.Helper()
	testenv.Eventually(b.t, timeout, func() error {
		cons, err := b.js.Consumer(context.Background(), events.StreamName, name)
		if err != nil {
			return err
		}
		info, err := cons.Info(context.Background())
		if err != nil {
			return err
		}
		if info.NumPending != 0 || info.NumAckPending != 0 {
			return fmt.Errorf("consumer: %d pending, %d unacked", info.NumPending, info.NumAckPending)
		}
		// The consumer's pending count can lag a publish that was just acknowledged (the
		// server counts it asynchronously), so "nothing pending" alone can be read before
		// the consumer has seen the last event: it must have been delivered every message of
		// the stream (and, from above, have none unacknowledged).
		stream, err := b.js.Stream(context.Background(), events.StreamName)
		if err != nil {
			return err
		}
		sinfo, err := stream.Info(context.Background())
		if err != nil {
			return err
		}
		last := sinfo.State.LastSeq
		// (A filtered consumer is delivered only the messages it matches: the last of those.)
		if filters := append([]string{info.Config.FilterSubject}, info.Config.FilterSubjects...); len(filters) > 1 || filters[0] != "" {
			last = 0
			for _, f := range filters {
				if f == "" {
					continue
				}
				msg, err := stream.GetLastMsgForSubject(context.Background(), f)
				if errors.Is(err, jetstream.ErrMsgNotFound) {
					continue
				}
				if err != nil {
					return err
				}
				last = max(last, msg.Sequence)
			}
		}
		if info.Delivered.Stream < last {
			return fmt.Errorf("consumer: delivered up to %d of %d", info.Delivered.Stream, last)
		}
		return nil
	})
}

func itemEvent(t *testing.T, typ, uid string, count int) events.Envelope {
	t.Helper()
	env, err := events.NewEnvelope(typ, uid, map[string]any{
		"id": "item-" + testenv.RandomHex(4), "name": "Sled", "imageUrl": nil, "category": "Toys", "wishlistCount": count,
	})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

func santaEvent(t *testing.T, uid, name string) events.Envelope {
	t.Helper()
	env, err := events.NewEnvelope(events.TypeSantaSent, uid, map[string]any{"id": "gift-" + testenv.RandomHex(4), "name": name, "imageUrl": nil})
	if err != nil {
		t.Fatal(err)
	}
	return env
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

type listed struct {
	ID    int64           `json:"id"`
	Event string          `json:"event"`
	Data  json.RawMessage `json:"data"`
}

func listNotices(t *testing.T, base, uid string) []listed {
	t.Helper()
	r := as(t, base, uid, streamOpts{}).Do("GET", "/api/notifications", nil)
	if r.Status != 200 {
		t.Fatalf("list: %d", r.Status)
	}
	var list []listed
	r.Decode(t, &list)
	return list
}

// metric reads one sample of the service's /metrics, such as
// `events_processed_total{consumer="notification",result="poison"}`; 0 when absent.
func metric(t *testing.T, base, sample string) float64 {
	t.Helper()
	body := testenv.NewClient(t, base).Do("GET", "/metrics", nil).Body
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(sample) + ` (\S+)$`).FindSubmatch(body)
	if m == nil {
		return 0
	}
	v, err := strconv.ParseFloat(string(m[1]), 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// jsonField reads one field of an event's data.
func jsonField(raw json.RawMessage, key string, dst any) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return err
	}
	return json.Unmarshal(m[key], dst)
}
