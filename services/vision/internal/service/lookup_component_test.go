package service_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/fakes/products"
	"github.com/santa-wishlist/santa/services/vision/internal/domain"
	"github.com/santa-wishlist/santa/services/vision/internal/service"
)

// withFakeProducts points the lookup at a fake of the three product databases.
func withFakeProducts(t *testing.T, fake *products.Server) option {
	ts := httptest.NewServer(fake)
	t.Cleanup(ts.Close)
	return func(c *service.Config) {
		c.Lookup = service.LookupDefaults()
		c.Lookup.OpenFoodFactsURL = ts.URL + "/openfoodfacts"
		c.Lookup.OpenProductsFactsURL = ts.URL + "/openproductsfacts"
		c.Lookup.UPCitemdbURL = ts.URL + "/upcitemdb"
		c.Lookup.Timeout = 300 * time.Millisecond
	}
}

func TestBarcodeLookupOverHTTP(t *testing.T) {
	fake := products.New(false)
	h := start(t, withFakeProducts(t, fake))

	r := h.postJSON("/api/lookup/barcode", map[string]string{"code": products.CodeLegoFire}, nil)
	var p domain.Product
	r.json(t, &p)
	if r.status != 200 || p.Name != "LEGO City Fire Station" || p.Category != "Toys" || p.Code != products.CodeLegoFire ||
		p.Source != "openproductsfacts" || p.ImageURL == "" || r.header.Get("X-Lookup-Cache") != "" {
		t.Fatalf("%d %s %v", r.status, r.body, r.header)
	}
	r = h.postJSON("/api/lookup/barcode", map[string]string{"code": products.CodeLegoFire}, nil)
	if r.status != 200 || r.header.Get("X-Lookup-Cache") != "" || fake.Count(products.OpenProductsFacts) != 1 {
		t.Fatalf("second lookup: %d %v, upstream asked %d times", r.status, r.header, fake.Count(products.OpenProductsFacts))
	}

	r = h.postJSON("/api/lookup/barcode", map[string]string{"code": "3017624010702"}, nil)
	if e := r.apiError(t); r.status != 400 || e.Code != "invalid_check_digit" || e.Fields["code"] == "" {
		t.Fatalf("bad check digit: %d %s", r.status, r.body)
	}
	r = h.postJSON("/api/lookup/barcode", map[string]string{"code": "abc"}, nil)
	if e := r.apiError(t); r.status != 400 || e.Code != "invalid_barcode" {
		t.Fatalf("letters: %d %s", r.status, r.body)
	}
	r = h.postJSON("/api/lookup/barcode", map[string]any{"code": 42}, nil)
	if r.status != 400 {
		t.Fatalf("a number instead of text: %d %s", r.status, r.body)
	}
	r = h.postJSON("/api/lookup/barcode", map[string]string{"code": products.CodeUnknown}, nil)
	if e := r.apiError(t); r.status != 404 || e.Code != "product_not_found" {
		t.Fatalf("unknown: %d %s", r.status, r.body)
	}
	fake.SetMode("all", products.ModeDown)
	r = h.postJSON("/api/lookup/barcode", map[string]string{"code": products.CodeIPhone}, nil)
	if e := r.apiError(t); r.status != 503 || e.Code != "lookup_unavailable" {
		t.Fatalf("all down: %d %s", r.status, r.body)
	}
}

func TestBarcodeLookupsHaveADailyQuotaButCacheHitsAreFree(t *testing.T) {
	fake := products.New(false)
	h := start(t, withFakeProducts(t, fake), func(c *service.Config) { c.App.LookupPerIP = 2 })
	ip := map[string]string{"X-Real-IP": "203.0.113.9"}
	for _, code := range []string{products.CodeNutella, products.CodeIPhone, products.CodeNutella} {
		if r := h.postJSON("/api/lookup/barcode", map[string]string{"code": code}, ip); r.status != 200 {
			t.Fatalf("%s: %d %s", code, r.status, r.body)
		}
	}
	r := h.postJSON("/api/lookup/barcode", map[string]string{"code": products.CodeOdyssey}, ip)
	if e := r.apiError(t); r.status != 429 || e.Code != "quota_exceeded" || r.header.Get("Retry-After") == "" {
		t.Fatalf("third upstream lookup: %d %s", r.status, r.body)
	}
	// The AI's own quota is a separate count.
	if r := h.postJSON("/api/vision/generate", map[string]string{"prompt": "a red bike", "mode": "gift"}, ip); r.status != 200 {
		t.Fatalf("AI after the lookup quota: %d %s", r.status, r.body)
	}
}

func TestASpentGeminiBudgetIsA429ThatSaysSo(t *testing.T) {
	h := start(t, func(c *service.Config) { c.App.DailyBudget = 1 })
	first := h.postJSON("/api/vision/generate", map[string]string{"prompt": "a red bike", "mode": "gift"}, map[string]string{"X-Real-IP": "203.0.113.1"})
	if first.status != 200 {
		t.Fatalf("first call: %d %s", first.status, first.body)
	}
	r := h.postJSON("/api/vision/generate", map[string]string{"prompt": "a blue kite", "mode": "gift"}, map[string]string{"X-Real-IP": "198.51.100.2"})
	e := r.apiError(t)
	if r.status != 429 || e.Code != "ai_budget_spent" || !strings.Contains(e.Message, "for everyone") || r.header.Get("Retry-After") == "" {
		t.Fatalf("another visitor after the budget: %d %s", r.status, r.body)
	}
	m := h.do("GET", "/metrics", "", nil, nil)
	if !strings.Contains(string(m.body), "gemini_daily_budget_used 1") || !strings.Contains(string(m.body), "gemini_daily_budget_limit 1") {
		t.Errorf("budget gauges missing from /metrics")
	}
}

// The picture of a scanned product is only imported for a signed-in caller and only when the
// database had one; without media (this harness) it is a 502 that says so, never a 500 and
// never the database's URL.
func TestAProductPictureIsImportedOnlyWhenThereIsOne(t *testing.T) {
	fake := products.New(false)
	h := start(t, withFakeProducts(t, fake), func(c *service.Config) { c.Lookup.MediaURL = "" })
	user := map[string]string{"X-User-Id": "image-tester", "X-Real-IP": "203.0.113.60"}
	if r := h.postJSON("/api/lookup/barcode/image", map[string]string{"code": products.CodeLegoFire}, nil); r.status != 401 {
		t.Fatalf("a visitor: %d %s", r.status, r.body)
	}
	cases := []struct {
		code   string
		status int
		err    string
	}{
		{products.CodeLegoFire, 502, "image_unavailable"},
		{"01234565", 404, "no_product_image"},
		{products.CodeUnknown, 404, "product_not_found"},
		{"5702016370738", 400, "invalid_check_digit"},
	}
	for _, c := range cases {
		r := h.postJSON("/api/lookup/barcode/image", map[string]string{"code": c.code}, user)
		if e := r.apiError(t); r.status != c.status || e.Code != c.err || strings.Contains(string(r.body), "/images/") {
			t.Errorf("%s: %d %s", c.code, r.status, r.body)
		}
	}
	// The lookup behind it was asked once and cached like any scan.
	if n := fake.Count(products.OpenProductsFacts); n != 3 {
		t.Errorf("Open Products Facts asked %d times", n)
	}
	if n := fake.Count(products.Images); n != 0 {
		t.Errorf("a picture was fetched without anywhere to store it: %d", n)
	}
}
