//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

// A scanned product's picture is stored through media as the caller's upload, never
// hot-linked: the client names the code, vision fetches the picture the database gave
// (from the fake here, which serves its own pictures) and answers our /media/ URL.
func TestAScannedProductsPictureIsStoredByMedia(t *testing.T) {
	const lego, noImage = "5702016370737", "01234565"
	// A cached answer from an older fake (other image host) would point elsewhere.
	testenv.Redis(t).Del(context.Background(), "vision:cache:barcode:"+lego)
	user, _ := newUser(t, "scanimg")
	images := func() int { return len(fakeRequests(t)["images"]) }
	before := images()

	code, body, _ := user.do("POST", "/api/lookup/barcode/image", []byte(`{"code":"`+lego+`"}`))
	var got struct {
		ImageURL string `json:"imageUrl"`
	}
	_ = json.Unmarshal(body, &got)
	if code != http.StatusCreated || !strings.HasPrefix(got.ImageURL, "/media/") {
		t.Fatalf("storing the product picture: %d %s", code, body)
	}
	if images() != before+1 {
		t.Fatalf("the picture was fetched %d times", images()-before)
	}
	resp, err := http.Get(baseURL(t) + got.ImageURL)
	if err != nil || resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "image/") {
		t.Fatalf("the stored picture is not served: %v %v", err, resp)
	}
	resp.Body.Close()

	// The same user scanning again gets the same copy: nothing fetched, nothing stored twice.
	code, body, _ = user.do("POST", "/api/lookup/barcode/image", []byte(`{"code":"`+lego+`"}`))
	var again struct {
		ImageURL string `json:"imageUrl"`
	}
	_ = json.Unmarshal(body, &again)
	if code != http.StatusCreated || again.ImageURL != got.ImageURL || images() != before+1 {
		t.Fatalf("second store: %d %s (fetched %d)", code, body, images()-before)
	}

	// Saved with the item: its picture is ours.
	code, body = user.json("POST", "/api/wishlist", map[string]any{"name": "LEGO City Fire Station",
		"description": "Building set with a fire engine and three minifigures", "category": "Toys", "imageUrl": got.ImageURL})
	var saved item
	_ = json.Unmarshal(body, &saved)
	if code != http.StatusCreated || saved.ImageURL == nil || *saved.ImageURL != got.ImageURL {
		t.Fatalf("saving the scanned product: %d %s", code, body)
	}

	// Another user gets a copy of their own.
	other, _ := newUser(t, "scanimg-other")
	code, body, _ = other.do("POST", "/api/lookup/barcode/image", []byte(`{"code":"`+lego+`"}`))
	if code != http.StatusCreated || strings.Contains(string(body), got.ImageURL) {
		t.Fatalf("another user's store: %d %s", code, body)
	}

	visitor := &client{t: t, base: baseURL(t)}
	if code, body, _ := visitor.do("POST", "/api/lookup/barcode/image", []byte(`{"code":"`+lego+`"}`)); code != http.StatusUnauthorized {
		t.Fatalf("a visitor stored a picture: %d %s", code, body)
	}
	if code, body, _ := user.do("POST", "/api/lookup/barcode/image", []byte(`{"code":"`+noImage+`"}`)); code != http.StatusNotFound || apiErrorCode(body) != "no_product_image" {
		t.Fatalf("a product without a picture: %d %s", code, body)
	}
	if code, body, _ := user.do("POST", "/api/lookup/barcode/image", []byte(`{"code":"4006381333931"}`)); code != http.StatusNotFound || apiErrorCode(body) != "product_not_found" {
		t.Fatalf("an unknown product: %d %s", code, body)
	}
	if code, body, _ := user.do("POST", "/api/lookup/barcode/image", []byte(`{"code":"5702016370738"}`)); code != http.StatusBadRequest || apiErrorCode(body) != "invalid_check_digit" {
		t.Fatalf("a misread code: %d %s", code, body)
	}
}

// The shop link an item was imported from is its shopping URL; a bad one is a 422 in words.
func TestAnItemKeepsTheShopLinkItWasImportedFrom(t *testing.T) {
	user, _ := newUser(t, "shoplink")
	const shop = "https://shop.example/toys/wooden-railway?ref=santa"
	code, body := user.json("POST", "/api/wishlist", map[string]any{"name": "Wooden railway",
		"description": "A beech-wood railway with a tunnel.", "category": "Toys", "shoppingUrl": shop})
	var it item
	_ = json.Unmarshal(body, &it)
	if code != http.StatusCreated || it.ShoppingURL != shop {
		t.Fatalf("saving with a shop link: %d %s", code, body)
	}
	// An edit of the name keeps the link; clearing it goes back to a shop search.
	code, body = user.json("PATCH", "/api/wishlist/"+it.ID, map[string]any{"name": "Wooden railway set"})
	_ = json.Unmarshal(body, &it)
	if code != http.StatusOK || it.ShoppingURL != shop {
		t.Fatalf("edit: %d %s", code, body)
	}
	code, body = user.json("PATCH", "/api/wishlist/"+it.ID, map[string]any{"shoppingUrl": ""})
	_ = json.Unmarshal(body, &it)
	if code != http.StatusOK || !strings.HasPrefix(it.ShoppingURL, "https://www.google.com/search?tbm=shop&q=") {
		t.Fatalf("clearing the link: %d %s", code, body)
	}

	for _, bad := range []string{"javascript:alert(1)", "ftp://shop.example/x", "shop.example/x", "https://" + strings.Repeat("a", 2100) + ".example/"} {
		code, body = user.json("POST", "/api/wishlist", map[string]any{"name": "Wooden railway",
			"description": "A beech-wood railway with a tunnel.", "category": "Toys", "shoppingUrl": bad})
		var e struct {
			Error struct{ Fields map[string]string }
		}
		_ = json.Unmarshal(body, &e)
		if code != http.StatusUnprocessableEntity || !strings.Contains(e.Error.Fields["shoppingUrl"], "http://") {
			t.Errorf("%.40s: %d %s", bad, code, body)
		}
	}
	code, body = user.json("PATCH", "/api/wishlist/"+it.ID, map[string]any{"shoppingUrl": "data:text/html,hi"})
	if code != http.StatusUnprocessableEntity {
		t.Errorf("a bad link on edit: %d %s", code, body)
	}
}
