// Package testminio gives each test its own bucket on the real MinIO server that `make test`
// (or the developer) runs. Addresses come from TEST_MINIO_* with the local defaults.
// (pkg/testenv has no MinIO helper; this is the smallest one the media tests need.)
package testminio

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/services/media/internal/adapters"
)

func env(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

// Config returns the server's address and credentials with a fresh bucket name.
func Config() adapters.MinIOConfig {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return adapters.MinIOConfig{
		Endpoint:  env("TEST_MINIO_ENDPOINT", "127.0.0.1:9000"),
		AccessKey: env("TEST_MINIO_ACCESS_KEY", "santa"),
		SecretKey: env("TEST_MINIO_SECRET_KEY", "santa-secret-key"),
		Bucket:    "media-test-" + hex.EncodeToString(b),
	}
}

// Store returns a store on a new bucket, removed with its objects when the test ends.
func Store(t testing.TB) (*adapters.MinIOStore, adapters.MinIOConfig) {
	t.Helper()
	cfg := Config()
	store, err := adapters.NewMinIOStore(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := store.EnsureBucket(ctx); err != nil {
		t.Fatalf("MinIO at %s is needed for this test (start it as the media README says): %v", cfg.Endpoint, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := store.DropBucket(ctx); err != nil {
			t.Logf("drop bucket %s: %v", cfg.Bucket, err)
		}
	})
	return store, cfg
}
