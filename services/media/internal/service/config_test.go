package service_test

import (
	"testing"

	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/media/internal/service"
)

// The stack's namespace reaches media's consumer (it once did not, and media consumed the
// default stream while the wishlist published in the stack's own).
func TestLoadConfigReadsTheEnvironment(t *testing.T) {
	for k, v := range map[string]string{
		"MINIO_ENDPOINT": "127.0.0.1:9000", "MINIO_ACCESS_KEY": "a", "MINIO_SECRET_KEY": "b",
		"NATS_URL": "nats://127.0.0.1:4222", "EVENTS_NAMESPACE": "test", "GOMEMLIMIT": "100MiB",
		"MEDIA_DECODE_MEMORY": "", "MEDIA_UPLOADS_PER_MINUTE": "12",
		"IDENTITY_PUBLIC_KEYS": testenv.IdentityPublicKeys("gateway", "wishlist", "vision"),
		"MEDIA_URL_SECRET":     testenv.MediaURLSecret,
	} {
		t.Setenv(k, v)
	}
	env := config.New()
	cfg := service.LoadConfig(env)
	if err := env.Err(); err != nil {
		t.Fatal(err)
	}
	if cfg.EventsNamespace != events.Namespace("test") {
		t.Errorf("events namespace %q, want test", cfg.EventsNamespace)
	}
	if got := cfg.Identity.Issuers(); len(got) != 3 {
		t.Errorf("trusted issuers %v, want gateway, vision and wishlist", got)
	}
	if cfg.NoncurrentDays != service.DefaultNoncurrentDays {
		t.Errorf("noncurrent version days %d, want the default %d", cfg.NoncurrentDays, service.DefaultNoncurrentDays)
	}
	if cfg.Limits.UploadsPerMinute != 12 || cfg.Limits.DecodeMemory <= 0 {
		t.Errorf("limits %+v", cfg.Limits)
	}
}
