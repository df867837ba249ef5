package service

import (
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

func TestLoadConfigDefaults(t *testing.T) {
	t.Setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
	t.Setenv("IDENTITY_PUBLIC_KEYS", testenv.IdentityPublicKeys("gateway"))
	env := config.New()
	cfg := LoadConfig(env)
	if err := env.Err(); err != nil {
		t.Fatal(err)
	}
	if cfg.Gemini.Model != "gemini-2.5-flash" || cfg.App.Timeout != 20*time.Second ||
		cfg.App.QuotaPerUser != 50 || cfg.App.QuotaPerIP != 100 || cfg.App.CacheTTL != 24*time.Hour ||
		cfg.App.MaxAttempts != 3 || cfg.Server.Addr != ":8082" || cfg.Gemini.APIKey != "" || cfg.Identity == nil {
		t.Fatalf("%+v", cfg)
	}
}

func TestLoadConfigReportsProblems(t *testing.T) {
	t.Setenv("REDIS_URL", "")
	t.Setenv("GEMINI_TIMEOUT", "forever")
	t.Setenv("VISION_DAILY_QUOTA_PER_USER", "-1")
	env := config.New()
	LoadConfig(env)
	err := env.Err()
	if err == nil {
		t.Fatal("expected problems")
	}
	for _, want := range []string{"REDIS_URL is required", "GEMINI_TIMEOUT", "VISION_DAILY_QUOTA_PER_USER", "IDENTITY_PUBLIC_KEYS is required"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not mention %s", err, want)
		}
	}
}
