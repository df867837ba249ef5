//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// signedPhoto is the form of every photo address the API answers (SignedPhotoUrl).
var signedPhoto = regexp.MustCompile(`^/media/items/[a-z0-9-]+/[0-9a-f]{32}(_thumb\.jpg|\.jpg|\.png)\?exp=([0-9]+)&sig=[A-Za-z0-9_-]+$`)

// checkSignedPhoto fails unless u is a signed photo address living 1 to 2 hours from now.
func checkSignedPhoto(t *testing.T, where, u string) {
	t.Helper()
	m := signedPhoto.FindStringSubmatch(u)
	if m == nil {
		t.Fatalf("%s: imageUrl %q is not a signed photo address", where, u)
	}
	exp, _ := strconv.ParseInt(m[2], 10, 64)
	if left := time.Until(time.Unix(exp, 0)); left < 55*time.Minute || left > 2*time.Hour {
		t.Errorf("%s: %q expires in %v, want 1 to 2 hours", where, u, left)
	}
}

// From the attacker's side: a child's photo is seen through the addresses the API
// hands to its owner and to holders of a valid share link, without any authorization header;
// the bare URL, a forged or borrowed signature, a moved expiry are all 404 like a missing
// photo; and once the link is revoked the shared view issues no more addresses.
func TestPhotosAreSeenOnlyThroughSignedExpiringAddresses(t *testing.T) {
	owner := newNamedUser(t, "photokid", "Kid")
	stranger := &client{t: t, base: baseURL(t)} // no token: anyone with a link
	var lists []struct{ ID string }
	owner.must(200, "GET", "/api/lists", nil, &lists)
	var bear, kite item
	owner.must(201, "POST", "/api/wishlist", map[string]any{"name": "Teddy Bear", "description": "A soft bear, photographed by the kid",
		"category": "Toys", "imageUrl": photoDataURL(t)}, &bear)
	owner.must(201, "POST", "/api/wishlist", map[string]any{"name": "Red Kite", "description": "A kite, photographed in the garden",
		"category": "Toys", "imageUrl": photoDataURL(t)}, &kite)
	checkSignedPhoto(t, "the add answer", *bear.ImageURL)

	// The owner's list: signed, and the same bytes (ETag, 304) when read again within the hour.
	var mine []item
	owner.must(200, "GET", "/api/wishlist", nil, &mine)
	for _, it := range mine {
		checkSignedPhoto(t, "the owner's list", *it.ImageURL)
	}
	_, _, h := owner.do("GET", "/api/wishlist", nil)
	if code, _, _ := owner.do("GET", "/api/wishlist", nil, "If-None-Match", h.Get("ETag")); code != http.StatusNotModified {
		t.Errorf("the list with photos read again with its ETag: %d, want 304", code)
	}

	// Shared: a visitor's view carries signed addresses that open without any header.
	var share struct{ Token string }
	owner.must(200, "POST", "/api/lists/"+lists[0].ID+"/share", nil, &share)
	var view struct {
		Items []item `json:"items"`
	}
	stranger.must(200, "GET", "/api/shared/"+share.Token, nil, &view)
	if len(view.Items) != 2 {
		t.Fatalf("shared view: %+v", view)
	}
	var photo string
	for _, it := range view.Items {
		checkSignedPhoto(t, "the shared view", *it.ImageURL)
		if it.ID == bear.ID {
			photo = *it.ImageURL
		}
	}
	code, body, header := stranger.do("GET", photo, nil)
	if code != http.StatusOK || !strings.HasPrefix(string(body), "\xff\xd8") {
		t.Fatalf("the shared photo without a header: %d, %d bytes", code, len(body))
	}
	var maxAge int
	if _, err := fmt.Sscanf(header.Get("Cache-Control"), "private, max-age=%d", &maxAge); err != nil || maxAge <= 0 || maxAge > 7200 {
		t.Errorf("Cache-Control %q: want private, for no longer than the address lives", header.Get("Cache-Control"))
	}

	// The attacker's addresses.
	u, _ := url.Parse(photo)
	q := u.Query()
	exp, sig := q.Get("exp"), q.Get("sig")
	tampered := []byte(sig)
	tampered[len(tampered)/2] ^= 1
	kiteQuery := strings.SplitN(*kite.ImageURL, "?", 2)[1]
	later, _ := strconv.ParseInt(exp, 10, 64)
	for name, path := range map[string]string{
		"unsigned":                  u.Path,
		"tampered signature":        u.Path + "?exp=" + exp + "&sig=" + string(tampered),
		"another photo's signature": u.Path + "?" + kiteQuery,
		"expiry moved later":        u.Path + "?exp=" + strconv.FormatInt(later+3600, 10) + "&sig=" + sig,
		"expired":                   u.Path + "?exp=" + strconv.FormatInt(time.Now().Add(-time.Minute).Unix(), 10) + "&sig=" + sig,
		"its thumbnail":             strings.Replace(u.Path, ".jpg", "_thumb.jpg", 1) + "?exp=" + exp + "&sig=" + sig,
	} {
		code, body, _ := stranger.do("GET", path, nil)
		if code != http.StatusNotFound || strings.HasPrefix(string(body), "\xff\xd8") {
			t.Errorf("%s (%s): %d, want 404", name, path, code)
		}
		// The owner's own token changes nothing: the signature is the permission.
		if code, _, _ := owner.do("GET", path, nil); code != http.StatusNotFound {
			t.Errorf("%s as the owner: %d, want 404", name, code)
		}
	}

	// Revoked: the shared view is gone, so no new address is issued through it. An address
	// already issued works until its expiry (at most 2 hours): the honest limit of links.
	owner.must(204, "DELETE", "/api/lists/"+lists[0].ID+"/share", nil, nil)
	if code, _, _ := stranger.do("GET", "/api/shared/"+share.Token, nil); code != http.StatusNotFound {
		t.Fatalf("revoked shared view: %d, want 404", code)
	}
	if code, _, _ := stranger.do("GET", photo, nil); code != http.StatusOK {
		t.Errorf("an address issued before the revocation: %d (it lives until its expiry)", code)
	}
}

// The wishlist signs every photo address it answers, so an item must not be able to name a
// photo its owner never uploaded: someone who once saw an address (a shared list before it was
// revoked) would otherwise keep getting fresh, working addresses of it through their own item.
func TestAnotherPersonsPhotoCannotBeTakenIntoMyItem(t *testing.T) {
	owner := newNamedUser(t, "photoowner", "Owner")
	attacker := newNamedUser(t, "photothief", "Thief")
	var bear item
	owner.must(201, "POST", "/api/wishlist", map[string]any{"name": "Teddy Bear", "description": "A soft bear, photographed by the kid",
		"category": "Toys", "imageUrl": photoDataURL(t)}, &bear)
	var upload struct {
		URL string `json:"url"`
	}
	owner.must(201, "POST", "/api/media", map[string]any{"dataUrl": photoDataURL(t)}, &upload)
	if !strings.HasPrefix(upload.URL, "/media/items/unattached/") {
		t.Fatalf("upload answer %q", upload.URL)
	}
	plain := func(u string) string { return strings.SplitN(u, "?", 2)[0] }

	var mine item
	attacker.must(201, "POST", "/api/wishlist", map[string]any{"name": "My own kite", "description": "A kite of my own, no photo",
		"category": "Toys"}, &mine)
	for name, stolen := range map[string]string{
		"the owner's item photo, signed": *bear.ImageURL,
		"the owner's item photo, plain":  plain(*bear.ImageURL),
		"the owner's unattached upload":  upload.URL,
		"the owner's upload, plain":      plain(upload.URL),
	} {
		gift := map[string]any{"name": "Stolen bear", "description": "Trying to take a photo that is not mine", "category": "Toys", "imageUrl": stolen}
		if code, body := attacker.json("POST", "/api/wishlist", gift); code != http.StatusUnprocessableEntity || !strings.Contains(string(body), "imageUrl") {
			t.Errorf("add with %s: %d %s, want 422 on imageUrl", name, code, body)
		}
		if code, body := attacker.json("PATCH", "/api/wishlist/"+mine.ID, map[string]any{"imageUrl": stolen}); code != http.StatusUnprocessableEntity {
			t.Errorf("edit with %s: %d %s, want 422", name, code, body)
		}
	}
	for _, it := range attacker.list() {
		if it.ImageURL != nil {
			t.Errorf("the attacker's item %q took a photo: %s", it.Name, *it.ImageURL)
		}
	}
	// The owner's own upload is theirs to use.
	var kite item
	owner.must(201, "POST", "/api/wishlist", map[string]any{"name": "Red Kite", "description": "A kite, photographed in the garden",
		"category": "Toys", "imageUrl": upload.URL}, &kite)
	checkSignedPhoto(t, "the owner's item with their upload", *kite.ImageURL)
}
