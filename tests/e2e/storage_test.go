//go:build e2e

package e2e

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"path"
	"strings"
	"testing"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// stackMinIO is a plain client of the stack's MinIO and the stack's bucket: the test looks
// behind media's back, as someone holding the bucket's credentials could.
func stackMinIO(t *testing.T) (*minio.Client, string) {
	t.Helper()
	endpoint := envOr("TEST_MINIO_ENDPOINT", "127.0.0.1:9000")
	mc, err := minio.New(endpoint, &minio.Options{Creds: credentials.NewStaticV4(
		envOr("TEST_MINIO_ACCESS_KEY", "santa"), envOr("TEST_MINIO_SECRET_KEY", "santa-secret-key"), "")})
	if err != nil {
		t.Fatal(err)
	}
	// The test stack's bucket is named after its namespace; a cluster names its own.
	return mc, envOr("TEST_MINIO_BUCKET", "santa-"+envOr("EVENTS_NAMESPACE", "test"))
}

// photoVersions lists every version (delete markers included) of a photo and its thumbnail,
// given its address as media answers it (/media/<key>?exp=&sig=).
func photoVersions(t *testing.T, address string) []minio.ObjectInfo {
	t.Helper()
	mc, bucket := stackMinIO(t)
	key := strings.TrimPrefix(strings.SplitN(address, "?", 2)[0], "/media/")
	key = strings.TrimSuffix(key, path.Ext(key)) // the image and its _thumb
	var out []minio.ObjectInfo
	for obj := range mc.ListObjects(context.Background(), bucket, minio.ListObjectsOptions{Prefix: key, Recursive: true, WithVersions: true}) {
		if obj.Err != nil {
			t.Fatalf("MinIO: %v", obj.Err)
		}
		out = append(out, obj)
	}
	return out
}

// fetchVersion reads one version of an object straight from MinIO, by its version id.
func fetchVersion(t *testing.T, key, versionID string) ([]byte, error) {
	mc, bucket := stackMinIO(t)
	obj, err := mc.GetObject(context.Background(), bucket, key, minio.GetObjectOptions{VersionID: versionID})
	if err != nil {
		return nil, err
	}
	defer obj.Close()
	return io.ReadAll(obj)
}

// storedImages counts what media keeps for a user: its storage ledger in the stack's bucket
// (owners/<hash of the uid>/, one entry per image with its thumbnail).
func storedImages(t *testing.T, uid string) int {
	t.Helper()
	mc, bucket := stackMinIO(t)
	h := sha256.Sum256([]byte(uid))
	n := 0
	for obj := range mc.ListObjects(context.Background(), bucket,
		minio.ListObjectsOptions{Prefix: "owners/" + hex.EncodeToString(h[:16]) + "/", Recursive: true}) {
		if obj.Err != nil {
			t.Fatalf("MinIO: %v", obj.Err)
		}
		n++
	}
	return n
}

// Send to Santa with a photo, for a gift already on the list (matched by its name): the
// existing item is marked sent and the photo stored for the new one is not left behind
// (before, it stayed in storage, attached to no item).
func TestSendToSantaMatchingAnExistingItemKeepsNoOrphanPhoto(t *testing.T) {
	c, session := newUser(t, "orphan")
	code, body := c.json("POST", "/api/wishlist", map[string]any{
		"name": "Wooden Sled", "description": "A sled for the snowy hill", "category": "Toys", "imageUrl": photoDataURL(t),
	})
	if code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, body)
	}
	var first item
	_ = json.Unmarshal(body, &first)
	if n := storedImages(t, session.UID); n != 1 {
		t.Fatalf("%d images stored for one photo item", n)
	}
	code, body = c.json("POST", "/api/santa", map[string]any{
		"name": "wooden sled", "description": "A gift item from your wishlist", "imageUrl": photoDataURL(t),
	})
	var sent item
	_ = json.Unmarshal(body, &sent)
	if code != http.StatusOK || sent.ID != first.ID || !sent.SentToSanta {
		t.Fatalf("santa for an existing gift: %d %s", code, body)
	}
	if n := storedImages(t, session.UID); n != 1 {
		t.Fatalf("%d images stored after Send to Santa matched the existing item, want 1 (no orphan)", n)
	}
	if sent.ImageURL == nil || !strings.HasPrefix(*sent.ImageURL, "/media/items/"+first.ID+"/") {
		t.Fatalf("the existing item's photo changed: %v", sent.ImageURL)
	}
}
