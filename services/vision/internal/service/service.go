// Package service wires the vision application from its configuration. main uses it, and
// component tests build the same thing around the fake Gemini and their own Redis keys.
package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/lifecycle"
	"github.com/santa-wishlist/santa/pkg/mediaurl"
	"github.com/santa-wishlist/santa/pkg/wiring"
	"github.com/santa-wishlist/santa/services/vision/internal/adapters"
	"github.com/santa-wishlist/santa/services/vision/internal/app"
	"github.com/santa-wishlist/santa/services/vision/internal/domain"
	"github.com/santa-wishlist/santa/services/vision/internal/ports"
)

// Config is what the vision service needs from its environment.
type Config struct {
	RedisURL string
	// KeyPrefix starts every Redis key (tests use their own).
	KeyPrefix string
	Gemini    adapters.GeminiConfig
	App       app.Config
	Lookup    LookupConfig
	Server    httpserver.Options
	// Identity verifies the assertion every request must carry (IDENTITY_PUBLIC_KEYS).
	Identity *auth.IdentityVerifier
	// Signer asserts the importing user to the media service (IDENTITY_SIGNING_KEY; needed
	// with MEDIA_URL).
	Signer *auth.IdentitySigner
	// Photos signs the stored pictures' addresses the lookups answer (MEDIA_URL_SECRET; needed
	// with MEDIA_URL): media serves only signed addresses.
	Photos *mediaurl.Signer
	// NATSURL (empty: no account erasure) is where user.deleted arrives; EventsNamespace is
	// this environment's part of it.
	NATSURL         string
	EventsNamespace events.Namespace
	// EventsReplicas is the stream's number of copies on a NATS cluster (EVENTS_REPLICAS).
	EventsReplicas int
}

// LookupConfig is where the product databases are and how they are treated.
type LookupConfig struct {
	OpenFoodFactsURL, OpenProductsFactsURL, UPCitemdbURL string
	// Timeout bounds one request to a database.
	Timeout time.Duration
	// FoundTTL and MissTTL keep found and not-found answers in Redis.
	FoundTTL, MissTTL time.Duration
	// BreakerFailures consecutive failures open a database's circuit for BreakerOpenFor.
	BreakerFailures uint32
	BreakerOpenFor  time.Duration
	// PerMinute are our own request rates per database (Open Facts, UPCitemdb).
	OpenFactsPerMinute, UPCitemdbPerMinute float64
	// Fetch bounds the shop-page fetcher of POST /api/lookup/url.
	Fetch adapters.FetchConfig
	// MediaURL is the media service, where imported pictures are stored.
	MediaURL string
}

// LookupDefaults are the real databases and their published limits.
func LookupDefaults() LookupConfig {
	return LookupConfig{
		OpenFoodFactsURL:     "https://world.openfoodfacts.org",
		OpenProductsFactsURL: "https://world.openproductsfacts.org",
		UPCitemdbURL:         "https://api.upcitemdb.com",
		Timeout:              3 * time.Second,
		FoundTTL:             7 * 24 * time.Hour,
		MissTTL:              24 * time.Hour,
		BreakerFailures:      5,
		BreakerOpenFor:       30 * time.Second,
		OpenFactsPerMinute:   100,
		UPCitemdbPerMinute:   6,
		Fetch:                adapters.FetchDefaults(),
	}
}

// LoadConfig reads and checks the environment.
func LoadConfig(env *config.Env) Config {
	d := app.Defaults()
	cfg := Config{
		RedisURL:        env.Required("REDIS_URL"),
		NATSURL:         env.String("NATS_URL", ""),
		EventsNamespace: events.NamespaceFromEnv(env),
		EventsReplicas:  events.ReplicasFromEnv(env),
		KeyPrefix:       "vision:",
		Gemini: adapters.GeminiConfig{
			APIKey:  env.String("GEMINI_API_KEY", ""),
			Model:   env.String("GEMINI_MODEL", d.Model),
			BaseURL: env.String("GEMINI_BASE_URL", ""),
		},
		App:      d,
		Lookup:   LookupDefaults(),
		Server:   httpserver.OptionsFromEnv(env, "vision", "8082"),
		Identity: auth.IdentityVerifierFromEnv(env, "vision"),
	}
	l := &cfg.Lookup
	l.OpenFoodFactsURL = env.String("LOOKUP_OPENFOODFACTS_URL", l.OpenFoodFactsURL)
	l.OpenProductsFactsURL = env.String("LOOKUP_OPENPRODUCTSFACTS_URL", l.OpenProductsFactsURL)
	l.UPCitemdbURL = env.String("LOOKUP_UPCITEMDB_URL", l.UPCitemdbURL)
	l.Timeout = env.Duration("LOOKUP_TIMEOUT", l.Timeout)
	l.FoundTTL = env.Duration("LOOKUP_CACHE_TTL", l.FoundTTL)
	l.MissTTL = env.Duration("LOOKUP_NOT_FOUND_TTL", l.MissTTL)
	for _, u := range []string{l.OpenFoodFactsURL, l.OpenProductsFactsURL, l.UPCitemdbURL} {
		if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
			env.Problem("LOOKUP_*_URL must be an http(s) base URL, got %q", u)
		}
	}
	if l.Timeout < 100*time.Millisecond || l.Timeout > 30*time.Second {
		env.Problem("LOOKUP_TIMEOUT must be between 100ms and 30s, got %s", l.Timeout)
	}
	if l.FoundTTL <= 0 || l.MissTTL <= 0 {
		env.Problem("LOOKUP_CACHE_TTL and LOOKUP_NOT_FOUND_TTL must be positive")
	}
	l.MediaURL = env.String("MEDIA_URL", "")
	// Test stacks only (the chart cannot set it): exact ip:port pairs of a local "shop".
	for _, pair := range strings.Fields(strings.ReplaceAll(env.String("LOOKUP_FETCH_TEST_ALLOW", ""), ",", " ")) {
		ap, err := netip.ParseAddrPort(pair)
		if err != nil {
			env.Problem("LOOKUP_FETCH_TEST_ALLOW takes exact ip:port pairs (test stacks only), got %q", pair)
			continue
		}
		l.Fetch.TestAllow = append(l.Fetch.TestAllow, ap)
	}
	cfg.App.DailyBudget = env.Int("GEMINI_DAILY_BUDGET", d.DailyBudget)
	cfg.App.LookupPerUser = env.Int("LOOKUP_DAILY_QUOTA_PER_USER", d.LookupPerUser)
	cfg.App.LookupPerIP = env.Int("LOOKUP_DAILY_QUOTA_PER_IP", d.LookupPerIP)
	if cfg.App.DailyBudget < 0 || cfg.App.LookupPerUser < 0 || cfg.App.LookupPerIP < 0 {
		env.Problem("GEMINI_DAILY_BUDGET and LOOKUP_DAILY_QUOTA_PER_USER/IP must be 0 (off) or more")
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
	if l.MediaURL != "" {
		cfg.Signer = auth.IdentitySignerFromEnv(env, "vision")
		cfg.Photos = mediaurl.FromEnv(env)
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
	var model domain.Model
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
	w := wiring.NewInternal(cfg.Server, cfg.Identity, logger)
	w.Closes(store.Close)
	srv := w.Server
	svc := app.New(model, store, store, cfg.App, app.NewMetrics(srv.Registry), logger)
	if len(cfg.Lookup.Fetch.TestAllow) > 0 {
		logger.Warn("LOOKUP_FETCH_TEST_ALLOW is set: the link importer may reach these local addresses (test stacks only)",
			"pairs", fmt.Sprint(cfg.Lookup.Fetch.TestAllow))
	}
	var images domain.ImageStore
	if cfg.Lookup.MediaURL != "" {
		if cfg.Photos == nil {
			return nil, errors.New("vision: MEDIA_URL needs MEDIA_URL_SECRET to sign the stored pictures' addresses")
		}
		images = adapters.NewMedia(cfg.Lookup.MediaURL, cfg.Signer)
	}
	barcodes := newBarcodes(cfg.Lookup, store, srv.Registry, logger)
	links := app.NewLinks(adapters.NewFetcher(cfg.Lookup.Fetch), images, logger)
	ports.Register(srv.Engine, ports.Lookups{
		App:      svc,
		Barcodes: barcodes,
		Links:    links,
		Images:   app.NewProductImages(barcodes, links, store, cfg.Lookup.MissTTL),
		Photos:   cfg.Photos,
	})
	srv.AddReadinessCheck("redis", store.Ping)
	if cfg.NATSURL == "" {
		logger.Warn("NATS_URL is not set: a deleted account's quota counters stay until they expire, and its deletion is never reported complete")
		return srv, nil
	}
	if err := w.ConnectNATS(cfg.NATSURL, "vision", cfg.EventsNamespace, cfg.EventsReplicas); err != nil {
		return nil, err
	}
	if err := w.EraseUsers(ctx, "vision", func(ctx context.Context, uid string) error {
		return store.DeleteQuotas(ctx, app.UserSubject(uid))
	}, nil); err != nil {
		return nil, err
	}
	srv.AddReadinessCheck("nats", lifecycle.NATSReady(w.NC))
	return srv, nil
}

// newBarcodes asks Open Food Facts, then Open Products Facts, then UPCitemdb.
func newBarcodes(cfg LookupConfig, cache domain.Cache, reg prometheus.Registerer, logger *slog.Logger) *app.Barcodes {
	upstream := func(name, base string, perMinute float64, burst int) adapters.UpstreamConfig {
		return adapters.UpstreamConfig{Name: name, BaseURL: base, Timeout: cfg.Timeout, PerMinute: perMinute, Burst: burst,
			BreakerFailures: cfg.BreakerFailures, BreakerOpenFor: cfg.BreakerOpenFor}
	}
	sources := []domain.ProductSource{
		adapters.NewOpenFactsUpstream(upstream(domain.SourceOpenFoodFacts, cfg.OpenFoodFactsURL, cfg.OpenFactsPerMinute, 10)),
		adapters.NewOpenFactsUpstream(upstream(domain.SourceOpenProductsFacts, cfg.OpenProductsFactsURL, cfg.OpenFactsPerMinute, 10)),
		adapters.NewUPCitemdbUpstream(upstream(domain.SourceUPCitemdb, cfg.UPCitemdbURL, cfg.UPCitemdbPerMinute, 6)),
	}
	return app.NewBarcodes(sources, cache, cfg.FoundTTL, cfg.MissTTL, app.NewLookupMetrics(reg), logger)
}
