// Package service wires the family service from its configuration. main uses it, and
// component tests build the same thing around their own database.
package service

import (
	"context"
	"log/slog"

	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/lifecycle"
	"github.com/santa-wishlist/santa/pkg/migrate"
	"github.com/santa-wishlist/santa/pkg/outbox"
	"github.com/santa-wishlist/santa/pkg/postgres"
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
	Server          httpserver.Options
}

// LoadConfig reads and checks the environment.
func LoadConfig(env *config.Env) Config {
	return Config{
		DatabaseURL:     env.Required("DATABASE_URL"),
		NATSURL:         env.Required("NATS_URL"),
		EventsNamespace: events.NamespaceFromEnv(env),
		Server:          httpserver.OptionsFromEnv(env, "family", "8085"),
	}
}

// Build connects to PostgreSQL and NATS, applies migrations, and returns a server whose Run
// also runs the outbox relay. Everything it opens is closed when the server stops.
func Build(ctx context.Context, cfg Config, logger *slog.Logger) (*httpserver.Server, error) {
	// Its own schema: the services share one database, and each outbox is a table "outbox".
	pool, err := postgres.ConnectSchema(ctx, cfg.DatabaseURL, "family")
	if err != nil {
		return nil, err
	}
	if err := migrate.Apply(ctx, pool, "family", adapters.Migrations(), logger); err != nil {
		pool.Close()
		return nil, err
	}
	nc, js, err := events.Connect(cfg.NATSURL, "family", logger)
	if err != nil {
		pool.Close()
		return nil, err
	}
	js = events.InNamespace(js, cfg.EventsNamespace)

	cfg.Server.Logger = logger
	srv := httpserver.New(cfg.Server)
	repo := adapters.NewRepository(pool)
	families := app.New(repo)
	ports.Routes(srv.Engine, families)
	srv.AddReadinessCheck("postgres", repo.Ping)
	// Lists shared with families arrive as wishlist's list.families events.
	consumer, err := ports.ConsumeListFamilies(ctx, js, families, logger, events.NewConsumerMetrics(srv.Registry))
	if err != nil {
		nc.Close()
		pool.Close()
		return nil, err
	}

	// The relay runs until shutdown, after in-flight requests finished; Run calls these in
	// reverse: stop the relay, stop the consumer, drain NATS, close the pool.
	srv.OnShutdown(func(context.Context) error { pool.Close(); return nil })
	srv.OnShutdown(lifecycle.DrainNATS(nc))
	srv.OnShutdown(func(context.Context) error { consumer.Stop(); return nil })
	srv.OnShutdown(lifecycle.Go(outbox.NewRelay(pool, js, srv.Registry, logger).Run))
	return srv, nil
}
