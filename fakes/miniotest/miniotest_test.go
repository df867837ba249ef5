package miniotest

import (
	"bytes"
	"context"
	"testing"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// The bucket a test gets is there while it runs and gone, objects and all, when it ends.
func TestBucketIsDroppedWithItsObjectsWhenTheTestEnds(t *testing.T) {
	var cfg Config
	t.Run("user", func(t *testing.T) {
		cfg = Bucket(t)
		client := newClient(t, cfg)
		for _, key := range []string{"a.jpg", "items/x/b.png"} {
			if _, err := client.PutObject(context.Background(), cfg.Bucket, key, bytes.NewReader([]byte("pixels")), 6, minio.PutObjectOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	})
	exists, err := newClient(t, cfg).BucketExists(context.Background(), cfg.Bucket)
	if err != nil || exists {
		t.Fatalf("bucket %s after the test: exists %v, err %v", cfg.Bucket, exists, err)
	}
}

func newClient(t *testing.T, cfg Config) *minio.Client {
	t.Helper()
	client, err := minio.New(cfg.Endpoint, &minio.Options{Creds: credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, "")})
	if err != nil {
		t.Fatal(err)
	}
	return client
}
