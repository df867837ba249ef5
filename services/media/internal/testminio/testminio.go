// Package testminio gives each test its own bucket on the real MinIO server that `make test`
// (or the developer) runs, at the address testenv.MinIO gives. It lives beside the media
// service because its buckets are the service's own store type.
package testminio

import (
	"context"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/media/internal/adapters"
)

// Config returns the server's address and credentials with a fresh bucket name.
func Config() adapters.MinIOConfig {
	endpoint, accessKey, secretKey := testenv.MinIO()
	return adapters.MinIOConfig{
		Endpoint:  endpoint,
		AccessKey: accessKey,
		SecretKey: secretKey,
		Bucket:    "media-test-" + testenv.RandomHex(6),
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
