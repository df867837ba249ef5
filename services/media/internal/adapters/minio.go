// Package adapters connects the media service to MinIO.
package adapters

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/santa-wishlist/santa/services/media/internal/domain"
)

// ErrAccessDenied: MinIO refused the credentials; retrying will not help.
var ErrAccessDenied = errors.New("object storage refused the credentials")

// ownerMeta is the user metadata key (x-amz-meta-owner) recording who uploaded an object.
const ownerMeta = "Owner"

// itemMeta (x-amz-meta-item) records the item that took an unattached upload.
const itemMeta = "Item"

// MinIOConfig says where the bucket lives.
type MinIOConfig struct {
	Endpoint  string // host:port
	AccessKey string
	SecretKey string
	UseSSL    bool
	Bucket    string
}

// MinIOStore keeps objects in one MinIO bucket.
type MinIOStore struct {
	client *minio.Client
	bucket string
}

var _ domain.ObjectStore = (*MinIOStore)(nil)

// NewMinIOStore builds the client; it does not contact the server (see EnsureBucket).
func NewMinIOStore(cfg MinIOConfig) (*MinIOStore, error) {
	client, err := minio.New(cfg.Endpoint, &minio.Options{
		Creds:  credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""),
		Secure: cfg.UseSSL,
	})
	if err != nil {
		return nil, fmt.Errorf("minio client for %s: %w", cfg.Endpoint, err)
	}
	return &MinIOStore{client: client, bucket: cfg.Bucket}, nil
}

// EnsureBucket creates the bucket when it does not exist yet, then makes it keep the previous
// versions of deleted and overwritten photos, and forget them noncurrentDays after (0 leaves
// the bucket's lifecycle rules to its operator; see keepVersions).
func (s *MinIOStore) EnsureBucket(ctx context.Context, noncurrentDays int) error {
	exists, err := s.client.BucketExists(ctx, s.bucket)
	if err != nil {
		return refused("check bucket "+s.bucket, err)
	}
	if !exists {
		err := s.client.MakeBucket(ctx, s.bucket, minio.MakeBucketOptions{})
		// Another replica may have created it between the check and now.
		if err != nil && minio.ToErrorResponse(err).Code != minio.BucketAlreadyOwnedByYou {
			return fmt.Errorf("create bucket %s: %w", s.bucket, err)
		}
	}
	return s.keepVersions(ctx, noncurrentDays)
}

// refused wraps the error of doing; as ErrAccessDenied when the server refused our credentials
// or permissions, since waiting and retrying will not change its answer.
func refused(doing string, err error) error {
	switch minio.ToErrorResponse(err).Code {
	case "InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied":
		return fmt.Errorf("%s: %w: %v", doing, ErrAccessDenied, err)
	}
	return fmt.Errorf("%s: %w", doing, err)
}

// Ping checks that MinIO answers and the bucket exists, for readiness.
func (s *MinIOStore) Ping(ctx context.Context) error {
	exists, err := s.client.BucketExists(ctx, s.bucket)
	if err != nil {
		return fmt.Errorf("minio: %w", err)
	}
	if !exists {
		return fmt.Errorf("minio: bucket %s is missing", s.bucket)
	}
	return nil
}

// Put stores data under key, recording its content type and owner.
func (s *MinIOStore) Put(ctx context.Context, key string, data []byte, contentType, owner string) error {
	_, err := s.client.PutObject(ctx, s.bucket, key, bytes.NewReader(data), int64(len(data)), minio.PutObjectOptions{
		ContentType:  contentType,
		UserMetadata: map[string]string{ownerMeta: owner},
		// Objects are a few MB at most: one PUT, no multipart bookkeeping.
		DisableMultipart: true,
	})
	if err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	return nil
}

// Stat describes the object under key.
func (s *MinIOStore) Stat(ctx context.Context, key string) (domain.ObjectInfo, error) {
	info, err := s.client.StatObject(ctx, s.bucket, key, minio.StatObjectOptions{})
	if err != nil {
		return domain.ObjectInfo{}, translate(key, err)
	}
	return objectInfo(info), nil
}

// Get opens the object under key. The GET is sent at once, so a missing object is reported
// here, not at the first Read.
func (s *MinIOStore) Get(ctx context.Context, key string) (io.ReadCloser, domain.ObjectInfo, error) {
	obj, err := s.client.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, domain.ObjectInfo{}, translate(key, err)
	}
	info, err := obj.Stat()
	if err != nil {
		_ = obj.Close()
		return nil, domain.ObjectInfo{}, translate(key, err)
	}
	return obj, objectInfo(info), nil
}

// Remove deletes the object under key; S3 deletes are idempotent already. In the versioned
// bucket it only hides the object behind a delete marker: the bytes stay recoverable until the
// lifecycle rule expires them (Purge removes them for good).
func (s *MinIOStore) Remove(ctx context.Context, key string) error {
	if err := s.client.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{}); err != nil {
		return translate(key, err)
	}
	return nil
}

// List returns every key under prefix.
func (s *MinIOStore) List(ctx context.Context, prefix string) ([]string, error) {
	var keys []string
	for obj := range s.client.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: prefix, Recursive: true}) {
		if obj.Err != nil {
			return nil, fmt.Errorf("list %s: %w", prefix, obj.Err)
		}
		keys = append(keys, obj.Key)
	}
	return keys, nil
}

// ListInfo returns every object under prefix with its size and modification time.
func (s *MinIOStore) ListInfo(ctx context.Context, prefix string) ([]domain.ObjectInfo, error) {
	var out []domain.ObjectInfo
	for obj := range s.client.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: prefix, Recursive: true}) {
		if obj.Err != nil {
			return nil, fmt.Errorf("list %s: %w", prefix, obj.Err)
		}
		out = append(out, domain.ObjectInfo{Key: obj.Key, Size: obj.Size, LastModified: obj.LastModified})
	}
	return out, nil
}

// MarkItem rewrites the object's metadata in place (a server-side copy onto itself): its
// owner and the item that uses it, keeping its content type.
func (s *MinIOStore) MarkItem(ctx context.Context, key, owner, itemID, contentType string) error {
	_, err := s.client.CopyObject(ctx,
		minio.CopyDestOptions{Bucket: s.bucket, Object: key, ReplaceMetadata: true,
			// REPLACE replaces the content type too: it is given again.
			UserMetadata: map[string]string{ownerMeta: owner, itemMeta: itemID, "Content-Type": contentType}},
		minio.CopySrcOptions{Bucket: s.bucket, Object: key})
	if err != nil {
		return translate(key, err)
	}
	return nil
}

func objectInfo(info minio.ObjectInfo) domain.ObjectInfo {
	owner, item := "", ""
	for k, v := range info.UserMetadata {
		if strings.EqualFold(k, ownerMeta) {
			owner = v
		}
		if strings.EqualFold(k, itemMeta) {
			item = v
		}
	}
	return domain.ObjectInfo{
		Key:          info.Key,
		ContentType:  info.ContentType,
		Size:         info.Size,
		ETag:         strings.Trim(info.ETag, `"`),
		LastModified: info.LastModified,
		Owner:        owner,
		Item:         item,
	}
}

func translate(key string, err error) error {
	resp := minio.ToErrorResponse(err)
	if resp.Code == minio.NoSuchKey || resp.StatusCode == http.StatusNotFound && resp.Code != minio.NoSuchBucket {
		return fmt.Errorf("%s: %w", key, domain.ErrNotFound)
	}
	return fmt.Errorf("%s: %w", key, err)
}

// DropBucket empties and removes the bucket, every version of every object included (a
// versioned bucket with any left cannot be removed). mediabench uses it to clean up.
func (s *MinIOStore) DropBucket(ctx context.Context) error {
	if err := s.removeVersions(ctx, "", func(string) bool { return true }); err != nil {
		return err
	}
	if err := s.client.RemoveBucket(ctx, s.bucket); err != nil {
		return fmt.Errorf("remove bucket %s: %w", s.bucket, err)
	}
	return nil
}
