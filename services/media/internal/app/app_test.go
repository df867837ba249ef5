package app_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/santa-wishlist/santa/fakes/testimages"
	"github.com/santa-wishlist/santa/services/media/internal/app"
	"github.com/santa-wishlist/santa/services/media/internal/domain"
	"github.com/santa-wishlist/santa/services/media/internal/storetest"
)

const (
	itemA = "0b7c3a8e-5d1f-4f6a-9c2b-7e8d9f0a1b2c"
	itemB = "6f1d2e3c-4b5a-4978-8877-665544332211"
)

func newService(t *testing.T) (*app.Service, domain.ObjectStore, app.Metrics) {
	t.Helper()
	store, _ := storetest.New(t)
	metrics := app.NewMetrics(prometheus.NewRegistry())
	svc := app.New(store, domain.Rules{MaxBytes: 8 << 20}, metrics, slog.New(slog.DiscardHandler), app.Limits{})
	return svc, store, metrics
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return c
}

func store(t *testing.T, svc *app.Service, itemID, owner string) app.Stored {
	t.Helper()
	out, err := svc.Store(ctx(t), app.Upload{Data: testimages.PhotoJPEG(400, 300, 1), ItemID: itemID, Owner: owner})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func key(url string) string { return strings.TrimPrefix(url, domain.URLPrefix) }

func exists(t *testing.T, s domain.ObjectStore, url string) bool {
	t.Helper()
	_, err := s.Stat(ctx(t), key(url))
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		t.Fatal(err)
	}
	return err == nil
}

func TestStoreWritesImageAndThumbnailWithOwner(t *testing.T) {
	svc, s, metrics := newService(t)
	out := store(t, svc, strings.ToUpper(itemA), "user-1")
	if !strings.HasPrefix(out.URL, "/media/items/"+itemA+"/") || !strings.HasSuffix(out.ThumbnailURL, "_thumb.jpg") {
		t.Fatalf("urls %q %q", out.URL, out.ThumbnailURL)
	}
	if out.Width != 400 || out.Height != 300 || out.ContentType != "image/jpeg" || out.Bytes == 0 {
		t.Fatalf("stored %+v", out)
	}
	r, info, err := svc.Open(ctx(t), key(out.URL))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(r)
	_ = r.Close()
	if len(body) != out.Bytes || info.Owner != "user-1" || info.ContentType != "image/jpeg" {
		t.Fatalf("object %d bytes, %+v", len(body), info)
	}
	thumb, err := s.Stat(ctx(t), key(out.ThumbnailURL))
	if err != nil {
		t.Fatal(err)
	}
	if got := testutil.ToFloat64(metrics.BytesStored); got != float64(out.Bytes)+float64(thumb.Size) {
		t.Fatalf("media_bytes_stored_total = %v, want %d", got, int64(out.Bytes)+thumb.Size)
	}
}

func TestStoreRefusesWithoutValidOwnerOrItem(t *testing.T) {
	svc, _, _ := newService(t)
	data := testimages.PhotoJPEG(10, 10, 1)
	if _, err := svc.Store(ctx(t), app.Upload{Data: data, Owner: " "}); !errors.Is(err, app.ErrNoOwner) {
		t.Fatalf("no owner: %v", err)
	}
	if _, err := svc.Store(ctx(t), app.Upload{Data: data, Owner: "bad\nuser"}); !errors.Is(err, app.ErrNoOwner) {
		t.Fatalf("owner with a newline: %v", err)
	}
	if _, err := svc.Store(ctx(t), app.Upload{Data: data, Owner: "u", ItemID: "../other"}); !errors.Is(err, domain.ErrInvalidItemID) {
		t.Fatalf("bad item: %v", err)
	}
}

func TestOpenRefusesKeysThisServiceDoesNotWrite(t *testing.T) {
	svc, s, _ := newService(t)
	// Even an object that exists is unreachable unless its key has our shape.
	if err := s.Put(ctx(t), "items/unattached/listing.json", []byte("{}"), "application/json", "u"); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"items/unattached/listing.json", "", "items/", "items/unattached/"} {
		if _, _, err := svc.Open(ctx(t), k); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("Open(%q) err = %v", k, err)
		}
	}
}

func TestDeleteForItemRemovesItsFolderAndItsUnattachedImageOnce(t *testing.T) {
	svc, s, metrics := newService(t)
	inFolder := store(t, svc, itemA, "user-1")
	secondInFolder := store(t, svc, itemA, "user-1")
	unattached := store(t, svc, "", "user-1")
	otherItem := store(t, svc, itemB, "user-1")

	ev := app.ItemDeleted{ItemID: itemA, ImageURL: unattached.URL, UserID: "user-1"}
	n, err := svc.DeleteForItem(ctx(t), ev)
	if err != nil {
		t.Fatal(err)
	}
	if n != 6 {
		t.Fatalf("deleted %d objects, want 6 (two images, one unattached, their thumbnails)", n)
	}
	for _, gone := range []app.Stored{inFolder, secondInFolder, unattached} {
		if exists(t, s, gone.URL) || exists(t, s, gone.ThumbnailURL) {
			t.Errorf("%s or its thumbnail survived", gone.URL)
		}
	}
	if !exists(t, s, otherItem.URL) || !exists(t, s, otherItem.ThumbnailURL) {
		t.Error("another item's image was deleted")
	}

	// A redelivered event changes nothing.
	n, err = svc.DeleteForItem(ctx(t), ev)
	if err != nil || n != 0 {
		t.Fatalf("second delete: %d, %v", n, err)
	}
	if got := testutil.ToFloat64(metrics.ObjectsDeleted); got != 6 {
		t.Fatalf("media_objects_deleted_total = %v, want 6", got)
	}
}

func TestDeleteForItemLeavesImagesItDoesNotOwn(t *testing.T) {
	svc, s, _ := newService(t)
	someoneElses := store(t, svc, "", "user-2")
	anotherItems := store(t, svc, itemB, "user-1")

	// An item whose imageUrl points at another user's upload, or at another item's image
	// (a reused URL), must not take those images with it.
	for _, url := range []string{someoneElses.URL, anotherItems.URL, someoneElses.ThumbnailURL} {
		n, err := svc.DeleteForItem(ctx(t), app.ItemDeleted{ItemID: itemA, ImageURL: url, UserID: "user-1"})
		if err != nil || n != 0 {
			t.Fatalf("imageUrl %s: deleted %d, %v", url, n, err)
		}
	}
	for _, kept := range []string{someoneElses.URL, someoneElses.ThumbnailURL, anotherItems.URL, anotherItems.ThumbnailURL} {
		if !exists(t, s, kept) {
			t.Errorf("%s was deleted", kept)
		}
	}
}

func TestDeleteForItemFromThumbnailURLAndExternalURLs(t *testing.T) {
	svc, s, _ := newService(t)
	up := store(t, svc, "", "user-1")
	n, err := svc.DeleteForItem(ctx(t), app.ItemDeleted{ItemID: itemA, ImageURL: up.ThumbnailURL, UserID: "user-1"})
	if err != nil || n != 2 || exists(t, s, up.URL) {
		t.Fatalf("via thumbnail URL: deleted %d, %v", n, err)
	}
	for _, url := range []string{"", "https://example.com/toy.jpg", "data:image/png;base64,AAAA"} {
		if n, err := svc.DeleteForItem(ctx(t), app.ItemDeleted{ItemID: itemA, ImageURL: url, UserID: "user-1"}); err != nil || n != 0 {
			t.Errorf("imageUrl %q: %d, %v", url, n, err)
		}
	}
	if _, err := svc.DeleteForItem(ctx(t), app.ItemDeleted{ItemID: "not-a-uuid", UserID: "user-1"}); !errors.Is(err, domain.ErrInvalidItemID) {
		t.Errorf("bad item id: %v", err)
	}
}

// An item may take only its owner's upload: another user's attach is told the upload does not
// exist, and the upload stays unattached (its owner's).
func TestAttachRefusesAnotherUsersUpload(t *testing.T) {
	svc, s, _ := newService(t)
	upload := store(t, svc, "", "owner-1")
	if _, err := svc.Attach(ctx(t), "thief-1", upload.URL, itemA); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("attach by another user: %v, want domain.ErrNotFound", err)
	}
	info, err := s.Stat(ctx(t), key(upload.URL))
	if err != nil || info.Owner != "owner-1" || info.Item != "" {
		t.Fatalf("after the refused attach: %+v %v", info, err)
	}
	if n, err := svc.Attach(ctx(t), "owner-1", upload.URL, itemA); err != nil || n != 2 {
		t.Fatalf("attach by its owner: %d %v, want its image and thumbnail", n, err)
	}
}
