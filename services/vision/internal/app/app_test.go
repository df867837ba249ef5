package app_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/santa-wishlist/santa/fakes/gemini"
	"github.com/santa-wishlist/santa/pkg/caller"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/vision/internal/adapters"
	"github.com/santa-wishlist/santa/services/vision/internal/app"
	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

const apiKey = "app-test-key"

type harness struct {
	svc     *app.Service
	fake    *gemini.Server
	metrics *app.Metrics
	redis   *adapters.Redis
}

func testConfig() app.Config {
	cfg := app.Defaults()
	cfg.Timeout = 300 * time.Millisecond
	cfg.RetryBaseDelay = 5 * time.Millisecond
	cfg.RetryMaxDelay = 50 * time.Millisecond
	return cfg
}

// start builds the service on the fake Gemini and the test Redis, under a key prefix of its
// own.
func start(t *testing.T, cfg app.Config, withKey bool) *harness {
	t.Helper()
	fake := gemini.Start(t, apiKey)
	prefix := "vision-apptest:" + testenv.RandomHex(6) + ":"
	store, err := adapters.NewRedis(testenv.RedisURL(), prefix)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Ping(context.Background()); err != nil {
		t.Fatalf("Redis at %s: %v", testenv.RedisURL(), err)
	}
	t.Cleanup(func() {
		_ = store.Purge(context.Background())
		_ = store.Close()
	})
	var model domain.Model
	if withKey {
		g, err := adapters.NewGemini(context.Background(), adapters.GeminiConfig{APIKey: apiKey, Model: cfg.Model, BaseURL: fake.URL})
		if err != nil {
			t.Fatal(err)
		}
		model = g
	}
	metrics := app.NewMetrics(prometheus.NewRegistry())
	svc := app.New(model, store, store, cfg, metrics, slog.New(slog.DiscardHandler))
	return &harness{svc: svc, fake: fake, metrics: metrics, redis: store}
}

// photo makes a small PNG; different seeds make different images.
func photo(t *testing.T, seed uint8) domain.Image {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	img.Set(int(seed%8), int(seed/8%8), color.RGBA{R: seed, G: 100, B: 50, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	out, err := domain.NewImage(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var visitor = caller.Caller{UID: "", IP: "203.0.113.7"}

var bike = map[string]any{
	"name": "Red Bike", "description": "A red bicycle.", "category": "Sports",
	"searchQuery": "red bicycle", "approximatePrice": "$99.99", "features": []string{"Bell", "Basket", "Lights"},
}

func TestAnalyzeReplyShapes(t *testing.T) {
	tests := []struct {
		name    string
		reply   gemini.Reply
		want    string // the analysis name, or the error message
		wantErr bool
	}{
		{"well-formed JSON", gemini.JSON(bike), "Red Bike", false},
		{"JSON in fences and prose", gemini.Fenced(bike), "Red Bike", false},
		{"JSON missing fields", gemini.JSON(map[string]any{"description": "Something"}), "Unknown Product", false},
		{"prose without JSON", gemini.Text("This is a red bicycle."), "Failed to parse the AI response. The response format was invalid.", true},
		{"no candidates", gemini.NoCandidates(), "No response from Gemini API", true},
		{"candidate without text", gemini.NoText(), "No valid response from Gemini API for image analysis", true},
		{"client error", gemini.Error(400), "Gemini API error (400)", true},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t, testConfig(), true)
			h.fake.Enqueue(tc.reply)
			a, outcome, err := h.svc.Analyze(context.Background(), visitor, photo(t, uint8(i)), "")
			if tc.wantErr {
				if err == nil || err.Error() != tc.want {
					t.Fatalf("err = %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a.Name != tc.want || a.Source != "gemini" || outcome != app.OutcomeModel || a.ID == "" {
				t.Fatalf("%+v %s", a, outcome)
			}
		})
	}
}

func TestGenerateReplyShapes(t *testing.T) {
	h := start(t, testConfig(), true)
	ctx := context.Background()

	h.fake.Enqueue(gemini.Text("Name: Snow Globe\nDescription: A glass globe with snow.\nPrice: $15.00"))
	g, _, err := h.svc.GenerateGift(ctx, visitor, "a snow globe", nil)
	if err != nil || g != (domain.Gift{Name: "Snow Globe", Description: "A glass globe with snow.", Price: "$15.00", Source: "gemini"}) {
		t.Fatalf("gift from prose: %+v %v", g, err)
	}
	h.fake.Enqueue(gemini.NoCandidates())
	if _, _, err := h.svc.GenerateGift(ctx, visitor, "something else", nil); err == nil || err.Error() != "No response from Gemini API" {
		t.Fatalf("gift, no candidates: %v", err)
	}
	h.fake.Enqueue(gemini.NoText())
	if _, _, err := h.svc.GenerateGift(ctx, visitor, "a third thing", nil); err == nil || err.Error() != "No valid response from Gemini API" {
		t.Fatalf("gift, no text: %v", err)
	}
	h.fake.Enqueue(gemini.Fenced(map[string]any{"name": "Drone", "price": 79, "category": "Electronics"}))
	it, _, err := h.svc.GenerateItem(ctx, visitor, "a drone", nil)
	if err != nil || it.Name != "Drone" || it.Price != "$79.00" || it.EstimatedPrice != "$79.00" || it.Category != "electronics" {
		t.Fatalf("item: %+v %v", it, err)
	}
	h.fake.Enqueue(gemini.Text("A drone, probably."))
	if _, _, err := h.svc.GenerateItem(ctx, visitor, "a drone again", nil); err == nil || err.Error() != domain.MsgUnparseable {
		t.Fatalf("item from prose: %v", err)
	}
	// The gift prompt carries the caller's words; text-only calls send no image.
	reqs := h.fake.Requests()
	if len(reqs[0].Images()) != 0 || !bytes.Contains([]byte(reqs[0].Prompt()), []byte("a snow globe")) {
		t.Fatalf("first request %q", reqs[0].Prompt())
	}
}

func TestTheSamePhotoTwiceCostsOneCall(t *testing.T) {
	h := start(t, testConfig(), true)
	ctx := context.Background()
	img := photo(t, 1)
	h.fake.Enqueue(gemini.JSON(bike))

	first, outcome, err := h.svc.Analyze(ctx, visitor, img, "")
	if err != nil || outcome != app.OutcomeModel {
		t.Fatalf("%v %s", err, outcome)
	}
	second, outcome, err := h.svc.Analyze(ctx, caller.Caller{UID: "someone-else", IP: "198.51.100.1"}, img, "")
	if err != nil || outcome != app.OutcomeCache {
		t.Fatalf("%v %s", err, outcome)
	}
	if h.fake.Calls() != 1 {
		t.Fatalf("%d Gemini calls, want 1", h.fake.Calls())
	}
	if second.Name != first.Name || second.SearchQuery != first.SearchQuery || second.ID == first.ID {
		t.Fatalf("cached answer differs or reuses the id: %+v vs %+v", first, second)
	}
	if got := testutil.ToFloat64(h.metrics.CacheHits); got != 1 {
		t.Fatalf("cache hits %v", got)
	}
	// Another prompt is another question.
	if _, outcome, _ := h.svc.Analyze(ctx, visitor, img, "focus on the colour"); outcome != app.OutcomeModel {
		t.Fatalf("custom prompt answered from the cache")
	}
	// A failed call is not cached.
	h.fake.Enqueue(gemini.Text("no json here"))
	other := photo(t, 2)
	if _, _, err := h.svc.Analyze(ctx, visitor, other, ""); err == nil {
		t.Fatal("expected a parse failure")
	}
	h.fake.Enqueue(gemini.JSON(bike))
	if _, outcome, err := h.svc.Analyze(ctx, visitor, other, ""); err != nil || outcome != app.OutcomeModel {
		t.Fatalf("after a failure: %v %s", err, outcome)
	}
}

func TestConcurrentIdenticalRequestsShareOneCall(t *testing.T) {
	h := start(t, testConfig(), true)
	h.fake.Always(gemini.Slow(100*time.Millisecond, gemini.JSON(bike)))
	img := photo(t, 3)
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() {
			if _, _, err := h.svc.Analyze(context.Background(), visitor, img, ""); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if h.fake.Calls() != 1 {
		t.Fatalf("%d calls for 5 identical concurrent requests", h.fake.Calls())
	}
}

func TestQuotaRefusesWhenSpent(t *testing.T) {
	cfg := testConfig()
	cfg.QuotaPerUser, cfg.QuotaPerIP = 2, 3
	h := start(t, cfg, true)
	ctx := context.Background()
	alice := caller.Caller{UID: "alice", IP: "192.0.2.10"}

	for i := range 2 {
		if _, _, err := h.svc.Analyze(ctx, alice, photo(t, uint8(10+i)), ""); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := h.svc.Analyze(ctx, alice, photo(t, 12), "")
	var spent *app.QuotaExceeded
	if !errors.As(err, &spent) || spent.Scope != "user" || spent.Limit != 2 {
		t.Fatalf("third call: %v", err)
	}
	if spent.RetryAfter <= 0 || spent.RetryAfter > 24*time.Hour {
		t.Fatalf("retry after %s", spent.RetryAfter)
	}
	// The refusal made no call, and a cached answer is still served: hits do not count.
	if h.fake.Calls() != 2 {
		t.Fatalf("%d calls", h.fake.Calls())
	}
	if _, outcome, err := h.svc.Analyze(ctx, alice, photo(t, 10), ""); err != nil || outcome != app.OutcomeCache {
		t.Fatalf("cache hit after quota: %v %s", err, outcome)
	}
	// The address has one call left for a visitor, then it is spent too.
	bob := caller.Caller{IP: "192.0.2.10"}
	if _, _, err := h.svc.GenerateGift(ctx, bob, "a kite", nil); err != nil {
		t.Fatal(err)
	}
	_, _, err = h.svc.GenerateGift(ctx, bob, "a ball", nil)
	if !errors.As(err, &spent) || spent.Scope != "ip" {
		t.Fatalf("address quota: %v", err)
	}
}

func TestRateLimitedAndFailingCallsAreRetried(t *testing.T) {
	h := start(t, testConfig(), true)
	ctx := context.Background()

	h.fake.Enqueue(gemini.Error(429), gemini.Error(500), gemini.JSON(bike))
	a, _, err := h.svc.Analyze(ctx, visitor, photo(t, 20), "")
	if err != nil || a.Name != "Red Bike" || h.fake.Calls() != 3 {
		t.Fatalf("%+v %v after %d calls", a, err, h.fake.Calls())
	}
	if got := testutil.ToFloat64(h.metrics.Calls.WithLabelValues("analyze")); got != 3 {
		t.Fatalf("gemini_calls_total %v", got)
	}
	if got := testutil.ToFloat64(h.metrics.Failures.WithLabelValues("analyze", "rate_limited")); got != 1 {
		t.Fatalf("rate_limited failures %v", got)
	}

	// Three failures in a row give up with the last status.
	h.fake.Enqueue(gemini.Error(503), gemini.Error(503), gemini.Error(500))
	_, _, err = h.svc.Analyze(ctx, visitor, photo(t, 21), "")
	if err == nil || err.Error() != "Gemini API error (500)" || h.fake.Calls() != 6 {
		t.Fatalf("%v after %d calls", err, h.fake.Calls())
	}

	// A client error is not retried.
	h.fake.Enqueue(gemini.Error(400))
	_, _, err = h.svc.Analyze(ctx, visitor, photo(t, 22), "")
	if err == nil || err.Error() != "Gemini API error (400)" || h.fake.Calls() != 7 {
		t.Fatalf("%v after %d calls", err, h.fake.Calls())
	}
}

func TestRetryAfterLongerThanWeWaitIsNotRetried(t *testing.T) {
	h := start(t, testConfig(), true)
	h.fake.Enqueue(gemini.Reply{Status: 429, Body: []byte(`{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED",
		"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"40s"}]}}`)})
	_, _, err := h.svc.GenerateGift(context.Background(), visitor, "a kite", nil)
	if err == nil || err.Error() != "Gemini API error (429)" || h.fake.Calls() != 1 {
		t.Fatalf("%v after %d calls", err, h.fake.Calls())
	}
}

func TestSlowReplyTimesOut(t *testing.T) {
	h := start(t, testConfig(), true)
	h.fake.Enqueue(gemini.Slow(3*time.Second, gemini.JSON(bike)))
	started := time.Now()
	_, _, err := h.svc.Analyze(context.Background(), visitor, photo(t, 30), "")
	f, ok := domain.AsAIFailure(err)
	if !ok || f.Reason != domain.ReasonTimeout {
		t.Fatalf("err %v", err)
	}
	if elapsed := time.Since(started); elapsed > 2*time.Second {
		t.Fatalf("took %s with a 300ms timeout", elapsed)
	}
	if h.fake.Calls() != 1 {
		t.Fatalf("a timeout was retried: %d calls", h.fake.Calls())
	}
	if got := testutil.ToFloat64(h.metrics.Failures.WithLabelValues("analyze", "timeout")); got != 1 {
		t.Fatalf("timeout failures %v", got)
	}
}

func TestWithoutAKeyTheFallbackIsAnswered(t *testing.T) {
	h := start(t, testConfig(), false)
	ctx := context.Background()
	a, outcome, err := h.svc.Analyze(ctx, visitor, photo(t, 40), "")
	if err != nil || outcome != app.OutcomeFallback {
		t.Fatalf("%v %s", err, outcome)
	}
	if a.Name != "Gift Item" || a.Category != "Gifts" || a.SearchQuery != "holiday gift" || a.Source != "fallback" || a.ID == "" {
		t.Fatalf("%+v", a)
	}
	g, _, _ := h.svc.GenerateGift(ctx, visitor, "a kite", nil)
	if g.Name != "Wishlist Item" || g.Price != "$0.00" || g.Source != "fallback" {
		t.Fatalf("%+v", g)
	}
	it, _, _ := h.svc.GenerateItem(ctx, visitor, "a kite", nil)
	if it.Category != "other" || it.Source != "fallback" {
		t.Fatalf("%+v", it)
	}
	if h.fake.Calls() != 0 {
		t.Fatal("Gemini was called without a key")
	}
}

func TestQuotaStoreDownRefusesTheCall(t *testing.T) {
	cfg := testConfig()
	fake := gemini.Start(t, apiKey)
	down, err := adapters.NewRedis("redis://127.0.0.1:1/0", "x:")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := adapters.NewGemini(context.Background(), adapters.GeminiConfig{APIKey: apiKey, Model: cfg.Model, BaseURL: fake.URL})
	svc := app.New(g, down, down, cfg, app.NewMetrics(prometheus.NewRegistry()), slog.New(slog.DiscardHandler))
	// Short, so the test does not wait out the Redis client's dial retries.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, _, err = svc.GenerateGift(ctx, visitor, "a kite", nil)
	if !errors.Is(err, app.ErrQuotaUnavailable) || fake.Calls() != 0 {
		t.Fatalf("%v, %d calls", err, fake.Calls())
	}
}
