package app_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"path"
	"strings"
	"testing"

	"github.com/minio/minio-go/v7"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/services/media/internal/app"
	"github.com/santa-wishlist/santa/services/media/internal/domain"
	"github.com/santa-wishlist/santa/services/media/internal/storetest"
)

// versioned is the service on a bucket set up as in production, and a plain client of it.
func versioned(t *testing.T) (*app.Service, *minio.Client, string) {
	t.Helper()
	store, cfg := storetest.New(t)
	svc := app.New(store, domain.Rules{MaxBytes: 8 << 20}, app.NewMetrics(prometheus.NewRegistry()),
		slog.New(slog.DiscardHandler), app.Limits{Quota: app.Quota{MaxImages: 50}})
	return svc, storetest.Client(t, cfg), cfg.Bucket
}

// fetchVersion reads one version of key straight from MinIO, as an operator restoring it (or
// someone holding the bucket's credentials) would.
func fetchVersion(c context.Context, client *minio.Client, bucket, key, versionID string) ([]byte, error) {
	obj, err := client.GetObject(c, bucket, key, minio.GetObjectOptions{VersionID: versionID})
	if err != nil {
		return nil, err
	}
	defer obj.Close()
	return io.ReadAll(obj)
}

func content(t *testing.T, svc *app.Service, key string) []byte {
	t.Helper()
	r, _, err := svc.Open(ctx(t), key)
	if err != nil {
		t.Fatalf("open %s: %v", key, err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Recovery: a photo overwritten (Attach rewrites its metadata in place) or deleted (Discard)
// through the service keeps its previous version, which its version id still fetches, and
// removing the delete marker (the runbook's restore, docs/operations.md) brings it back.
func TestADeletedOrOverwrittenPhotoStaysRecoverableByVersionID(t *testing.T) {
	svc, client, bucket := versioned(t)
	c := ctx(t)
	up := store(t, svc, "", "anna")
	k := key(up.URL)
	original := content(t, svc, k)
	first := storetest.Versions(t, client, bucket, k)
	if len(first) != 1 || first[0].VersionID == "" || first[0].VersionID == "null" {
		t.Fatalf("versions of a new photo: %+v, want one with a version id", first)
	}

	if n, err := svc.Attach(c, "anna", up.URL, itemA); err != nil || n != 2 {
		t.Fatalf("attach: %d %v", n, err)
	}
	if got := storetest.Versions(t, client, bucket, k); len(got) != 2 || got[0].VersionID == first[0].VersionID {
		t.Fatalf("versions after the overwrite: %+v, want a new current one and the first", got)
	}
	old, err := client.StatObject(c, bucket, k, minio.StatObjectOptions{VersionID: first[0].VersionID})
	if err != nil || old.UserMetadata["Item"] != "" {
		t.Fatalf("the version before the overwrite: %+v %v, want it without the item", old.UserMetadata, err)
	}

	if n, err := svc.Discard(c, "anna", up.URL); err != nil || n != 2 {
		t.Fatalf("discard: %d %v", n, err)
	}
	if _, _, err := svc.Open(c, k); err == nil {
		t.Fatal("the discarded photo is still served")
	}
	versions := storetest.Versions(t, client, bucket, k)
	if len(versions) != 3 || !versions[0].IsDeleteMarker {
		t.Fatalf("versions after the delete: %+v, want a delete marker over two versions", versions)
	}
	for _, v := range versions[1:] {
		if b, err := fetchVersion(c, client, bucket, k, v.VersionID); err != nil || !bytes.Equal(b, original) {
			t.Fatalf("version %s after the delete: %d bytes, %v; want the photo", v.VersionID, len(b), err)
		}
	}

	// The restore: remove the delete marker, and the latest version is current again.
	if err := client.RemoveObject(c, bucket, k, minio.RemoveObjectOptions{VersionID: versions[0].VersionID}); err != nil {
		t.Fatal(err)
	}
	if b := content(t, svc, k); !bytes.Equal(b, original) {
		t.Fatal("the restored photo differs from the one uploaded")
	}
}

// Account deletion leaves nothing to recover: not the current photos, not the versions an
// earlier delete or overwrite left, not the delete markers or the quota ledger. Seen from the
// attacker's side, with the bucket's own credentials: no version id recorded before the
// deletion fetches anything, and no version of the user's keys is listed. Another user's
// photo, and its history, stay.
func TestEraseUserLeavesNoVersionOfTheUsersPhotos(t *testing.T) {
	svc, client, bucket := versioned(t)
	c := ctx(t)
	store(t, svc, itemA, "anna")          // on an item, current at the deletion
	attached := store(t, svc, "", "anna") // uploaded, then taken by an item: overwritten
	gone := store(t, svc, itemB, "anna")  // its item deleted before the account
	bobs := store(t, svc, "", "bob")      // someone else's
	// Bob's image, thumbnail and ledger entry all carry the image's random name.
	bobsName := path.Base(key(bobs.URL))[:32]
	if _, err := svc.Attach(c, "anna", attached.URL, itemA); err != nil {
		t.Fatal(err)
	}
	if n, err := svc.DeleteForItem(c, app.ItemDeleted{ItemID: itemB, ImageURL: gone.URL, UserID: "anna"}); err != nil || n != 2 {
		t.Fatalf("item deletion: %d %v", n, err)
	}
	if _, err := svc.Discard(c, "bob", bobs.URL); err != nil { // bob's history: a noncurrent version
		t.Fatal(err)
	}

	var annas []minio.ObjectInfo
	for _, v := range storetest.Versions(t, client, bucket, "") {
		if !strings.Contains(v.Key, bobsName) {
			annas = append(annas, v)
		}
	}
	// 3 images and 3 thumbnails, 2 of them overwritten and 2 deleted, and the ledger's entries.
	if len(annas) < 10 {
		t.Fatalf("only %d versions of anna's before the deletion: %+v", len(annas), annas)
	}
	if _, err := fetchVersion(c, client, bucket, key(gone.URL), noncurrent(annas, key(gone.URL))); err != nil {
		t.Fatalf("the deleted item's photo is not recoverable before the account deletion: %v", err)
	}

	n, err := svc.EraseUser(c, "anna")
	if err != nil || n == 0 {
		t.Fatalf("erase: %d %v", n, err)
	}
	for _, v := range annas {
		if v.IsDeleteMarker {
			continue
		}
		if b, err := fetchVersion(c, client, bucket, v.Key, v.VersionID); err == nil {
			t.Errorf("%s version %s still answers %d bytes after the account deletion", v.Key, v.VersionID, len(b))
		} else if code := minio.ToErrorResponse(err).Code; code != "NoSuchVersion" && code != "NoSuchKey" {
			t.Errorf("%s version %s: %v, want it gone", v.Key, v.VersionID, err)
		}
	}
	for _, v := range storetest.Versions(t, client, bucket, "") {
		if !strings.Contains(v.Key, bobsName) {
			t.Errorf("left after the deletion: %s version %s (delete marker %v)", v.Key, v.VersionID, v.IsDeleteMarker)
		}
	}
	if b, err := fetchVersion(c, client, bucket, key(bobs.URL), noncurrent(storetest.Versions(t, client, bucket, key(bobs.URL)), key(bobs.URL))); err != nil || len(b) == 0 {
		t.Fatalf("bob's discarded photo is no longer recoverable: %v", err)
	}
	if n, err := svc.EraseUser(c, "anna"); err != nil || n != 0 {
		t.Fatalf("erasing again: %d %v, want nothing left to remove", n, err)
	}
}

// noncurrent is the version id of key's newest version that holds bytes but is not current.
func noncurrent(versions []minio.ObjectInfo, key string) string {
	for _, v := range versions {
		if v.Key == key && !v.IsLatest && !v.IsDeleteMarker {
			return v.VersionID
		}
	}
	return "none"
}
