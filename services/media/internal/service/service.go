// Package service wires the media application from its configuration. main uses it, and
// component tests build the same thing around their own bucket and consumer.
package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/lifecycle"
	"github.com/santa-wishlist/santa/pkg/mediaurl"
	"github.com/santa-wishlist/santa/pkg/wiring"
	"github.com/santa-wishlist/santa/services/media/internal/adapters"
	"github.com/santa-wishlist/santa/services/media/internal/app"
	"github.com/santa-wishlist/santa/services/media/internal/domain"
	"github.com/santa-wishlist/santa/services/media/internal/ports"
)

// DefaultMaxBytes is the largest accepted image, before re-encoding.
const DefaultMaxBytes = 8 << 20

// Each user's storage quota by default: 500 photos or 256 MiB (images and thumbnails), which
// ever comes first; a re-encoded phone photo is a few hundred KB.
const (
	DefaultQuotaBytes  = 256 << 20
	DefaultQuotaImages = 500
)

// DefaultDecodeMemory is the decoding budget when neither MEDIA_DECODE_MEMORY, GOMEMLIMIT nor
// a cgroup limit says otherwise.
const DefaultDecodeMemory = 256 << 20

// DefaultNoncurrentDays is how long a deleted or overwritten photo can be brought back.
const DefaultNoncurrentDays = 30

// Config is what the media service needs from its environment.
type Config struct {
	MinIO adapters.MinIOConfig
	// NoncurrentDays: the bucket's lifecycle rule expires a deleted or overwritten photo's
	// previous version this many days later (MEDIA_NONCURRENT_VERSION_DAYS; 0 leaves the
	// bucket's lifecycle to its operator).
	NoncurrentDays int
	NATSURL        string
	// EventsNamespace keeps this environment's events apart on a shared NATS (EVENTS_NAMESPACE).
	EventsNamespace events.Namespace
	// EventsReplicas is the stream's number of copies on a NATS cluster (EVENTS_REPLICAS).
	EventsReplicas int
	MaxBytes       int64
	Limits         app.Limits
	// UnattachedTTL is how long an upload no item took is kept (MEDIA_UNATTACHED_TTL; 0 keeps
	// them), swept every SweepInterval.
	UnattachedTTL time.Duration
	SweepInterval time.Duration
	// ConsumerName is the durable item.deleted consumer (tests use their own).
	ConsumerName string
	Server       httpserver.Options
	// Identity verifies the assertion every request must carry (IDENTITY_PUBLIC_KEYS).
	Identity *auth.IdentityVerifier
	// URLs signs upload answers and checks download addresses (MEDIA_URL_SECRET, shared with
	// the services that answer photo addresses).
	URLs *mediaurl.Signer
}

// LoadConfig reads and checks the environment.
func LoadConfig(env *config.Env) Config {
	cfg := Config{
		MinIO: adapters.MinIOConfig{
			Endpoint:  env.Required("MINIO_ENDPOINT"),
			AccessKey: env.Required("MINIO_ACCESS_KEY"),
			SecretKey: env.Required("MINIO_SECRET_KEY"),
			Bucket:    env.String("MINIO_BUCKET", "santa-media"),
			UseSSL:    env.Bool("MINIO_USE_SSL", false),
		},
		NoncurrentDays:  env.Int("MEDIA_NONCURRENT_VERSION_DAYS", DefaultNoncurrentDays),
		NATSURL:         env.Required("NATS_URL"),
		EventsNamespace: events.NamespaceFromEnv(env),
		EventsReplicas:  events.ReplicasFromEnv(env),
		MaxBytes:        int64(env.Int("MEDIA_MAX_BYTES", DefaultMaxBytes)),
		Limits: app.Limits{
			DecodeMemory:     int64(env.Int("MEDIA_DECODE_MEMORY", int(decodeMemory(memoryLimit())))),
			UploadsPerMinute: float64(env.Int("MEDIA_UPLOADS_PER_MINUTE", 30)),
			UploadBurst:      env.Int("MEDIA_UPLOAD_BURST", 20),
			Quota: app.Quota{
				MaxBytes:  int64(env.Int("MEDIA_QUOTA_BYTES", DefaultQuotaBytes)),
				MaxImages: env.Int("MEDIA_QUOTA_IMAGES", DefaultQuotaImages),
			},
		},
		UnattachedTTL: env.Duration("MEDIA_UNATTACHED_TTL", 7*24*time.Hour),
		ConsumerName:  ports.ItemDeletedConsumer,
		Server:        httpserver.OptionsFromEnv(env, "media", "8083"),
		Identity:      auth.IdentityVerifierFromEnv(env, "media"),
		URLs:          mediaurl.FromEnv(env),
	}
	if cfg.MaxBytes < 1024 || cfg.MaxBytes > 64<<20 {
		env.Problem("MEDIA_MAX_BYTES must be between 1024 and %d bytes, got %d", 64<<20, cfg.MaxBytes)
	}
	if cfg.NoncurrentDays < 0 || cfg.NoncurrentDays > 3650 {
		env.Problem("MEDIA_NONCURRENT_VERSION_DAYS must be 0 (the operator's lifecycle rules) to 3650 days, got %d", cfg.NoncurrentDays)
	}
	if cfg.Limits.DecodeMemory < 16<<20 {
		env.Problem("MEDIA_DECODE_MEMORY must be at least %d bytes (16 MiB), got %d", 16<<20, cfg.Limits.DecodeMemory)
	}
	if cfg.UnattachedTTL < 0 || (cfg.UnattachedTTL > 0 && cfg.UnattachedTTL < time.Minute) {
		env.Problem("MEDIA_UNATTACHED_TTL must be 0 (keep them) or at least 1m, got %s", cfg.UnattachedTTL)
	}
	if cfg.Limits.Quota.MaxBytes < 0 || cfg.Limits.Quota.MaxImages < 0 {
		env.Problem("MEDIA_QUOTA_BYTES and MEDIA_QUOTA_IMAGES must be 0 (off) or more")
	}
	if cfg.Limits.UploadsPerMinute < 0 || cfg.Limits.UploadBurst < 1 {
		env.Problem("MEDIA_UPLOADS_PER_MINUTE must be 0 (off) or more and MEDIA_UPLOAD_BURST at least 1")
	}
	return cfg
}

// Build connects to MinIO (creating the bucket if needed) and NATS, starts the item.deleted
// consumer and returns the server. Everything it opens is closed when the server stops.
func Build(ctx context.Context, cfg Config, logger *slog.Logger) (*httpserver.Server, error) {
	if cfg.URLs == nil {
		return nil, errors.New("media: no photo address signer (MEDIA_URL_SECRET)")
	}
	store, err := adapters.NewMinIOStore(cfg.MinIO)
	if err != nil {
		return nil, err
	}
	if err := ensureBucket(ctx, store, cfg.NoncurrentDays, logger); err != nil {
		return nil, err
	}

	w := wiring.NewInternal(cfg.Server, cfg.Identity, logger)
	srv := w.Server
	svc := app.New(store, domain.Rules{MaxBytes: cfg.MaxBytes, MaxPixels: domain.DefaultMaxPixels},
		app.NewMetrics(srv.Registry), logger, cfg.Limits)
	logger.Info("image decoding budget", "decode_memory_mib", cfg.Limits.DecodeMemory>>20,
		"uploads_per_minute", cfg.Limits.UploadsPerMinute, "quota_images", cfg.Limits.Quota.MaxImages,
		"quota_mib", cfg.Limits.Quota.MaxBytes>>20, "identity_issuers", fmt.Sprint(cfg.Identity.Issuers()))
	ports.RegisterRoutes(srv.Engine, svc, cfg.URLs)
	srv.AddReadinessCheck("minio", store.Ping)

	// Run stops the consumers (after the sweep), then drains the connection.
	if err := w.ConnectNATS(cfg.NATSURL, "media", cfg.EventsNamespace, cfg.EventsReplicas); err != nil {
		return nil, err
	}
	if err := w.Consumer(ports.ConsumeItemDeleted(ctx, w.JS, cfg.ConsumerName, svc, logger, w.Metrics)); err != nil {
		return nil, err
	}
	if err := w.EraseUsers(ctx, "media", func(ctx context.Context, uid string) error {
		n, err := svc.EraseUser(ctx, uid)
		logger.Info("erased a deleted account's photos", "objects", n)
		return err
	}, nil); err != nil {
		return nil, err
	}
	srv.AddReadinessCheck("nats", lifecycle.NATSReady(w.NC))
	if cfg.UnattachedTTL > 0 {
		interval := cfg.SweepInterval
		if interval <= 0 {
			interval = min(cfg.UnattachedTTL/4, time.Hour)
		}
		// Registered after the store's users: it stops before the server's other steps.
		w.Go(func(ctx context.Context) { svc.SweepLoop(ctx, cfg.UnattachedTTL, interval) })
	}
	return srv, nil
}

// ensureBucket waits for MinIO, which may start after us in a local stack or a fresh cluster
// (lifecycle.Retry: up to half a minute), then gives up with the last error; a refusal of our
// credentials fails at once, and so does a refusal to turn on versioning: a photo bucket that
// cannot keep deleted photos is a missing backup, better seen at the deploy than after a loss.
func ensureBucket(ctx context.Context, store *adapters.MinIOStore, noncurrentDays int, logger *slog.Logger) error {
	err := lifecycle.Retry(ctx, func() error {
		attempt, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		err := store.EnsureBucket(attempt, noncurrentDays)
		if err != nil {
			logger.Warn("object storage not ready; retrying", "err", err)
		}
		return err
	}, func(err error) bool { return errors.Is(err, adapters.ErrAccessDenied) })
	if err != nil {
		return fmt.Errorf("object storage: %w", err)
	}
	return nil
}
