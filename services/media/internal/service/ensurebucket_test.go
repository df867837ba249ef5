package service

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/fakes/miniotest"
	"github.com/santa-wishlist/santa/pkg/lifecycle"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/media/internal/adapters"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func TestEnsureBucketGivesUpOnAnAbsentMinIOAfterTheStartupWait(t *testing.T) {
	cfg := adapters.MinIOConfig(miniotest.NewConfig())
	line := testenv.StartTCPProxy(t, cfg.Endpoint)
	line.Cut() // MinIO's address refuses every connection
	cfg.Endpoint = line.Addr()
	store, err := adapters.NewMinIOStore(cfg)
	if err != nil {
		t.Fatal(err)
	}
	saved := lifecycle.StartupWait
	lifecycle.StartupWait = time.Second
	defer func() { lifecycle.StartupWait = saved }()

	started := time.Now()
	err = ensureBucket(context.Background(), store, 30, quiet)
	if err == nil || !strings.Contains(err.Error(), "object storage") {
		t.Fatalf("ensureBucket = %v, want an object storage error", err)
	}
	// It tried more than once (the first wait is at least 50 ms) and stopped near lifecycle.StartupWait.
	if took := time.Since(started); took < 40*time.Millisecond || took > 10*time.Second {
		t.Fatalf("gave up after %s, with a 1 s startup wait", took)
	}
}

func TestEnsureBucketFailsAtOnceOnRefusedCredentials(t *testing.T) {
	cfg := adapters.MinIOConfig(miniotest.NewConfig())
	cfg.SecretKey = "not-the-secret-key"
	store, err := adapters.NewMinIOStore(cfg)
	if err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	err = ensureBucket(context.Background(), store, 30, quiet)
	if err == nil || !strings.Contains(err.Error(), "refused the credentials") {
		t.Fatalf("ensureBucket = %v, want the credentials refused", err)
	}
	if took := time.Since(started); took > 5*time.Second {
		t.Fatalf("took %s to report refused credentials; waiting cannot help", took)
	}
}
