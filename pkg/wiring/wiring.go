// Package wiring holds the steps every service's Build takes the same way: the server (for an
// internal service, answering only calls with a valid identity assertion), the PostgreSQL pool
// with the service's migrations applied, the NATS connection in the environment's namespace,
// and the durable consumers. Each step registers what it opened to be closed at shutdown, and
// when a later step fails, Build returns the error and everything opened so far is closed.
package wiring

import (
	"context"
	"io/fs"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/lifecycle"
	"github.com/santa-wishlist/santa/pkg/migrate"
	"github.com/santa-wishlist/santa/pkg/postgres"
)

// Wiring is a service under construction: its server and what Build opened so far.
type Wiring struct {
	Server *httpserver.Server
	Logger *slog.Logger
	// Pool is set by OpenPostgres.
	Pool *pgxpool.Pool
	// NC, JS (in the environment's namespace) and the consumers' Metrics are set by ConnectNATS.
	NC      *nats.Conn
	JS      jetstream.JetStream
	Metrics *events.ConsumerMetrics

	// undo closes what was opened, in reverse, when a later step fails.
	undo []func()
}

// New starts a service's wiring with a server built from opts (the gateway: its routes are
// public and check Firebase tokens themselves).
func New(opts httpserver.Options, logger *slog.Logger) *Wiring {
	opts.Logger = logger
	return &Wiring{Server: httpserver.New(opts), Logger: logger}
}

// NewInternal is New for a service behind the gateway: every route registered after this
// answers only calls with a valid identity assertion (/healthz, added by httpserver before
// this, stays open for the probes).
func NewInternal(opts httpserver.Options, identity *auth.IdentityVerifier, logger *slog.Logger) *Wiring {
	w := New(opts, logger)
	w.Server.Engine.Use(auth.RequireIdentity(identity))
	return w
}

// Database says where a service keeps its tables.
type Database struct {
	URL string
	// Schema, when set, is the schema the pool's connections work in (made if missing): the
	// services share one database, and each outbox is a table "outbox".
	Schema string
	// Service names the migrations' table and lock.
	Service    string
	Migrations fs.FS
}

// OpenPostgres opens the pool and applies the migrations. The pool is closed at shutdown,
// after every step registered later.
func (w *Wiring) OpenPostgres(ctx context.Context, db Database) error {
	var pool *pgxpool.Pool
	var err error
	if db.Schema != "" {
		pool, err = postgres.ConnectSchema(ctx, db.URL, db.Schema)
	} else {
		pool, err = postgres.Connect(ctx, db.URL)
	}
	if err != nil {
		return w.Fail(err)
	}
	w.Pool = pool
	w.Closes(func() error { pool.Close(); return nil })
	if err := migrate.Apply(ctx, pool, db.Service, db.Migrations, w.Logger); err != nil {
		return w.Fail(err)
	}
	return nil
}

// ConnectNATS connects as name, in namespace ns with a stream of `replicas` copies, and makes
// the consumers' metrics. At shutdown
// the connection is drained (after the consumers stopped); when Build fails it is closed.
func (w *Wiring) ConnectNATS(url, name string, ns events.Namespace, replicas int) error {
	nc, js, err := events.Connect(url, name, w.Logger)
	if err != nil {
		return w.Fail(err)
	}
	w.NC, w.JS = nc, events.WithReplicas(events.InNamespace(js, ns), replicas)
	w.Metrics = events.NewConsumerMetrics(w.Server.Registry)
	// Whether this pod reaches NATS now: a write still succeeds without it (the outbox keeps
	// the event), so nothing else shows an operator at once that events have stopped.
	w.Server.Registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "nats_connected",
		Help: "1 while this pod's connection to NATS is up, 0 while it is reconnecting.",
	}, func() float64 {
		if nc.IsConnected() {
			return 1
		}
		return 0
	}))
	w.undo = append(w.undo, nc.Close)
	w.Server.OnShutdown(lifecycle.DrainNATS(nc))
	return nil
}

// Consumer takes a started consumer (the two results of events.Consume or of a port's
// Consume...), to stop it at shutdown before NATS is drained, or returns err after closing
// everything opened so far.
func (w *Wiring) Consumer(c *events.Consumer, err error) error {
	return w.Consumers([]*events.Consumer{c}, err)
}

// Consumers is Consumer for several.
func (w *Wiring) Consumers(cs []*events.Consumer, err error) error {
	if err != nil {
		return w.Fail(err)
	}
	for _, c := range cs {
		w.undo = append(w.undo, c.Stop)
		w.Server.OnShutdown(func(context.Context) error { c.Stop(); return nil })
	}
	return nil
}

// EraseUsers starts the service's durable user.deleted consumer (events.ConsumeUserDeleted).
func (w *Wiring) EraseUsers(ctx context.Context, service string, erase events.EraseFunc, backOff []time.Duration) error {
	return w.Consumer(events.ConsumeUserDeleted(ctx, w.JS, service, erase, backOff, w.Logger, w.Metrics))
}

// Go runs loop until shutdown (lifecycle.Go): Run stops it, and waits for it, before every
// step registered earlier, so what it uses is still open; a failing Build stops it too.
func (w *Wiring) Go(loop func(ctx context.Context)) {
	stop := lifecycle.Go(loop)
	w.undo = append(w.undo, func() { _ = stop(context.Background()) })
	w.Server.OnShutdown(stop)
}

// Closes registers close to run at shutdown (after every step registered later), and when a
// later step of Build fails.
func (w *Wiring) Closes(close func() error) {
	w.undo = append(w.undo, func() { _ = close() })
	w.Server.OnShutdown(func(context.Context) error { return close() })
}

// Fail closes everything opened so far, newest first, and returns err: a failing Build
// returns w.Fail(err).
func (w *Wiring) Fail(err error) error {
	for i := len(w.undo) - 1; i >= 0; i-- {
		w.undo[i]()
	}
	w.undo = nil
	return err
}
