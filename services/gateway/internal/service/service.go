// Package service wires the gateway from its configuration, for main and for tests.
package service

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/auth/firebaseauth"
	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/lifecycle"
	"github.com/santa-wishlist/santa/pkg/redisclient"
	"github.com/santa-wishlist/santa/pkg/wiring"
	"github.com/santa-wishlist/santa/services/gateway/internal/adapters"
	"github.com/santa-wishlist/santa/services/gateway/internal/ports"
)

// Config is what the gateway needs from its environment.
type Config struct {
	Server        httpserver.Options
	RedisURL      string
	RedisPrefix   string // lets several gateways (or tests) share one Redis
	ProjectID     string
	AllowEmulator bool
	Upstreams     ports.Upstreams
	WebDir        string
	WebConfig     ports.WebConfig
	// HSTS is the Strict-Transport-Security header of answers over HTTPS (HSTS_MAX_AGE,
	// HSTS_INCLUDE_SUBDOMAINS); empty with a max-age of 0.
	HSTS           string
	Limits         ports.RateLimits
	LimitSync      time.Duration // how often rate limit counts go to Redis
	Idempotency    adapters.IdempotencyLimits
	TrustedProxies []string
	Streams        ports.StreamConfig
	// Identity signs the assertion of the verified user each internal call carries
	// (IDENTITY_SIGNING_KEY, IDENTITY_ASSERTION_TTL).
	Identity *auth.IdentitySigner
	// NATSURL (empty: no account erasure here) is where user.deleted arrives: the gateway
	// erases the account's idempotency answers and rate counters and its Firebase user.
	NATSURL         string
	EventsNamespace events.Namespace
	// EventsReplicas is the stream's number of copies on a NATS cluster (EVENTS_REPLICAS).
	EventsReplicas int
}

// LoadConfig reads and checks the environment.
func LoadConfig(env *config.Env) Config {
	cfg := Config{
		Server:          httpserver.OptionsFromEnv(env, "gateway", "8080"),
		RedisURL:        env.Required("REDIS_URL"),
		RedisPrefix:     env.String("REDIS_KEY_PREFIX", "gw"),
		Identity:        auth.IdentitySignerFromEnv(env, "gateway"),
		NATSURL:         env.String("NATS_URL", ""),
		EventsNamespace: events.NamespaceFromEnv(env),
		EventsReplicas:  events.ReplicasFromEnv(env),
		ProjectID:       env.Required("FIREBASE_PROJECT_ID"),
		AllowEmulator:   env.Bool("ALLOW_AUTH_EMULATOR", false),
		Upstreams: ports.Upstreams{
			Wishlist:     serviceURL(env, "WISHLIST_URL", true),
			Vision:       serviceURL(env, "VISION_URL", false),
			Media:        serviceURL(env, "MEDIA_URL", false),
			Notification: serviceURL(env, "NOTIFICATION_URL", false),
			Family:       serviceURL(env, "FAMILY_URL", false),
		},
		WebDir: env.String("WEB_DIR", ""),
		Limits: ports.RateLimits{
			PerIP:   int64(env.Int("RATE_LIMIT_IP_PER_MINUTE", 600)),
			PerUser: int64(env.Int("RATE_LIMIT_USER_PER_MINUTE", 240)),
		},
		LimitSync: env.Duration("RATE_LIMIT_SYNC_INTERVAL", adapters.DefaultSyncInterval),
		Streams: ports.StreamConfig{
			StreamLimits: httpserver.StreamLimitsFromEnv(env),
			OpensPerIP:   int64(env.Int("RATE_LIMIT_STREAM_OPENS_IP_PER_MINUTE", 20000)),
		},
		Idempotency: adapters.IdempotencyLimits{
			KeepFor:        env.Duration("IDEMPOTENCY_TTL", adapters.DefaultIdempotencyLimits.KeepFor),
			MaxKeysPerUser: int64(env.Int("IDEMPOTENCY_MAX_KEYS_PER_USER", int(adapters.DefaultIdempotencyLimits.MaxKeysPerUser))),
			MaxStoredBody:  env.Int("IDEMPOTENCY_MAX_STORED_BODY", adapters.DefaultIdempotencyLimits.MaxStoredBody),
		},
	}
	// The gateway is the public face: /readyz (which names failing dependencies) and /metrics
	// are never answered on its public port, even when ADMIN_PORT is forgotten.
	if cfg.Server.AdminAddr == "" {
		cfg.Server.AdminAddr = ":9090"
	}
	if p := env.String("TRUSTED_PROXIES", ""); p != "" {
		cfg.TrustedProxies = strings.Split(p, ",")
	}
	cfg.WebConfig.Firebase.APIKey = env.String("FIREBASE_WEB_API_KEY", "demo-api-key")
	cfg.WebConfig.Firebase.ProjectID = cfg.ProjectID
	cfg.WebConfig.Firebase.AuthDomain = env.String("FIREBASE_AUTH_DOMAIN", cfg.ProjectID+".firebaseapp.com")
	if host := os.Getenv("FIREBASE_AUTH_EMULATOR_HOST"); host != "" {
		cfg.WebConfig.AuthEmulatorURL = env.String("AUTH_EMULATOR_PUBLIC_URL", "http://"+host)
	}
	// A year, the least the browsers' preload lists take; 0 sends no header.
	hstsMaxAge := env.Duration("HSTS_MAX_AGE", 365*24*time.Hour)
	if hstsMaxAge < 0 {
		env.Problem("HSTS_MAX_AGE must be 0 (no Strict-Transport-Security) or more, got %s", hstsMaxAge)
	}
	cfg.HSTS = ports.StrictTransportSecurity(hstsMaxAge, env.Bool("HSTS_INCLUDE_SUBDOMAINS", true))
	if cfg.WebDir != "" {
		if _, err := os.Stat(cfg.WebDir + "/index.html"); err != nil {
			env.Problem("WEB_DIR %q has no index.html (build the web app with `make web`)", cfg.WebDir)
		}
	}
	if cfg.Limits.PerIP < 1 || cfg.Limits.PerUser < 1 {
		env.Problem("rate limits must be at least 1 request per minute")
	}
	if cfg.Idempotency.KeepFor < time.Minute || cfg.Idempotency.MaxKeysPerUser < 1 || cfg.Idempotency.MaxStoredBody < 0 {
		env.Problem("IDEMPOTENCY_TTL must be at least 1m, IDEMPOTENCY_MAX_KEYS_PER_USER at least 1, IDEMPOTENCY_MAX_STORED_BODY 0 or more")
	}
	if cfg.LimitSync <= 0 || cfg.LimitSync > 10*time.Second {
		env.Problem("RATE_LIMIT_SYNC_INTERVAL must be between 1ms and 10s, got %s", cfg.LimitSync)
	}
	return cfg
}

func serviceURL(env *config.Env, name string, required bool) string {
	var v string
	if required {
		v = env.Required(name)
	} else {
		v = env.String(name, "")
	}
	if v == "" {
		return ""
	}
	if u, err := url.Parse(v); err != nil || u.Scheme == "" || u.Host == "" {
		env.Problem("%s must be a URL such as http://wishlist:80, got %q", name, v)
	}
	return strings.TrimRight(v, "/")
}

// Build connects to Redis and Firebase and returns the gateway server.
func Build(ctx context.Context, cfg Config, logger *slog.Logger) (*httpserver.Server, error) {
	verifier, err := firebaseauth.NewVerifier(ctx, cfg.ProjectID, cfg.AllowEmulator)
	if err != nil {
		return nil, err
	}
	if cfg.Identity == nil {
		return nil, fmt.Errorf("no identity signing key (IDENTITY_SIGNING_KEY): internal services would refuse every call")
	}
	rdb, err := redisclient.New(cfg.RedisURL)
	if err != nil {
		return nil, err
	}

	w := wiring.New(cfg.Server, logger)
	w.Closes(rdb.Close)
	srv := w.Server
	if err := srv.Engine.SetTrustedProxies(cfg.TrustedProxies); err != nil {
		return nil, w.Fail(fmt.Errorf("TRUSTED_PROXIES: %w", err))
	}
	limiter := adapters.NewRateLimiter(rdb, cfg.RedisPrefix+":rl")
	idempotency := adapters.NewIdempotencyStore(rdb, cfg.RedisPrefix+":idem", cfg.Idempotency)
	ports.Routes(srv.Engine, ports.Deps{
		Verifier:    verifier,
		Limiter:     limiter,
		Limits:      cfg.Limits,
		Idempotency: idempotency,
		Upstreams:   cfg.Upstreams,
		Identity:    cfg.Identity,
		WebDir:      cfg.WebDir,
		WebConfig:   cfg.WebConfig,
		HSTS:        cfg.HSTS,
		Registry:    srv.Registry,
		Streams:     cfg.Streams,
		Lifetime:    ctx,
	})
	srv.Registry.MustRegister(adapters.NewRedisMemory(rdb))
	srv.AddReadinessCheck("redis", func(ctx context.Context) error { return rdb.Ping(ctx).Err() })
	// Registered after Redis's close, so it stops before it: the last counts still get there.
	w.Go(func(ctx context.Context) {
		limiter.Run(ctx, cfg.LimitSync, throttledWarning(logger, "rate limit counts could not reach Redis; limits hold per gateway until it answers"))
	})
	if cfg.NATSURL == "" {
		logger.Warn("NATS_URL is not set: a deleted account's Redis keys and Firebase user stay, and its deletion is never reported complete")
		return srv, nil
	}
	if err := w.ConnectNATS(cfg.NATSURL, "gateway", cfg.EventsNamespace, cfg.EventsReplicas); err != nil {
		return nil, err
	}
	if err := w.EraseUsers(ctx, "gateway", func(ctx context.Context, uid string) error {
		if err := idempotency.ForgetUser(ctx, uid); err != nil {
			return err
		}
		if err := limiter.ForgetUser(ctx, uid); err != nil {
			return err
		}
		return verifier.DeleteUser(ctx, uid)
	}, nil); err != nil {
		return nil, err
	}
	srv.AddReadinessCheck("nats", lifecycle.NATSReady(w.NC))
	return srv, nil
}

// throttledWarning logs an error at most every 30 s: a sync failing ten times a second while
// Redis is down should say so, not flood the logs.
func throttledWarning(logger *slog.Logger, msg string) func(error) {
	var last time.Time
	return func(err error) {
		if now := time.Now(); now.Sub(last) >= 30*time.Second {
			last = now
			logger.Warn(msg, "err", err)
		}
	}
}
