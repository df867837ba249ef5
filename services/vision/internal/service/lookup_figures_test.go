package service_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/fakes/products"
	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/vision/internal/service"
)

// Lookup latency over HTTP, from the cache and from the fake upstream (Open Food Facts says
// 404, Open Products Facts answers: two upstream round trips, as for most non-food toys).
// Run with -v to see the figures:
//
//	go test -count=1 -v -run TestBarcodeLookupLatencyFigures ./services/vision/internal/service/
func TestBarcodeLookupLatencyFigures(t *testing.T) {
	fake := products.New(false)
	var prefix string
	h := start(t, withFakeProducts(t, fake), func(c *service.Config) {
		c.App.LookupPerIP = 0 // the figures measure the lookup, not the quota's refusal
		c.Lookup.OpenFactsPerMinute = 1e6
		prefix = c.KeyPrefix
	})
	rdb := testenv.Redis(t)
	const n = 300
	body := `{"code":"` + products.CodeLegoFire + `"}`
	lookup := func() time.Duration {
		start := time.Now()
		req, _ := http.NewRequest(http.MethodPost, h.url+"/api/lookup/barcode", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(auth.HeaderIdentity, testenv.Assertion(t, "vision", "", http.MethodPost, "/api/lookup/barcode"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("status %d", resp.StatusCode)
		}
		if h := resp.Header.Get("X-Lookup-Cache"); h != "" {
			t.Fatalf("the answer says whether it came from the cache: X-Lookup-Cache %q", h)
		}
		return took
	}
	var upstream, cached []time.Duration
	for range n {
		if err := rdb.Del(context.Background(), prefix+"cache:barcode:"+products.CodeLegoFire).Err(); err != nil {
			t.Fatal(err)
		}
		before := fake.Count(products.OpenProductsFacts)
		upstream = append(upstream, lookup())
		if fake.Count(products.OpenProductsFacts) != before+1 {
			t.Fatal("a lookup after the cache was cleared did not ask the upstream")
		}
	}
	for range n {
		cached = append(cached, lookup())
	}
	if got := fake.Count(products.OpenProductsFacts); got != n {
		t.Fatalf("the fake upstream answered %d lookups, want %d", got, n)
	}
	p := func(ds []time.Duration, q float64) time.Duration {
		s := slices.Clone(ds)
		slices.Sort(s)
		return s[int(q*float64(len(s)-1))]
	}
	t.Logf("barcode lookup over HTTP, %d each: from the cache p50 %s p99 %s; from the fake upstream (2 databases asked) p50 %s p99 %s",
		n, p(cached, .5).Round(time.Microsecond), p(cached, .99).Round(time.Microsecond),
		p(upstream, .5).Round(time.Microsecond), p(upstream, .99).Round(time.Microsecond))
	if p(cached, .5) >= p(upstream, .5) {
		t.Errorf("the cache (p50 %s) is not faster than asking the upstream (p50 %s)", p(cached, .5), p(upstream, .5))
	}
}
