// Package miniotest gives each test its own bucket on the real MinIO server that `make test`
// (or the developer) runs, at the address testenv.MinIO gives. It talks to MinIO with the
// client library, not with the media service's store (which is internal to the service), and
// its Config has the fields of the service's adapters.MinIOConfig, so a test converts one into
// the other: adapters.MinIOConfig(miniotest.Bucket(t)).
package miniotest

import (
	"context"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

// Config says where a test's bucket lives.
type Config struct {
	Endpoint  string // host:port
	AccessKey string
	SecretKey string
	UseSSL    bool
	Bucket    string
}

// NewConfig returns the server's address and credentials with a fresh bucket name; the bucket
// is not created (for tests of the code that creates it).
func NewConfig() Config {
	endpoint, accessKey, secretKey := testenv.MinIO()
	return Config{
		Endpoint:  endpoint,
		AccessKey: accessKey,
		SecretKey: secretKey,
		Bucket:    "media-test-" + testenv.RandomHex(6),
	}
}

// Bucket creates a fresh bucket, removed with its objects (every version) when the test ends.
func Bucket(t testing.TB) Config {
	t.Helper()
	cfg := NewConfig()
	client, err := minio.New(cfg.Endpoint, &minio.Options{
		Creds:  credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""),
		Secure: cfg.UseSSL,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := client.MakeBucket(ctx, cfg.Bucket, minio.MakeBucketOptions{}); err != nil {
		t.Fatalf("MinIO at %s is needed for this test (start it as the media README says): %v", cfg.Endpoint, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if exists, err := client.BucketExists(ctx, cfg.Bucket); err == nil && !exists {
			return // the test dropped it itself
		}
		// Every version (the media service turns versioning on): a versioned bucket with any
		// version or delete marker left cannot be removed.
		objects := client.ListObjects(ctx, cfg.Bucket, minio.ListObjectsOptions{Recursive: true, WithVersions: true})
		for e := range client.RemoveObjects(ctx, cfg.Bucket, objects, minio.RemoveObjectsOptions{}) {
			t.Logf("drop bucket %s: remove %s: %v", cfg.Bucket, e.ObjectName, e.Err)
		}
		if err := client.RemoveBucket(ctx, cfg.Bucket); err != nil {
			t.Logf("drop bucket %s: %v", cfg.Bucket, err)
		}
	})
	return cfg
}
