// Package service wires the family service from its configuration. main uses it, and
// component tests build the same thing around their own database.
package service

import (
	"context"
	"log/slog"
	"time"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/outbox"
	"github.com/santa-wishlist/santa/pkg/reminders"
	"github.com/santa-wishlist/santa/pkg/wiring"
	"github.com/santa-wishlist/santa/services/family/internal/adapters"
	"github.com/santa-wishlist/santa/services/family/internal/app"
	"github.com/santa-wishlist/santa/services/family/internal/ports"
)

// Config is what the family service needs from its environment.
type Config struct {
	DatabaseURL string
	NATSURL     string
	// EventsNamespace keeps this environment's events apart on a shared NATS (EVENTS_NAMESPACE).
	EventsNamespace events.Namespace
	// OutboxRetention is how long published events stay in the outbox (OUTBOX_RETENTION).
	OutboxRetention time.Duration
	// ReminderInterval is how often this replica scans for due reminders (REMINDER_INTERVAL).
	ReminderInterval time.Duration
	// Clock is the reminders' clock (tests drive it); nil is time.Now.
	Clock func() time.Time
	// ErasureBackOff overrides the user.deleted consumer's redelivery waits (tests).
	ErasureBackOff []time.Duration
	Server         httpserver.Options
	// Identity verifies the assertion every request must carry (IDENTITY_PUBLIC_KEYS).
	Identity *auth.IdentityVerifier
}

// LoadConfig reads and checks the environment.
func LoadConfig(env *config.Env) Config {
	return Config{
		DatabaseURL:      env.Required("DATABASE_URL"),
		NATSURL:          env.Required("NATS_URL"),
		EventsNamespace:  events.NamespaceFromEnv(env),
		OutboxRetention:  env.Duration("OUTBOX_RETENTION", outbox.DefaultRetention),
		ReminderInterval: env.Duration("REMINDER_INTERVAL", reminders.DefaultInterval),
		Server:           httpserver.OptionsFromEnv(env, "family", "8085"),
		Identity:         auth.IdentityVerifierFromEnv(env, "family"),
	}
}

// Build connects to PostgreSQL and NATS, applies migrations, and returns a server whose Run
// also runs the outbox relay. Everything it opens is closed when the server stops.
func Build(ctx context.Context, cfg Config, logger *slog.Logger) (*httpserver.Server, error) {
	w := wiring.NewInternal(cfg.Server, cfg.Identity, logger)
	// Its own schema: the services share one database, and each outbox is a table "outbox".
	if err := w.OpenPostgres(ctx, wiring.Database{URL: cfg.DatabaseURL, Schema: "family", Service: "family",
		Migrations: adapters.Migrations()}); err != nil {
		return nil, err
	}
	if err := w.ConnectNATS(cfg.NATSURL, "family", cfg.EventsNamespace); err != nil {
		return nil, err
	}
	repo := adapters.NewRepository(w.Pool)
	families := app.New(repo)
	ports.Routes(w.Server.Engine, families)
	w.Server.AddReadinessCheck("postgres", repo.Ping)
	// Lists shared with families arrive as wishlist's list.families events.
	if err := w.Consumer(ports.ConsumeListFamilies(ctx, w.JS, families, logger, w.Metrics)); err != nil {
		return nil, err
	}
	if err := w.EraseUsers(ctx, "family", repo.EraseUser, cfg.ErasureBackOff); err != nil {
		return nil, err
	}
	// Every replica scans for due reminders; each is sent once (pkg/reminders).
	w.Go(reminders.New(w.Pool, reminders.Options{Clock: cfg.Clock, Interval: cfg.ReminderInterval,
		Registry: w.Server.Registry, Logger: logger}, repo.DrawSoonDue).Run)
	// The relay runs until shutdown, after in-flight requests finished; Run stops it first,
	// then the consumers, then drains NATS and closes the pool.
	w.Go(outbox.NewRelay(w.Pool, w.JS, w.Server.Registry, logger).WithRetention(cfg.OutboxRetention).Run)
	return w.Server, nil
}
