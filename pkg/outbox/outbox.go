// Package outbox makes "save a row and announce it" atomic. The event is written to the outbox
// table in the same transaction as the data, so it exists exactly when the data does; a relay
// then publishes pending events to JetStream with the event id as Nats-Msg-Id, so a relay that
// publishes twice (crash between publish and mark) is deduplicated by the stream.
//
// The owning service's migration must create the table:
//
//	CREATE TABLE outbox (
//	    id uuid PRIMARY KEY, subject text NOT NULL, payload jsonb NOT NULL,
//	    created_at timestamptz NOT NULL DEFAULT now(), published_at timestamptz);
//	CREATE INDEX outbox_pending ON outbox (created_at) WHERE published_at IS NULL;
package outbox

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/pkg/events"
)

// notifyChannel wakes the relay as soon as a transaction with events commits, so events go
// out in milliseconds without a tight polling loop.
const notifyChannel = "outbox_pending"

// Enqueue writes an event inside the caller's transaction.
func Enqueue(ctx context.Context, tx pgx.Tx, env events.Envelope) error {
	payload, err := json.Marshal(env)
	if err != nil {
		return fmt.Errorf("encode event %s: %w", env.ID, err)
	}
	if _, err := tx.Exec(ctx, "INSERT INTO outbox (id, subject, payload) VALUES ($1, $2, $3)", env.ID, env.Type, payload); err != nil {
		return fmt.Errorf("enqueue event %s: %w", env.ID, err)
	}
	// NOTIFY is transactional: it is delivered only if the transaction commits.
	if _, err := tx.Exec(ctx, "SELECT pg_notify($1, '')", notifyChannel); err != nil {
		return fmt.Errorf("notify relay: %w", err)
	}
	return nil
}

// Relay publishes pending outbox rows.
type Relay struct {
	pool         *pgxpool.Pool
	js           jetstream.JetStream
	logger       *slog.Logger
	pollInterval time.Duration
	batch        int
	backlog      prometheus.Gauge
	published    prometheus.Counter
	// retention is how long published rows are kept (for a look after an incident); then
	// they are pruned, since they hold item names and user ids. Zero keeps them forever.
	retention time.Duration
	lastPrune time.Time
	pruned    prometheus.Counter
	// streamReady is false until the stream is known to exist, and again after a failed
	// publish: NATS may have come back empty, and publishing then needs the stream made anew.
	streamReady bool
}

// NewRelay builds a relay and registers outbox_backlog and outbox_published_total.
func NewRelay(pool *pgxpool.Pool, js jetstream.JetStream, reg prometheus.Registerer, logger *slog.Logger) *Relay {
	r := &Relay{
		pool: pool, js: js, logger: logger.With("component", "outbox-relay"),
		pollInterval: time.Second, batch: 100,
		backlog: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "outbox_backlog", Help: "Events written to the outbox and not yet published.",
		}),
		published: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "outbox_published_total", Help: "Events published from the outbox.",
		}),
		pruned: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "outbox_pruned_total", Help: "Published outbox rows deleted after the retention window.",
		}),
		retention: DefaultRetention,
	}
	reg.MustRegister(r.backlog, r.published, r.pruned)
	return r
}

// DefaultRetention is how long a published row stays in the outbox unless WithRetention says
// otherwise (OUTBOX_RETENTION in the services that relay).
const DefaultRetention = 24 * time.Hour

// pruneInterval is how often the relay looks for published rows past the retention window.
const pruneInterval = time.Minute

// WithRetention sets how long published rows are kept; 0 keeps them forever.
func (r *Relay) WithRetention(d time.Duration) *Relay {
	r.retention = d
	return r
}

// Prune deletes published rows older than the retention window and returns how many.
func (r *Relay) Prune(ctx context.Context) (int64, error) {
	if r.retention <= 0 {
		return 0, nil
	}
	tag, err := r.pool.Exec(ctx, "DELETE FROM outbox WHERE published_at IS NOT NULL AND published_at < now() - $1::interval",
		r.retention.String())
	if err != nil {
		return 0, fmt.Errorf("prune outbox: %w", err)
	}
	r.pruned.Add(float64(tag.RowsAffected()))
	return tag.RowsAffected(), nil
}

// EraseUser deletes, inside the caller's transaction, every outbox row of uid (published or
// not) and every published row that names uid anywhere (another member's family event lists
// them, say): a deleted account leaves no event behind in the table. Another user's pending
// event stays, to be published, and pruned with the rest.
func EraseUser(ctx context.Context, tx pgx.Tx, uid string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM outbox WHERE payload->>'userId' = $1
		OR (published_at IS NOT NULL AND strpos(payload::text, $1) > 0)`, uid); err != nil {
		return fmt.Errorf("erase outbox rows: %w", err)
	}
	return nil
}

// Run publishes until ctx ends. Failures (NATS down, database down) are retried with a
// growing pause; pending rows stay pending meanwhile, so nothing is lost.
func (r *Relay) Run(ctx context.Context) {
	wake := make(chan struct{}, 1)
	go r.listen(ctx, wake)
	failures := 0
	for {
		n, err := r.PublishPending(ctx)
		if err != nil && ctx.Err() == nil {
			failures++
			r.logger.Warn("publishing pending events failed; will retry", "err", err, "failures", failures)
		} else {
			failures = 0
		}
		r.updateBacklog(ctx)
		if time.Since(r.lastPrune) >= pruneInterval {
			if _, err := r.Prune(ctx); err != nil && ctx.Err() == nil {
				r.logger.Warn("pruning published events failed; will retry", "err", err)
			}
			r.lastPrune = time.Now()
		}
		if n == r.batch && err == nil {
			continue // more waiting
		}
		wait := r.pollInterval
		if failures > 0 {
			wait = min(time.Duration(failures)*500*time.Millisecond, 10*time.Second)
		}
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-time.After(wait):
		}
	}
}

// PublishPending publishes one batch and returns how many events went out.
func (r *Relay) PublishPending(ctx context.Context) (int, error) {
	if !r.streamReady {
		if _, err := events.EnsureStream(ctx, r.js); err != nil {
			return 0, err
		}
		r.streamReady = true
	}
	published := 0
	var publishErr error
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		// SKIP LOCKED lets several replicas relay side by side without sending a row twice.
		rows, err := tx.Query(ctx, `SELECT id, payload FROM outbox WHERE published_at IS NULL
			ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`, r.batch)
		if err != nil {
			return fmt.Errorf("read outbox: %w", err)
		}
		type pending struct {
			id      string
			payload []byte
		}
		var batch []pending
		for rows.Next() {
			var p pending
			if err := rows.Scan(&p.id, &p.payload); err != nil {
				rows.Close()
				return fmt.Errorf("scan outbox: %w", err)
			}
			batch = append(batch, p)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("read outbox: %w", err)
		}
		var sent []string
		for _, p := range batch {
			var env events.Envelope
			if err := json.Unmarshal(p.payload, &env); err != nil {
				return fmt.Errorf("decode outbox row %s: %w", p.id, err)
			}
			pubCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
			publishErr = events.Publish(pubCtx, r.js, env)
			cancel()
			if publishErr != nil {
				break // keep order: stop at the first failure, the rest stay pending
			}
			sent = append(sent, p.id)
		}
		if len(sent) > 0 {
			if _, err := tx.Exec(ctx, "UPDATE outbox SET published_at = now() WHERE id = ANY($1)", sent); err != nil {
				return fmt.Errorf("mark published: %w", err)
			}
		}
		published = len(sent)
		// Commit the marks of what did go out even when a later publish failed.
		return nil
	})
	if err != nil {
		// The marks rolled back although the events went out: they will be published
		// again, and the stream's duplicate window drops the copies.
		return 0, err
	}
	r.published.Add(float64(published))
	if publishErr != nil {
		r.streamReady = false
	}
	return published, publishErr
}

func (r *Relay) updateBacklog(ctx context.Context) {
	var n int64
	qctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := r.pool.QueryRow(qctx, "SELECT count(*) FROM outbox WHERE published_at IS NULL").Scan(&n); err == nil {
		r.backlog.Set(float64(n))
	}
}

// listen holds a connection on LISTEN and wakes the loop on each commit with events.
func (r *Relay) listen(ctx context.Context, wake chan<- struct{}) {
	for ctx.Err() == nil {
		conn, err := r.pool.Acquire(ctx)
		if err != nil {
			sleepCtx(ctx, time.Second)
			continue
		}
		if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
			conn.Release()
			sleepCtx(ctx, time.Second)
			continue
		}
		for ctx.Err() == nil {
			if _, err := conn.Conn().WaitForNotification(ctx); err != nil {
				break
			}
			select {
			case wake <- struct{}{}:
			default:
			}
		}
		// The connection may be mid-wait or broken: close it rather than return it to the pool.
		_ = conn.Conn().Close(context.Background())
		conn.Release()
	}
}

func sleepCtx(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
