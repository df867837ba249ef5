//go:build e2e

package e2e

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// storedImages counts what media keeps for a user: its storage ledger in the stack's bucket
// (owners/<hash of the uid>/, one entry per image with its thumbnail).
func storedImages(t *testing.T, uid string) int {
	t.Helper()
	endpoint := os.Getenv("TEST_MINIO_ENDPOINT")
	if endpoint == "" {
		endpoint = "127.0.0.1:9000"
	}
	mc, err := minio.New(endpoint, &minio.Options{Creds: credentials.NewStaticV4(
		envOr("TEST_MINIO_ACCESS_KEY", "santa"), envOr("TEST_MINIO_SECRET_KEY", "santa-secret-key"), "")})
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256([]byte(uid))
	n := 0
	// The test stack's bucket is named after its namespace; a cluster names its own.
	bucket := envOr("TEST_MINIO_BUCKET", "santa-"+envOr("EVENTS_NAMESPACE", "test"))
	for obj := range mc.ListObjects(context.Background(), bucket,
		minio.ListObjectsOptions{Prefix: "owners/" + hex.EncodeToString(h[:16]) + "/", Recursive: true}) {
		if obj.Err != nil {
			t.Fatalf("MinIO at %s: %v", endpoint, obj.Err)
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
