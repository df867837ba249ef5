package service_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/vision/internal/adapters"
	"github.com/santa-wishlist/santa/services/vision/internal/domain"
	"github.com/santa-wishlist/santa/services/vision/internal/service"
)

func TestLinkImportAnswersOverHTTP(t *testing.T) {
	shop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/toy":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<meta property="og:title" content="Toy Robot"><meta property="og:image" content="/robot.png">
<meta property="product:price:amount" content="19.5"><meta property="product:price:currency" content="USD">`))
		case "/empty":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<html><body></body></html>`))
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"name":"x"}`))
		case "/slow":
			time.Sleep(time.Second)
		default:
			http.Error(w, "gone", http.StatusInternalServerError)
		}
	}))
	t.Cleanup(shop.Close)
	addr := netip.MustParseAddrPort(shop.Listener.Addr().String())
	h := start(t, func(c *service.Config) {
		c.Lookup.Fetch = adapters.FetchDefaults()
		c.Lookup.Fetch.Timeout = 300 * time.Millisecond
		c.Lookup.Fetch.TestAllow = []netip.AddrPort{addr}
		c.Lookup.MediaURL = "" // no media here: the picture is reported missing, the item still comes
	})
	user := map[string]string{"X-User-Id": "link-tester", "X-Real-IP": "203.0.113.50"}
	base := "http://" + addr.String()

	r := h.postJSON("/api/lookup/url", map[string]string{"url": base + "/toy"}, user)
	var it domain.LinkItem
	r.json(t, &it)
	if r.status != 200 || it.Name != "Toy Robot" || it.Price != "$19.50" || it.Category != "Toys" ||
		it.ShoppingURL != base+"/toy" || it.ImageURL != "" || it.ImageError == "" || it.Source != domain.FromOpenGraph {
		t.Fatalf("import: %d %s", r.status, r.body)
	}
	if r := h.postJSON("/api/lookup/url", map[string]string{"url": base + "/toy"}, nil); r.status != 401 {
		t.Fatalf("a visitor: %d", r.status)
	}
	_, port, _ := net.SplitHostPort(addr.String())
	cases := []struct {
		url    string
		status int
		code   string
	}{
		{"http://127.0.0.2:" + port + "/toy", 400, "url_not_allowed"},
		{"http://169.254.169.254/", 400, "url_not_allowed"},
		{"ftp://example.com/", 400, "url_scheme_not_allowed"},
		{"not a link", 400, "invalid_url"},
		{base + "/empty", 422, "no_product_on_page"},
		{base + "/json", 422, "not_a_page"},
		{base + "/gone", 502, "page_unavailable"},
		{base + "/slow", 504, "page_unavailable"},
	}
	for _, c := range cases {
		r := h.postJSON("/api/lookup/url", map[string]string{"url": c.url}, user)
		if e := r.apiError(t); r.status != c.status || e.Code != c.code || e.Message == "" {
			t.Errorf("%s: %d %s, want %d %s", c.url, r.status, r.body, c.status, c.code)
		}
	}
}

// The imported picture's address is answered signed by vision itself, whatever
// media answered (it is cached plain and may be answered again after media's signature ran
// out), so the browser can load it from media.
func TestAnImportedPictureIsAnsweredAtASignedAddress(t *testing.T) {
	const stored = "/media/items/unattached/0123456789abcdef0123456789abcdef.png"
	shop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/toy":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<meta property="og:title" content="Toy Robot"><meta property="og:image" content="/robot.png">`))
		case "/robot.png":
			w.Header().Set("Content-Type", "image/png")
			_, _ = w.Write([]byte("\x89PNG\r\n\x1a\n not really, media decides"))
		}
	}))
	t.Cleanup(shop.Close)
	media := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"url":"` + stored + `?exp=1&sig=stale"}`)) // an old signature
	}))
	t.Cleanup(media.Close)
	addr := netip.MustParseAddrPort(shop.Listener.Addr().String())
	h := start(t, func(c *service.Config) {
		c.Lookup.Fetch = adapters.FetchDefaults()
		c.Lookup.Fetch.TestAllow = []netip.AddrPort{addr}
		c.Lookup.MediaURL = media.URL
		c.Signer = testenv.IdentitySigner("vision")
		c.Photos = testenv.MediaURLSigner()
	})
	r := h.postJSON("/api/lookup/url", map[string]string{"url": "http://" + addr.String() + "/toy"},
		map[string]string{"X-User-Id": "link-tester", "X-Real-IP": "203.0.113.51"})
	var it domain.LinkItem
	r.json(t, &it)
	u, err := url.Parse(it.ImageURL)
	if r.status != 200 || err != nil || u.Path != stored {
		t.Fatalf("import: %d %s", r.status, r.body)
	}
	if _, ok := testenv.MediaURLSigner().Verify(strings.TrimPrefix(stored, "/media/"), u.Query().Get("exp"), u.Query().Get("sig"), time.Now()); !ok {
		t.Fatalf("imageUrl %q is not validly signed", it.ImageURL)
	}
}
