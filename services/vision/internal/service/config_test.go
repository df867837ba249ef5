package service

import (
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/config"
)

func TestLoadConfigDefaults(t *testing.T) {
	t.Setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
	env := config.New()
	cfg := LoadConfig(env)
	if err := env.Err(); err != nil {
		t.Fatal(err)
	}
	if cfg.Gemini.Model != "gemini-2.5-flash" || cfg.App.Timeout != 20*time.Second ||
		cfg.App.QuotaPerUser != 50 || cfg.App.QuotaPerIP != 100 || cfg.App.CacheTTL != 24*time.Hour ||
		cfg.App.MaxAttempts != 3 || cfg.Server.Addr != ":8082" || cfg.Gemini.APIKey != "" {
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
	for _, want := range []string{"REDIS_URL is required", "GEMINI_TIMEOUT", "VISION_DAILY_QUOTA_PER_USER"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not mention %s", err, want)
		}
	}
}
