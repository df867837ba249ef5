// Package service wires the wishlist application from its configuration. main uses it, and
// component tests build the same thing around their own database.
package service

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/mediaurl"
	"github.com/santa-wishlist/santa/pkg/wiring"
	"github.com/santa-wishlist/santa/services/wishlist/internal/adapters"
	"github.com/santa-wishlist/santa/services/wishlist/internal/app"
	"github.com/santa-wishlist/santa/services/wishlist/internal/ports"
)

// Config is what the wishlist needs from its environment.
type Config struct {
	wiring.OutboxConfig
	MediaURL string // empty: inline images are refused
	Server   httpserver.Options
	// Identity verifies the assertion every request must carry (IDENTITY_PUBLIC_KEYS).
	Identity *auth.IdentityVerifier
	// Signer asserts the item's owner to the media service (IDENTITY_SIGNING_KEY; needed
	// with MEDIA_URL).
	Signer *auth.IdentitySigner
	// Photos signs the photo addresses the answers carry (MEDIA_URL_SECRET, shared with media,
	// which serves only signed addresses).
	Photos *mediaurl.Signer
	// EmptyListQuiet is how long a shared list stays empty before its owner is reminded
	// (REMINDER_EMPTY_LIST_QUIET, 72h; zero reminds at once).
	EmptyListQuiet time.Duration
}

// LoadConfig reads and checks the environment.
func LoadConfig(env *config.Env) Config {
	cfg := Config{
		OutboxConfig:   wiring.OutboxConfigFromEnv(env),
		MediaURL:       env.String("MEDIA_URL", ""),
		Server:         httpserver.OptionsFromEnv(env, "wishlist", "8081"),
		Identity:       auth.IdentityVerifierFromEnv(env, "wishlist"),
		Photos:         mediaurl.FromEnv(env),
		EmptyListQuiet: env.Duration("REMINDER_EMPTY_LIST_QUIET", adapters.DefaultEmptyListQuiet),
	}
	if cfg.MediaURL != "" {
		cfg.Signer = auth.IdentitySignerFromEnv(env, "wishlist")
	}
	return cfg
}

// Build connects to PostgreSQL and NATS, applies migrations, and returns a server whose Run
// also runs the outbox relay. Everything it opens is closed when the server stops.
func Build(ctx context.Context, cfg Config, logger *slog.Logger) (*httpserver.Server, error) {
	if cfg.Photos == nil {
		return nil, errors.New("wishlist: no photo address signer (MEDIA_URL_SECRET)")
	}
	w := wiring.NewInternal(cfg.Server, cfg.Identity, logger)
	if err := w.OpenPostgres(ctx, wiring.Database{URL: cfg.DatabaseURL, Service: "wishlist",
		Migrations: adapters.Migrations()}); err != nil {
		return nil, err
	}
	if err := w.ConnectNATS(cfg.NATSURL, "wishlist", cfg.EventsNamespace, cfg.EventsReplicas); err != nil {
		return nil, err
	}
	var images app.ImageStore
	if cfg.MediaURL != "" {
		images = adapters.NewMediaClient(cfg.MediaURL, cfg.Signer)
	}
	repo := adapters.NewRepository(w.Pool, cfg.Photos)
	wishlist := app.New(repo, images)
	accounts := app.NewAccounts(repo)
	ports.Register(w.Server.Engine, wishlist, cfg.Photos, accounts)
	w.Server.AddReadinessCheck("postgres", repo.Ping)
	w.Server.Registry.MustRegister(adapters.NewBackupStatus(w.Pool))
	// Family memberships arrive as the family service's events (never from its tables).
	if err := w.Consumer(ports.ConsumeMemberships(ctx, w.JS, wishlist, logger, w.Metrics)); err != nil {
		return nil, err
	}
	if err := w.Consumers(ports.ConsumeAccountEvents(ctx, w.JS, accounts, cfg.ErasureBackOff, logger, w.Metrics)); err != nil {
		return nil, err
	}
	w.RunOutbox(cfg.OutboxConfig, repo.ShoppingDue, repo.EmptyListsDue(cfg.EmptyListQuiet))
	return w.Server, nil
}
