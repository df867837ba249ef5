package app_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/fakes/products"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/vision/internal/adapters"
	"github.com/santa-wishlist/santa/services/vision/internal/app"
	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

// rig is the barcode lookup over the fake product databases and the test Redis, under a
// key prefix of its own.
type rig struct {
	fake      *products.Server
	barcodes  *app.Barcodes
	upstreams []*adapters.Upstream
}

func newRig(t *testing.T, tune ...func(*adapters.UpstreamConfig)) *rig {
	t.Helper()
	fake := products.New(false)
	fake.SlowDelay = 2 * time.Second
	ts := httptest.NewServer(fake)
	t.Cleanup(ts.Close)
	cache, err := adapters.NewRedis(testenv.RedisURL(), "lookup-test:"+testenv.RandomHex(6)+":")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cache.Purge(context.Background()); _ = cache.Close() })
	cfg := func(name, path string) adapters.UpstreamConfig {
		c := adapters.UpstreamConfig{Name: name, BaseURL: ts.URL + path, Timeout: 300 * time.Millisecond,
			PerMinute: 6000, Burst: 100, BreakerFailures: 3, BreakerOpenFor: time.Minute}
		for _, f := range tune {
			f(&c)
		}
		return c
	}
	ups := []*adapters.Upstream{
		adapters.NewOpenFactsUpstream(cfg(domain.SourceOpenFoodFacts, "/openfoodfacts")),
		adapters.NewOpenFactsUpstream(cfg(domain.SourceOpenProductsFacts, "/openproductsfacts")),
		adapters.NewUPCitemdbUpstream(cfg(domain.SourceUPCitemdb, "/upcitemdb")),
	}
	sources := make([]domain.ProductSource, len(ups))
	for i, u := range ups {
		sources[i] = u
	}
	b := app.NewBarcodes(sources, cache, time.Hour, time.Hour, app.NewLookupMetrics(prometheus.NewRegistry()), slog.New(slog.DiscardHandler))
	return &rig{fake: fake, barcodes: b, upstreams: ups}
}

func (r *rig) lookup(t *testing.T, raw string) (domain.Product, app.LookupOutcome, error) {
	t.Helper()
	code, err := domain.ParseBarcode(raw)
	if err != nil {
		t.Fatal(err)
	}
	return r.barcodes.Lookup(context.Background(), code, nil)
}

func TestEachDatabaseAnswersInItsOwnShape(t *testing.T) {
	r := newRig(t)
	cases := []struct {
		code, name, brand, category, source, image string
		price                                      string
	}{
		{products.CodeNutella, "Nutella", "Ferrero", "Other", domain.SourceOpenFoodFacts,
			"/images/openfoodfacts/301/762/401/0701/front_en.3.400.jpg", ""},
		{products.CodeMints, "Peppermint mints", "Frosty", "Other", domain.SourceOpenFoodFacts, "", ""},
		{products.CodeLegoFire, "LEGO City Fire Station", "LEGO", "Toys", domain.SourceOpenProductsFacts, "", ""},
		// The lowest offer, in dollars (UPCitemdb leaves the currency empty).
		{products.CodeIPhone, "Apple iPhone 6, Gold, 64 GB", "Apple", "Electronics", domain.SourceUPCitemdb,
			"/images/upcitemdb/112231913.jpg", "$209.99"},
		{products.CodeOdyssey, "The Odyssey (Penguin Classics)", "Penguin Classics", "Books", domain.SourceUPCitemdb, "", "$7.50"},
		{"01234565", "Mini Racing Car", "Speedy", "Toys", domain.SourceUPCitemdb, "", "$4.50"}, // UPC-E, asked as UPC-A
	}
	for _, c := range cases {
		p, outcome, err := r.lookup(t, c.code)
		if err != nil || outcome != app.LookupMiss {
			t.Fatalf("%s: %v %s", c.code, err, outcome)
		}
		if p.Code != c.code || p.Name != c.name || p.Brand != c.brand || p.Category != c.category || p.Source != c.source {
			t.Errorf("%s: got %+v", c.code, p)
		}
		// The fake serves its pictures itself, on its own address.
		if c.image != "" && (!strings.HasPrefix(p.ImageURL, "http://127.0.0.1:") || !strings.HasSuffix(p.ImageURL, c.image)) {
			t.Errorf("%s: image %q", c.code, p.ImageURL)
		}
		if (c.price == "") != (p.Price == nil) || (p.Price != nil && *p.Price != c.price) {
			t.Errorf("%s: price %v, want %q", c.code, p.Price, c.price)
		}
	}
	// In order: the food database is asked first, then the products one, then UPCitemdb.
	asked := r.fake.Requests()
	if got := asked[products.OpenProductsFacts]; len(got) != 4 || got[0] != products.CodeLegoFire {
		t.Errorf("Open Products Facts was asked %v", got)
	}
	if got := asked[products.UPCitemdb]; len(got) != 3 || got[2] != products.CodeUPCEExpanded {
		t.Errorf("UPCitemdb was asked %v", got)
	}
}

func TestAnUnknownCodeIsNotFoundAndRemembered(t *testing.T) {
	r := newRig(t)
	if _, _, err := r.lookup(t, products.CodeUnknown); !errors.Is(err, domain.ErrProductNotFound) {
		t.Fatalf("got %v", err)
	}
	for _, u := range []string{products.OpenFoodFacts, products.OpenProductsFacts, products.UPCitemdb} {
		if n := r.fake.Count(u); n != 1 {
			t.Errorf("%s asked %d times", u, n)
		}
	}
	_, outcome, err := r.lookup(t, products.CodeUnknown)
	if !errors.Is(err, domain.ErrProductNotFound) || outcome != app.LookupHit {
		t.Fatalf("second lookup: %v %s", err, outcome)
	}
	if n := len(r.fake.Requests()[products.OpenFoodFacts]); n != 1 {
		t.Errorf("the second lookup reached the upstream (%d requests)", n)
	}
}

func TestTheSecondLookupMakesNoUpstreamCall(t *testing.T) {
	r := newRig(t)
	first, outcome, err := r.lookup(t, products.CodeIPhone)
	if err != nil || outcome != app.LookupMiss {
		t.Fatal(err, outcome)
	}
	before := r.fake.Requests()
	second, outcome, err := r.lookup(t, products.CodeIPhone)
	if err != nil || outcome != app.LookupHit {
		t.Fatal(err, outcome)
	}
	after := r.fake.Requests()
	for _, u := range []string{products.OpenFoodFacts, products.OpenProductsFacts, products.UPCitemdb} {
		if len(after[u]) != len(before[u]) {
			t.Errorf("%s was asked again: %v", u, after[u])
		}
	}
	if first.Name != second.Name || *first.Price != *second.Price || second.Code != products.CodeIPhone {
		t.Errorf("cached answer differs: %+v vs %+v", first, second)
	}
}

func TestAFailingDatabaseIsSkippedAndItsNotFoundNotRemembered(t *testing.T) {
	for _, mode := range []string{products.ModeMalformed, products.ModeSlow, products.ModeTooMany, products.ModeDown} {
		t.Run(mode, func(t *testing.T) {
			r := newRig(t)
			r.fake.SetMode(products.OpenFoodFacts, mode)
			start := time.Now()
			p, _, err := r.lookup(t, products.CodeLegoFire)
			if err != nil || p.Source != domain.SourceOpenProductsFacts {
				t.Fatalf("got %+v %v", p, err)
			}
			if took := time.Since(start); took > time.Second {
				t.Errorf("took %s: the timeout (300ms) did not hold", took)
			}
			// Nobody knows this code, but one database failed: it may know it, so the
			// answer is not remembered and the next scan asks again.
			if _, _, err := r.lookup(t, products.CodeUnknown); !errors.Is(err, domain.ErrProductNotFound) {
				t.Fatalf("unknown: %v", err)
			}
			r.fake.SetMode(products.OpenFoodFacts, products.ModeOK)
			n := r.fake.Count(products.UPCitemdb)
			if _, outcome, _ := r.lookup(t, products.CodeUnknown); outcome != app.LookupMiss || r.fake.Count(products.UPCitemdb) != n+1 {
				t.Errorf("a not-found with a failed upstream was cached (%s)", outcome)
			}
		})
	}
}

func TestEveryDatabaseFailingIsUnavailableNotNotFound(t *testing.T) {
	r := newRig(t)
	r.fake.SetMode("all", products.ModeDown)
	if _, _, err := r.lookup(t, products.CodeUnknown); !errors.Is(err, domain.ErrLookupUnavailable) {
		t.Fatalf("got %v", err)
	}
}

func TestTheCircuitBreakerStopsAskingAFailingDatabase(t *testing.T) {
	r := newRig(t, func(c *adapters.UpstreamConfig) { c.BreakerOpenFor = 200 * time.Millisecond })
	off := r.upstreams[0]
	r.fake.SetMode(products.OpenFoodFacts, products.ModeDown)
	// Three consecutive failures (distinct codes, so the cache is no help) open the circuit.
	codes := []string{products.CodeIPhone, products.CodeOdyssey, "01234565", products.CodeLegoFire, products.CodeUnknown}
	for _, c := range codes[:3] {
		if _, _, err := r.lookup(t, c); err != nil {
			t.Fatal(c, err)
		}
	}
	if off.BreakerState() != "open" {
		t.Fatalf("breaker %s after 3 failures", off.BreakerState())
	}
	n := r.fake.Count(products.OpenFoodFacts)
	p, _, err := r.lookup(t, codes[3])
	if err != nil || p.Source != domain.SourceOpenProductsFacts {
		t.Fatalf("with the breaker open the next database answers: %+v %v", p, err)
	}
	if r.fake.Count(products.OpenFoodFacts) != n {
		t.Error("an open circuit still sent a request")
	}
	// After the open period one trial request goes through; it succeeds and closes it.
	r.fake.SetMode(products.OpenFoodFacts, products.ModeOK)
	time.Sleep(250 * time.Millisecond)
	if p, _, err := r.lookup(t, products.CodeNutella); err != nil || p.Source != domain.SourceOpenFoodFacts {
		t.Fatalf("half-open trial: %+v %v", p, err)
	}
	if off.BreakerState() != "closed" {
		t.Errorf("breaker %s after a good trial", off.BreakerState())
	}
}

func TestOurOwnRateLimitSendsNothingBeyondIt(t *testing.T) {
	r := newRig(t, func(c *adapters.UpstreamConfig) {
		if c.Name == domain.SourceUPCitemdb {
			c.PerMinute, c.Burst = 1, 2 // UPCitemdb's trial: a small burst, then one a minute
		}
	})
	for _, c := range []string{products.CodeIPhone, products.CodeOdyssey} {
		if _, _, err := r.lookup(t, c); err != nil {
			t.Fatal(err)
		}
	}
	// The third code only UPCitemdb knows: our limit holds it back, so it is unknown for now
	// (and not remembered as such).
	if _, _, err := r.lookup(t, "01234565"); !errors.Is(err, domain.ErrProductNotFound) {
		t.Fatalf("got %v", err)
	}
	if n := r.fake.Count(products.UPCitemdb); n != 2 {
		t.Errorf("UPCitemdb received %d requests, the limit allows 2", n)
	}
}
