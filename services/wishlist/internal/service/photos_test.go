package service_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/mediaurl"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

// A photo the owner stored: what the items table keeps.
const storedPhoto = "/media/items/unattached/0123456789abcdef0123456789abcdef.jpg"

// checkSigned fails unless u is storedPhoto at an address media would serve now.
func checkSigned(t *testing.T, where string, u any) string {
	t.Helper()
	s, _ := u.(string)
	parsed, err := url.Parse(s)
	if err != nil || parsed.Path != storedPhoto {
		t.Fatalf("%s: imageUrl %q, want %s signed", where, s, storedPhoto)
	}
	q := parsed.Query()
	left, ok := testenv.MediaURLSigner().Verify(strings.TrimPrefix(parsed.Path, mediaurl.Prefix), q.Get("exp"), q.Get("sig"), time.Now())
	if !ok || left < 55*time.Minute || left > 2*time.Hour {
		t.Fatalf("%s: %q does not verify for 1 to 2 hours (ok %v, %v left)", where, s, ok, left)
	}
	return s
}

// Every imageUrl the wishlist answers is signed at read time; what is stored, and
// what a client sends back, is the plain /media/ address.
func TestPhotoAddressesAreSignedOnEveryAnswer(t *testing.T) {
	pool, dbURL := testenv.Postgres(t)
	w := start(t, dbURL, testenv.StartNATS(t).URL())
	def := w.defaultList("emma")

	var added map[string]any
	w.must(201, "POST", "/api/wishlist", "emma", gift("Red bike", map[string]any{"imageUrl": storedPhoto, "listId": def.ID}), &added)
	signed := checkSigned(t, "the add answer", added["imageUrl"])
	id := added["id"].(string)

	// The client sends the address back as it got it (an edit of another field): stored plain.
	var edited map[string]any
	w.must(200, "PATCH", "/api/wishlist/"+id, "emma", map[string]any{"imageUrl": signed, "priority": 3}, &edited)
	checkSigned(t, "the edit answer", edited["imageUrl"])
	var stored string
	if err := pool.QueryRow(context.Background(), "SELECT image_url FROM items WHERE id = $1", id).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored != storedPhoto {
		t.Fatalf("stored imageUrl %q, want the plain %s", stored, storedPhoto)
	}

	var list, recent []map[string]any
	w.must(200, "GET", "/api/wishlist", "emma", nil, &list)
	w.must(200, "GET", "/api/wishlist/recent", "emma", nil, &recent)
	checkSigned(t, "the owner's list", list[0]["imageUrl"])
	checkSigned(t, "recent items", recent[0]["imageUrl"])

	// Read twice within the hour: the same bytes, so the same ETag and a 304.
	first := w.raw("GET", "/api/wishlist", "emma", "")
	again := w.raw("GET", "/api/wishlist", "emma", first.Header.Get("ETag"))
	if first.Header.Get("ETag") == "" || again.Status != http.StatusNotModified {
		t.Fatalf("list read again with its ETag %q: %d, want 304", first.Header.Get("ETag"), again.Status)
	}

	token := w.share("emma", def.ID)
	var anon, member sharedView
	w.must(200, "GET", "/api/shared/"+token, "", nil, &anon)
	w.must(200, "GET", "/api/shared/"+token, "aunt", nil, &member)
	checkSigned(t, "the visitor's shared view", anon.Items[0]["imageUrl"])
	checkSigned(t, "the member's shared view", member.Items[0]["imageUrl"])

	var claims []struct {
		Item map[string]any `json:"item"`
	}
	w.must(200, "PUT", "/api/shared/"+token+"/items/"+id+"/claim", "aunt", map[string]any{"quantity": 1}, nil)
	w.must(200, "GET", "/api/claims", "aunt", nil, &claims)
	checkSigned(t, "the claimer's list", claims[0].Item["imageUrl"])

	// Revoked: the shared view is gone, so no new address is issued through it; the claimer
	// keeps the claim but gets no address of the photo either. (Addresses already issued
	// live until their expiry: at most 2 hours.)
	w.must(204, "DELETE", "/api/lists/"+def.ID+"/share", "emma", nil, nil)
	w.refused(404, "share_not_found", "GET", "/api/shared/"+token, "", nil)
	w.refused(404, "share_not_found", "GET", "/api/shared/"+token, "aunt", nil)
	w.must(200, "GET", "/api/claims", "aunt", nil, &claims)
	if len(claims) != 1 || claims[0].Item["imageUrl"] != nil {
		t.Fatalf("after revoking, the claimer's list: %+v", claims)
	}
}

// An external picture (a shop's link) is answered as it was given: only our photos are signed.
func TestExternalImageAddressesAreLeftAlone(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	w := start(t, dbURL, testenv.StartNATS(t).URL())
	const shop = "https://shop.example/bike.jpg?size=large"
	var added map[string]any
	w.must(201, "POST", "/api/wishlist", "emma", gift("Blue bike", map[string]any{"imageUrl": shop}), &added)
	var list []map[string]any
	w.must(200, "GET", "/api/wishlist", "emma", nil, &list)
	if added["imageUrl"] != shop || list[0]["imageUrl"] != shop {
		t.Fatalf("an external address changed: %v, %v", added["imageUrl"], list[0]["imageUrl"])
	}
}

type rawAnswer struct {
	Status int
	Header http.Header
}

// raw sends a GET as uid with an optional If-None-Match.
func (w *wishlist) raw(method, path, uid, ifNoneMatch string) rawAnswer {
	w.t.Helper()
	req, _ := http.NewRequest(method, w.base+path, nil)
	testenv.SignRequest(w.t, req, "wishlist", auth.User{UID: uid})
	if ifNoneMatch != "" {
		req.Header.Set("If-None-Match", ifNoneMatch)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	resp.Body.Close()
	return rawAnswer{resp.StatusCode, resp.Header}
}

// An item names only its own photo folder or an upload (which media then confirms is the
// caller's): another item's photo address is refused, so nobody gets it signed for them.
func TestAnotherItemsPhotoAddressIsRefused(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	w := start(t, dbURL, testenv.StartNATS(t).URL())
	def := w.defaultList("emma")
	var kids map[string]any
	w.must(201, "POST", "/api/wishlist", "emma", gift("Kite", map[string]any{"listId": def.ID}), &kids)
	foreign := "/media/items/5f0c1a52-3c1e-4a9b-9d2f-1b2c3d4e5f60/0123456789abcdef0123456789abcdef.jpg"
	for _, u := range []string{foreign, foreign + "?exp=1&sig=abc", "/media/elsewhere/0123456789abcdef0123456789abcdef.jpg"} {
		for _, body := range [][]byte{
			w.must(422, "POST", "/api/wishlist", "mallory", gift("Stolen", map[string]any{"imageUrl": u}), nil),
			w.must(422, "PATCH", "/api/wishlist/"+kids["id"].(string), "emma", map[string]any{"imageUrl": u}, nil),
		} {
			if !strings.Contains(string(body), `"imageUrl"`) {
				t.Errorf("%s: %s, want the imageUrl field named", u, body)
			}
		}
	}
}
