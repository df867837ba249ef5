// Package service wires the family service from its configuration. main uses it, and
// component tests build the same thing around their own database.
package service

import (
	"context"
	"log/slog"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/wiring"
	"github.com/santa-wishlist/santa/services/family/internal/adapters"
	"github.com/santa-wishlist/santa/services/family/internal/app"
	"github.com/santa-wishlist/santa/services/family/internal/ports"
)

// Config is what the family service needs from its environment.
type Config struct {
	wiring.OutboxConfig
	Server httpserver.Options
	// Identity verifies the assertion every request must carry (IDENTITY_PUBLIC_KEYS).
	Identity *auth.IdentityVerifier
}

// LoadConfig reads and checks the environment.
func LoadConfig(env *config.Env) Config {
	return Config{
		OutboxConfig: wiring.OutboxConfigFromEnv(env),
		Server:       httpserver.OptionsFromEnv(env, "family", "8085"),
		Identity:     auth.IdentityVerifierFromEnv(env, "family"),
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
	if err := w.ConnectNATS(cfg.NATSURL, "family", cfg.EventsNamespace, cfg.EventsReplicas); err != nil {
		return nil, err
	}
	repo := adapters.NewRepository(w.Pool)
	families := app.New(repo)
	ports.Register(w.Server.Engine, families)
	w.Server.AddReadinessCheck("postgres", repo.Ping)
	// Lists shared with families arrive as wishlist's list.families events.
	if err := w.Consumer(ports.ConsumeListFamilies(ctx, w.JS, families, logger, w.Metrics)); err != nil {
		return nil, err
	}
	if err := w.EraseUsers(ctx, "family", repo.EraseUser, cfg.ErasureBackOff); err != nil {
		return nil, err
	}
	w.RunOutbox(cfg.OutboxConfig, repo.DrawSoonDue, repo.ExchangeSoonDue)
	return w.Server, nil
}
