//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

// The fake product databases the stack starts (deploy/local/stack.sh), and the one local
// "shop" the test stack's vision may reach (LOOKUP_FETCH_TEST_ALLOW=127.0.0.3:18089).
func fakeProductsURL() string { return envOr("SANTA_E2E_FAKE_PRODUCTS", "http://127.0.0.1:8096") }

// fakeProductsInside is the fake's address as vision calls it (on a cluster, its Service name
// rather than the NodePort this suite reaches it at).
func fakeProductsInside() string { return envOr("SANTA_E2E_FAKE_PRODUCTS_INSIDE", fakeProductsURL()) }
func shopPort() string           { return envOr("SANTA_E2E_SHOP_PORT", "18089") }

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func fakeRequests(t *testing.T) map[string][]string {
	t.Helper()
	resp, err := http.Get(fakeProductsURL() + "/_fake/requests")
	if err != nil {
		t.Fatalf("fake product databases: %v", err)
	}
	defer resp.Body.Close()
	var m map[string][]string
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func apiErrorCode(body []byte) string {
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	_ = json.Unmarshal(body, &e)
	return e.Error.Code
}

func TestABarcodeBecomesAProductAndTheSecondLookupIsCached(t *testing.T) {
	visitor := &client{t: t, base: baseURL(t)}
	const lego = "5702016370737"
	// Answers outlive a run in the shared Redis: forget this one so the first lookup asks.
	testenv.Redis(t).Del(context.Background(), "vision:cache:barcode:"+lego)

	before := len(fakeRequests(t)["openproductsfacts"])
	code, body, h := visitor.do("POST", "/api/lookup/barcode", []byte(`{"code":"`+lego+`"}`))
	var p struct{ Code, Name, Brand, Category, ImageURL, Source string }
	_ = json.Unmarshal(body, &p)
	if code != 200 || p.Name != "LEGO City Fire Station" || p.Category != "Toys" || p.Source != "openproductsfacts" ||
		!strings.HasPrefix(p.ImageURL, fakeProductsInside()+"/images/") || h.Get("X-Lookup-Cache") != "" {
		t.Fatalf("lookup: %d %s %v", code, body, h)
	}
	afterFirst := len(fakeRequests(t)["openproductsfacts"])
	if afterFirst != before+1 {
		t.Fatalf("the first lookup made %d upstream calls", afterFirst-before)
	}
	start := time.Now()
	code, _, h = visitor.do("POST", "/api/lookup/barcode", []byte(`{"code":"`+lego+`"}`))
	// Only the upstream's count tells the hit: the answer itself does not say (a shared cache's
	// hit would tell anyone that somebody looked this code up before).
	if code != 200 || h.Get("X-Lookup-Cache") != "" || len(fakeRequests(t)["openproductsfacts"]) != afterFirst {
		t.Fatalf("second lookup: %d %v (upstream calls %d)", code, h, len(fakeRequests(t)["openproductsfacts"])-afterFirst)
	}
	t.Logf("cached lookup through the gateway: %s", time.Since(start))

	code, body, _ = visitor.do("POST", "/api/lookup/barcode", []byte(`{"code":"5702016370738"}`))
	if code != 400 || apiErrorCode(body) != "invalid_check_digit" || !strings.Contains(string(body), "check digit") {
		t.Fatalf("bad check digit: %d %s", code, body)
	}
	code, body, _ = visitor.do("POST", "/api/lookup/barcode", []byte(`{"code":"4006381333931"}`))
	if code != 404 || apiErrorCode(body) != "product_not_found" {
		t.Fatalf("unknown code: %d %s", code, body)
	}
}

// --- the link importer's SSRF suite ----------------------------------------------------------

// counter is a server that must never be reached: it counts whatever arrives.
type counter struct {
	mu   sync.Mutex
	hits map[string]int
}

func (c *counter) handler(name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.hits[name+" "+r.URL.String()]++
		c.mu.Unlock()
		_, _ = w.Write([]byte(`<title>internal admin</title><meta property="og:title" content="SECRET">`))
	})
}

func serve(t *testing.T, addr string, h http.Handler) bool {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return false
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return true
}

func shopPNG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for y := range 48 {
		for x := range 64 {
			img.Set(x, y, color.RGBA{200, uint8(x * 4), uint8(y * 5), 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestImportingShopLinksIsSSRFSafe(t *testing.T) {
	port := shopPort()
	shopAddr := envOr("SANTA_E2E_SHOP_HOST", "127.0.0.3") + ":" + port
	shopBase := "http://" + shopAddr
	pictures := shopPNG(t)
	pages := map[string]string{
		"/jsonld": `<html><head><title>ignored</title><script type="application/ld+json">{"@context":"https://schema.org",
"@type":"Product","name":"Wooden Train Set","description":"A beech-wood railway with a tunnel.","image":"/train.png",
"offers":{"@type":"Offer","price":"49.95","priceCurrency":"USD"}}</script></head></html>`,
		"/opengraph": `<html><head><meta property="og:title" content="Headphones X200"><meta property="og:image" content="/train.png">
<meta property="og:description" content="Wireless over-ear headphones."><meta property="product:price:amount" content="99.00">
<meta property="product:price:currency" content="USD"></head></html>`,
		"/microdata": `<html><body><div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Cozy Knit Scarf</h1>
<img itemprop="image" src="/train.png"><p itemprop="description">Soft merino wool.</p>
<span itemprop="price" content="24.50"></span><span itemprop="priceCurrency" content="GBP"></span></div></body></html>`,
		"/neither": `<html><head><title>Star Stickers | Little Shop</title></head><body>stars</body></html>`,
	}
	var shopHits sync.Map
	shop := http.NewServeMux()
	shop.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		shopHits.Store(r.URL.Path, r.Header.Get("User-Agent"))
		if to := r.URL.Query().Get("to"); r.URL.Path == "/redirect" && to != "" {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		if r.URL.Path == "/train.png" {
			w.Header().Set("Content-Type", "image/png")
			_, _ = w.Write(pictures)
			return
		}
		page, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, page)
	})
	if !serve(t, shopAddr, shop) {
		t.Fatalf("cannot listen on %s for the test shop (is another suite running without the stack lock?)", shopAddr)
	}

	// The victims: every address of this machine that is not the shop, on the shop's port
	// (so only the address check can stop a request), and loopback on port 80 if free.
	victims := &counter{hits: map[string]int{}}
	var victimAddrs []string
	candidates := []string{"127.0.0.1", "127.0.0.2", "::1"}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok && !ipn.IP.IsLoopback() && !ipn.IP.IsLinkLocalUnicast() {
				candidates = append(candidates, ipn.IP.String())
			}
		}
	}
	for _, ip := range candidates {
		addr := net.JoinHostPort(ip, port)
		if serve(t, addr, victims.handler(addr)) {
			victimAddrs = append(victimAddrs, addr)
		}
	}
	if len(victimAddrs) < 3 {
		t.Fatalf("only %v could be listened on", victimAddrs)
	}
	t.Logf("victims listening on %v", victimAddrs)

	user, _ := newUser(t, "linkimport")
	importURL := func(u string) (int, []byte) {
		code, body := user.json("POST", "/api/lookup/url", map[string]string{"url": u})
		return code, body
	}

	// Allowed pages import, each markup style giving its item, the picture stored by media.
	want := map[string]struct{ name, price, source string }{
		"/jsonld":    {"Wooden Train Set", "$49.95", "jsonld"},
		"/opengraph": {"Headphones X200", "$99.00", "opengraph"},
		"/microdata": {"Cozy Knit Scarf", "£24.50", "microdata"},
		"/neither":   {"Star Stickers | Little Shop", "", "title"},
	}
	paths := make([]string, 0, len(want))
	for p := range want {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, path := range paths {
		w := want[path]
		code, body := importURL(shopBase + path)
		var it struct{ Name, Price, Source, ImageURL, ShoppingURL, Category string }
		_ = json.Unmarshal(body, &it)
		if code != 200 || it.Name != w.name || it.Price != w.price || it.Source != w.source || it.ShoppingURL != shopBase+path {
			t.Errorf("%s: %d %s", path, code, body)
			continue
		}
		if path == "/neither" {
			if it.ImageURL != "" {
				t.Errorf("a page without a picture got %q", it.ImageURL)
			}
			continue
		}
		// Never hot-linked: the picture is ours, served by media through the gateway.
		if !strings.HasPrefix(it.ImageURL, "/media/") {
			t.Errorf("%s: image %q is not stored by media", path, it.ImageURL)
			continue
		}
		resp, err := http.Get(baseURL(t) + it.ImageURL)
		if err != nil || resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "image/") {
			t.Errorf("%s: stored picture: %v %v", path, err, resp)
		} else {
			resp.Body.Close()
		}
		if path == "/jsonld" {
			code, body := user.json("POST", "/api/wishlist", map[string]any{"name": it.Name, "description": "A beech-wood railway with a tunnel.",
				"category": it.Category, "price": it.Price, "imageUrl": it.ImageURL, "shoppingUrl": it.ShoppingURL})
			// The imported picture is saved with the item. (The wishlist still decides
			// shoppingUrl itself from the search query; keeping the shop's link is the
			// wishlist's change to make.)
			var saved item
			_ = json.Unmarshal(body, &saved)
			if code != http.StatusCreated || saved.ImageURL == nil || *saved.ImageURL != it.ImageURL {
				t.Errorf("saving the imported item: %d %s", code, body)
			}
		}
	}
	if ua, _ := shopHits.Load("/jsonld"); !strings.HasPrefix(fmt.Sprint(ua), "Mozilla/5.0") {
		t.Errorf("the shop saw user agent %q", ua)
	}

	refused := []string{
		"http://127.0.0.1:" + port + "/",                                    // loopback
		"http://localhost:" + port + "/",                                    // a name that resolves to loopback
		"http://127.0.0.2:" + port + "/",                                    // the rest of 127/8
		"http://[::1]:" + port + "/",                                        // IPv6 loopback
		"http://[::ffff:127.0.0.1]:" + port + "/",                           // IPv4-mapped IPv6
		"http://[::ffff:7f00:1]:" + port + "/",                              // the same in hex
		"http://2130706433:" + port + "/",                                   // decimal 127.0.0.1
		"http://0177.0.0.1:" + port + "/",                                   // octal
		"http://0x7f.0.0.1:" + port + "/",                                   // hex
		"http://127.1:" + port + "/",                                        // short form
		"http://169.254.169.254/latest/meta-data/iam/security-credentials/", // cloud metadata
		"http://[fd00:ec2::254]/latest/meta-data/",                          // AWS's IPv6 metadata (ULA)
		"http://10.0.0.1/", "http://172.16.0.1/", "http://192.168.0.1/",     // private
		"http://100.64.0.1/", // CGNAT
		"http://[fe80::1]/",  // IPv6 link-local
		"http://[fc00::1]/",  // IPv6 ULA
		"http://0.0.0.0:" + port + "/",
		shopBase + "/redirect?to=http://127.0.0.1:" + port + "/admin",      // a redirect to loopback
		shopBase + "/redirect?to=http://localhost:" + port + "/admin",      // ...by name
		shopBase + "/redirect?to=http://169.254.169.254/latest/meta-data/", // ...to metadata
		shopBase + "/redirect?to=http://2130706433:" + port + "/admin",     // ...spelt in decimal
		"file:///etc/passwd", "gopher://127.0.0.1:6379/_INFO", "http://127.0.0.3:6379/", // schemes and ports
	}
	for _, addr := range victimAddrs {
		host, _, _ := net.SplitHostPort(addr)
		if host != "127.0.0.1" && host != "127.0.0.2" && host != "::1" {
			refused = append(refused, "http://"+addr+"/") // this machine's private or ULA address
		}
	}
	for _, u := range refused {
		code, body := importURL(u)
		if code < 400 || code > 499 || !strings.Contains(apiErrorCode(body), "not_allowed") && apiErrorCode(body) != "invalid_url" {
			t.Errorf("%s: %d %s, want a 4xx refusal", u, code, body)
		} else {
			t.Logf("refused %-70s %d %s", u, code, apiErrorCode(body))
		}
	}
	victims.mu.Lock()
	defer victims.mu.Unlock()
	if len(victims.hits) != 0 {
		t.Fatalf("refused targets received requests: %v", victims.hits)
	}
	// Visitors cannot import links.
	visitor := &client{t: t, base: baseURL(t)}
	if code, _ := visitor.json("POST", "/api/lookup/url", map[string]string{"url": shopBase + "/jsonld"}); code != 401 {
		t.Errorf("a visitor's import: %d", code)
	}
}
