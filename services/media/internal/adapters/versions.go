package adapters

import (
	"context"
	"fmt"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/lifecycle"
)

// The photo bucket is versioned so that a photo deleted or overwritten by mistake (a bug, a
// forged event, an operator's slip) can be brought back: S3's DELETE then only adds a delete
// marker, and the bytes stay as a noncurrent version until the lifecycle rule below expires
// them. Account deletion is the exception: Purge removes every version, since a deleted
// user's photos must really be gone.

// LifecycleRuleID names the one lifecycle rule the media service manages; an operator's other
// rules on the bucket are kept as they are.
const LifecycleRuleID = "santa-media-noncurrent-versions"

// keepVersions turns versioning on (once: a bucket that has it is not written to) and, with
// noncurrentDays > 0, makes sure the bucket's lifecycle has our rule: noncurrent versions
// expire noncurrentDays after they stopped being current, and a delete marker left with no
// version behind it goes too, so that neither grows forever.
func (s *MinIOStore) keepVersions(ctx context.Context, noncurrentDays int) error {
	versioning, err := s.client.GetBucketVersioning(ctx, s.bucket)
	if err != nil {
		return refused("read the versioning of bucket "+s.bucket, err)
	}
	// Suspended is turned back on too: keeping deleted photos is this bucket's backup.
	if !versioning.Enabled() {
		if err := s.client.EnableVersioning(ctx, s.bucket); err != nil {
			return refused("turn on the versioning of bucket "+s.bucket, err)
		}
	}
	if noncurrentDays <= 0 {
		return nil
	}
	config, err := s.client.GetBucketLifecycle(ctx, s.bucket)
	if minio.ToErrorResponse(err).Code == "NoSuchLifecycleConfiguration" {
		config, err = lifecycle.NewConfiguration(), nil
	}
	if err != nil {
		return refused("read the lifecycle of bucket "+s.bucket, err)
	}
	want := noncurrentRule(noncurrentDays)
	rules := make([]lifecycle.Rule, 0, len(config.Rules)+1)
	for _, r := range config.Rules {
		if r.ID != LifecycleRuleID {
			rules = append(rules, r)
		} else if sameRule(r, want) {
			return nil // already there: nothing to write
		}
	}
	config.Rules = append(rules, want)
	if err := s.client.SetBucketLifecycle(ctx, s.bucket, config); err != nil {
		return refused("set the lifecycle of bucket "+s.bucket, err)
	}
	return nil
}

func noncurrentRule(days int) lifecycle.Rule {
	return lifecycle.Rule{
		ID:                          LifecycleRuleID,
		Status:                      "Enabled",
		RuleFilter:                  lifecycle.Filter{}, // the whole bucket
		NoncurrentVersionExpiration: lifecycle.NoncurrentVersionExpiration{NoncurrentDays: lifecycle.ExpirationDays(days)},
		Expiration:                  lifecycle.Expiration{DeleteMarker: true},
	}
}

func sameRule(a, b lifecycle.Rule) bool {
	return a.Status == b.Status && a.RuleFilter.Prefix == "" && a.RuleFilter.And.IsEmpty() && a.RuleFilter.Tag.IsEmpty() &&
		a.NoncurrentVersionExpiration.NoncurrentDays == b.NoncurrentVersionExpiration.NoncurrentDays &&
		a.NoncurrentVersionExpiration.NewerNoncurrentVersions == 0 &&
		a.Expiration.DeleteMarker.IsEnabled() && a.Expiration.IsDaysNull() && a.Expiration.IsDateNull()
}

// ListOwnedBy returns every key with a version whose owner metadata is owner, the current one
// or an earlier one a delete or an overwrite left behind. It reads the whole bucket's listing
// of versions with metadata (a MinIO extension), 1000 per request: an account deletion is
// rare, and no second index of owners can drift from the truth.
func (s *MinIOStore) ListOwnedBy(ctx context.Context, owner string) ([]string, error) {
	var keys []string
	seen := map[string]bool{}
	opts := minio.ListObjectsOptions{Recursive: true, WithVersions: true, WithMetadata: true}
	for obj := range s.client.ListObjects(ctx, s.bucket, opts) {
		if obj.Err != nil {
			return nil, fmt.Errorf("list object versions: %w", obj.Err)
		}
		if seen[obj.Key] {
			continue
		}
		for k, v := range obj.UserMetadata {
			if (strings.EqualFold(k, ownerMeta) || strings.EqualFold(k, "X-Amz-Meta-"+ownerMeta)) && v == owner {
				keys = append(keys, obj.Key)
				seen[obj.Key] = true
				break
			}
		}
	}
	return keys, nil
}

// Purge removes every version of key, delete markers included, so that nothing of it can be
// fetched again, not even by version id. A key with no version left is not an error.
func (s *MinIOStore) Purge(ctx context.Context, key string) error {
	return s.removeVersions(ctx, key, func(k string) bool { return k == key })
}

// removeVersions deletes every version under prefix whose key match accepts, in batches of
// up to 1000 per request (S3's DeleteObjects, with version ids).
func (s *MinIOStore) removeVersions(ctx context.Context, prefix string, match func(string) bool) error {
	listCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var listErr error
	versions := make(chan minio.ObjectInfo)
	go func() {
		defer close(versions)
		for obj := range s.client.ListObjects(listCtx, s.bucket, minio.ListObjectsOptions{Prefix: prefix, Recursive: true, WithVersions: true}) {
			if obj.Err != nil {
				listErr = obj.Err
				return
			}
			if !match(obj.Key) {
				continue
			}
			select {
			case versions <- obj:
			case <-listCtx.Done():
				return
			}
		}
	}()
	var firstErr error
	for e := range s.client.RemoveObjects(ctx, s.bucket, versions, minio.RemoveObjectsOptions{}) {
		if firstErr == nil {
			firstErr = fmt.Errorf("remove %s version %s: %w", e.ObjectName, e.VersionID, e.Err)
			cancel() // stop listing; RemoveObjects drains what was already sent
		}
	}
	if firstErr != nil {
		return firstErr
	}
	// RemoveObjects has returned, so the lister has closed the channel and written listErr.
	if listErr != nil {
		return fmt.Errorf("list versions of %s: %w", prefix, listErr)
	}
	return nil
}
