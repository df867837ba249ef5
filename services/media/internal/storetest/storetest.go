// Package storetest gives media's tests a MinIO store on a fresh bucket of the test MinIO
// server (fakes/miniotest), dropped when the test ends. Only tests import it, so it is not in
// the service's binary.
package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/santa-wishlist/santa/fakes/miniotest"
	"github.com/santa-wishlist/santa/services/media/internal/adapters"
)

// NoncurrentDays is the lifecycle rule New's buckets get.
const NoncurrentDays = 30

// New returns a store on a fresh bucket set up as the service sets up its own (EnsureBucket:
// versioning on, noncurrent versions expiring), and the configuration it was made with.
func New(t testing.TB) (*adapters.MinIOStore, adapters.MinIOConfig) {
	t.Helper()
	cfg := adapters.MinIOConfig(miniotest.Bucket(t))
	store, err := adapters.NewMinIOStore(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := store.EnsureBucket(ctx, NoncurrentDays); err != nil {
		t.Fatal(err)
	}
	return store, cfg
}

// Client is a plain client of the bucket's server, to look behind the service's back as an
// operator (or an attacker) holding the bucket's credentials would.
func Client(t testing.TB, cfg adapters.MinIOConfig) *minio.Client {
	t.Helper()
	client, err := minio.New(cfg.Endpoint, &minio.Options{
		Creds: credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""), Secure: cfg.UseSSL})
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// Versions lists every version under prefix, delete markers included, newest first per key.
func Versions(t testing.TB, client *minio.Client, bucket, prefix string) []minio.ObjectInfo {
	t.Helper()
	var out []minio.ObjectInfo
	for v := range client.ListObjects(context.Background(), bucket,
		minio.ListObjectsOptions{Prefix: prefix, Recursive: true, WithVersions: true}) {
		if v.Err != nil {
			t.Fatalf("list versions of %s: %v", prefix, v.Err)
		}
		out = append(out, v)
	}
	return out
}
