// Package service wires the vision application from its configuration. main uses it, and
// component tests build the same thing around the fake Gemini and their own Redis keys.
package service

import (
	"context"
	"log/slog"
	"time"

	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/vision/internal/adapters"
	"github.com/santa-wishlist/santa/services/vision/internal/app"
	"github.com/santa-wishlist/santa/services/vision/internal/ports"
)

// Config is what the vision service needs from its environment.
type Config struct {
	RedisURL string
	// KeyPrefix starts every Redis key (tests use their own).
	KeyPrefix string
	Gemini    adapters.GeminiConfig
	App       app.Config
	Server    httpserver.Options
}

// LoadConfig reads and checks the environment.
func LoadConfig(env *config.Env) Config {
	d := app.Defaults()
	cfg := Config{
		RedisURL:  env.Required("REDIS_URL"),
		KeyPrefix: "vision:",
		Gemini: adapters.GeminiConfig{
			APIKey:  env.String("GEMINI_API_KEY", ""),
			Model:   env.String("GEMINI_MODEL", d.Model),
			BaseURL: env.String("GEMINI_BASE_URL", ""),
		},
		App:    d,
		Server: httpserver.OptionsFromEnv(env, "vision", "8082"),
	}
	cfg.App.Timeout = env.Duration("GEMINI_TIMEOUT", d.Timeout)
	cfg.App.CacheTTL = env.Duration("VISION_CACHE_TTL", d.CacheTTL)
	cfg.App.QuotaPerUser = env.Int("VISION_DAILY_QUOTA_PER_USER", d.QuotaPerUser)
	cfg.App.QuotaPerIP = env.Int("VISION_DAILY_QUOTA_PER_IP", d.QuotaPerIP)
	if cfg.App.Timeout < time.Second || cfg.App.Timeout > 2*time.Minute {
		env.Problem("GEMINI_TIMEOUT must be between 1s and 2m, got %s", cfg.App.Timeout)
	}
	if cfg.App.CacheTTL <= 0 {
		env.Problem("VISION_CACHE_TTL must be positive, got %s", cfg.App.CacheTTL)
	}
	if cfg.App.QuotaPerUser < 0 || cfg.App.QuotaPerIP < 0 {
		env.Problem("VISION_DAILY_QUOTA_PER_USER and VISION_DAILY_QUOTA_PER_IP must be 0 (off) or more")
	}
	return cfg
}

// Build connects to Redis, builds the Gemini client (when a key is configured) and returns
// the server with the vision routes.
func Build(ctx context.Context, cfg Config, logger *slog.Logger) (*httpserver.Server, error) {
	store, err := adapters.NewRedis(cfg.RedisURL, cfg.KeyPrefix)
	if err != nil {
		return nil, err
	}
	var model app.Model
	if cfg.Gemini.APIKey != "" {
		gemini, err := adapters.NewGemini(ctx, cfg.Gemini)
		if err != nil {
			_ = store.Close()
			return nil, err
		}
		model = gemini
		logger.Info("AI configured", "model", cfg.Gemini.Model, "custom_base_url", cfg.Gemini.BaseURL != "")
	} else {
		logger.Warn("GEMINI_API_KEY is not set: every answer is the generic fallback item, marked source=fallback")
	}

	cfg.App.Model, cfg.App.Backend = cfg.Gemini.Model, cfg.Gemini.BaseURL
	cfg.Server.Logger = logger
	srv := httpserver.New(cfg.Server)
	svc := app.New(model, store, store, cfg.App, app.NewMetrics(srv.Registry), logger)
	ports.RegisterRoutes(srv.Engine, svc)
	srv.AddReadinessCheck("redis", store.Ping)
	srv.OnShutdown(func(context.Context) error { return store.Close() })
	return srv, nil
}
