package adapters_test

import (
	"context"
	"errors"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/services/media/internal/adapters"
	"github.com/santa-wishlist/santa/services/media/internal/domain"
	"github.com/santa-wishlist/santa/services/media/internal/storetest"
)

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

func TestMinIOStorePutStatGetListRemove(t *testing.T) {
	store, _ := storetest.New(t)
	c := ctx(t)
	key := "items/unattached/0123456789abcdef0123456789abcdef.jpg"
	if err := store.Put(c, key, []byte("pixels"), "image/jpeg", "user-1"); err != nil {
		t.Fatal(err)
	}

	info, err := store.Stat(c, key)
	if err != nil {
		t.Fatal(err)
	}
	if info.ContentType != "image/jpeg" || info.Size != 6 || info.Owner != "user-1" || info.ETag == "" {
		t.Fatalf("stat = %+v", info)
	}

	r, got, err := store.Get(c, key)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(r)
	_ = r.Close()
	if err != nil || string(body) != "pixels" || got.ETag != info.ETag || got.Owner != "user-1" {
		t.Fatalf("get = %q %+v %v", body, got, err)
	}

	other := "items/0b7c3a8e-5d1f-4f6a-9c2b-7e8d9f0a1b2c/0123456789abcdef0123456789abcdef.png"
	if err := store.Put(c, other, []byte("x"), "image/png", "user-1"); err != nil {
		t.Fatal(err)
	}
	keys, err := store.List(c, "items/unattached/")
	if err != nil || !slices.Equal(keys, []string{key}) {
		t.Fatalf("list = %v, %v", keys, err)
	}

	if err := store.Remove(c, key); err != nil {
		t.Fatal(err)
	}
	if err := store.Remove(c, key); err != nil {
		t.Fatalf("removing twice: %v", err)
	}
	if _, err := store.Stat(c, key); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("stat after remove: %v", err)
	}
	if _, _, err := store.Get(c, key); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("get after remove: %v", err)
	}
}

func TestMinIOStoreEnsureBucketIsIdempotentAndPingChecksIt(t *testing.T) {
	store, cfg := storetest.New(t)
	c := ctx(t)
	if err := store.EnsureBucket(c, storetest.NoncurrentDays); err != nil {
		t.Fatalf("EnsureBucket of an existing bucket: %v", err)
	}
	if err := store.Ping(c); err != nil {
		t.Fatalf("ping: %v", err)
	}
	cfg.Bucket += "-missing"
	missing, err := adapters.NewMinIOStore(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := missing.Ping(c); err == nil {
		t.Fatal("ping of a missing bucket succeeded")
	}
	cfg.SecretKey = "wrong"
	wrong, err := adapters.NewMinIOStore(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := wrong.EnsureBucket(c, storetest.NoncurrentDays); !errors.Is(err, adapters.ErrAccessDenied) {
		t.Fatalf("wrong credentials: err = %v, want ErrAccessDenied", err)
	}
}

func TestListOwnedByFindsEveryObjectOfOneUploaderAttachedOrNot(t *testing.T) {
	store, _ := storetest.New(t)
	c := ctx(t)
	mine := []string{
		"items/unattached/00000000000000000000000000000001.jpg",
		"items/unattached/00000000000000000000000000000001_thumb.jpg",
		"items/0b7c3a8e-5d1f-4f6a-9c2b-7e8d9f0a1b2c/00000000000000000000000000000002.png",
	}
	for _, k := range mine {
		if err := store.Put(c, k, []byte("x"), "image/jpeg", "anna"); err != nil {
			t.Fatal(err)
		}
	}
	if err := store.Put(c, "items/unattached/00000000000000000000000000000003.jpg", []byte("x"), "image/jpeg", "annabel"); err != nil {
		t.Fatal(err)
	}
	got, err := store.ListOwnedBy(c, "anna")
	slices.Sort(got)
	want := slices.Clone(mine)
	slices.Sort(want)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("owned by anna: %v (%v), want %v", got, err, want)
	}
}

// DropBucket (mediabench's clean-up) empties the bucket and removes it.
func TestMinIOStoreDropBucketRemovesItWithItsObjects(t *testing.T) {
	store, _ := storetest.New(t)
	c := ctx(t)
	if err := store.Put(c, "items/unattached/00000000000000000000000000000001.jpg", []byte("pixels"), "image/jpeg", "user-1"); err != nil {
		t.Fatal(err)
	}
	if err := store.DropBucket(c); err != nil {
		t.Fatalf("drop: %v", err)
	}
	if err := store.Ping(c); err == nil {
		t.Fatal("ping after the drop succeeded: the bucket is still there")
	}
}
