package adapters_test

import (
	"testing"
	"time"

	"github.com/minio/minio-go/v7/pkg/lifecycle"

	"github.com/santa-wishlist/santa/fakes/miniotest"
	"github.com/santa-wishlist/santa/services/media/internal/adapters"
	"github.com/santa-wishlist/santa/services/media/internal/storetest"
)

// An operator-made bucket (no versioning, a lifecycle rule of the operator's own) gets
// versioning and our rule at the first start; later starts write nothing, and the operator's
// rule stays. A changed number of days replaces our rule, never adds a second one.
func TestEnsureBucketTurnsVersioningOnOnceAndKeepsTheOperatorsLifecycleRules(t *testing.T) {
	cfg := adapters.MinIOConfig(miniotest.Bucket(t))
	client := storetest.Client(t, cfg)
	c := ctx(t)
	operators := lifecycle.NewConfiguration()
	operators.Rules = []lifecycle.Rule{{ID: "operator-uploads", Status: "Enabled",
		RuleFilter: lifecycle.Filter{Prefix: "tmp/"}, Expiration: lifecycle.Expiration{Days: 2}}}
	if err := client.SetBucketLifecycle(c, cfg.Bucket, operators); err != nil {
		t.Fatal(err)
	}
	store, err := adapters.NewMinIOStore(cfg)
	if err != nil {
		t.Fatal(err)
	}

	ours := func(wantDays int) {
		t.Helper()
		if v, err := client.GetBucketVersioning(c, cfg.Bucket); err != nil || !v.Enabled() {
			t.Fatalf("versioning %+v, %v", v, err)
		}
		lc, err := client.GetBucketLifecycle(c, cfg.Bucket)
		if err != nil {
			t.Fatal(err)
		}
		found, operator := 0, false
		for _, r := range lc.Rules {
			switch r.ID {
			case adapters.LifecycleRuleID:
				found++
				if int(r.NoncurrentVersionExpiration.NoncurrentDays) != wantDays || !r.Expiration.DeleteMarker.IsEnabled() || r.Status != "Enabled" {
					t.Fatalf("our rule %+v, want noncurrent versions gone after %d days", r, wantDays)
				}
			case "operator-uploads":
				operator = true
			}
		}
		if found != 1 || !operator || len(lc.Rules) != 2 {
			t.Fatalf("rules %+v: want the operator's and one of ours", lc.Rules)
		}
	}
	if err := store.EnsureBucket(c, 30); err != nil {
		t.Fatal(err)
	}
	ours(30)
	_, written, err := client.GetBucketLifecycleWithInfo(c, cfg.Bucket)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // MinIO keeps the time of the last write to the second
	for range 2 {                       // a restart, and another replica's start
		if err := store.EnsureBucket(c, 30); err != nil {
			t.Fatalf("EnsureBucket again: %v", err)
		}
	}
	ours(30)
	if _, again, err := client.GetBucketLifecycleWithInfo(c, cfg.Bucket); err != nil || !again.Equal(written) {
		t.Fatalf("the lifecycle was written again (%s, then %s; %v)", written, again, err)
	}
	if err := store.EnsureBucket(c, 7); err != nil {
		t.Fatal(err)
	}
	ours(7)
	// 0: the bucket's lifecycle is the operator's; versioning stays on.
	if err := store.EnsureBucket(c, 0); err != nil {
		t.Fatal(err)
	}
	ours(7)
}

// A bucket the service makes itself is versioned from the start.
func TestEnsureBucketMakesAVersionedBucket(t *testing.T) {
	cfg := adapters.MinIOConfig(miniotest.NewConfig())
	store, err := adapters.NewMinIOStore(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := ctx(t)
	if err := store.EnsureBucket(c, 30); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := store.DropBucket(ctx(t)); err != nil {
			t.Errorf("drop: %v", err)
		}
	})
	if v, err := storetest.Client(t, cfg).GetBucketVersioning(c, cfg.Bucket); err != nil || !v.Enabled() {
		t.Fatalf("versioning of a new bucket: %+v, %v", v, err)
	}
}

// Purge leaves nothing of a key, not its noncurrent versions nor its delete marker, and
// touches no other key (not one it is a prefix of).
func TestPurgeRemovesEveryVersionOfOneKeyOnly(t *testing.T) {
	store, cfg := storetest.New(t)
	client := storetest.Client(t, cfg)
	c := ctx(t)
	key := "items/unattached/00000000000000000000000000000001.jpg"
	thumb := "items/unattached/00000000000000000000000000000001.jpg_thumb.jpg"
	for _, data := range []string{"first", "second"} {
		if err := store.Put(c, key, []byte(data), "image/jpeg", "anna"); err != nil {
			t.Fatal(err)
		}
	}
	if err := store.Put(c, thumb, []byte("t"), "image/jpeg", "anna"); err != nil {
		t.Fatal(err)
	}
	if err := store.Remove(c, key); err != nil {
		t.Fatal(err)
	}
	if n := len(storetest.Versions(t, client, cfg.Bucket, key)); n != 4 { // 2 versions, a marker, the thumb
		t.Fatalf("%d versions before the purge, want 4", n)
	}
	for range 2 {
		if err := store.Purge(c, key); err != nil {
			t.Fatal(err)
		}
	}
	left := storetest.Versions(t, client, cfg.Bucket, key)
	if len(left) != 1 || left[0].Key != thumb {
		t.Fatalf("left after the purge: %+v, want only the other key", left)
	}
}
