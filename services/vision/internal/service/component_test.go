package service_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/fakes/gemini"
	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/vision/internal/adapters"
	"github.com/santa-wishlist/santa/services/vision/internal/app"
	"github.com/santa-wishlist/santa/services/vision/internal/service"
)

const apiKey = "component-test-key"

// harness is the vision service built by the same wiring as main, on the fake Gemini and
// the test Redis under its own key prefix, called over HTTP.
type harness struct {
	t    *testing.T
	url  string
	fake *gemini.Server
}

type option func(*service.Config)

func withoutKey(c *service.Config) { c.Gemini.APIKey = "" }

func start(t *testing.T, opts ...option) *harness {
	t.Helper()
	fake := gemini.Start(t, apiKey)
	cfg := service.Config{
		RedisURL:  testenv.RedisURL(),
		KeyPrefix: "vision-componenttest:" + testenv.RandomHex(6) + ":",
		Gemini:    adapters.GeminiConfig{APIKey: apiKey, Model: "gemini-2.5-flash", BaseURL: fake.URL},
		App:       app.Defaults(),
		Server:    httpserver.Options{Service: "vision", Addr: "127.0.0.1:0"},
		Identity:  testenv.IdentityVerifier("vision"),
	}
	cfg.App.Timeout = 300 * time.Millisecond
	cfg.App.RetryBaseDelay = 5 * time.Millisecond
	cfg.App.RetryMaxDelay = 50 * time.Millisecond
	for _, o := range opts {
		o(&cfg)
	}
	keys, err := adapters.NewRedis(cfg.RedisURL, cfg.KeyPrefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = keys.Purge(context.Background())
		_ = keys.Close()
	})
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := service.Build(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Engine)
	t.Cleanup(func() {
		ts.Close()
		cancel()
		_ = srv.Run(ctx) // with a finished context: the shutdown path, closing Redis
	})
	return &harness{t: t, url: ts.URL, fake: fake}
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("status %d, body %s: %v", r.status, r.body, err)
	}
}

func (r response) apiError(t *testing.T) httpserver.ErrorDetail {
	t.Helper()
	var b httpserver.ErrorBody
	r.json(t, &b)
	return b.Error
}

// do sends a request as the gateway would: the user an "X-User-Id" entry of header names
// (none: a visitor) travels in a signed assertion.
func (h *harness) do(method, path, contentType string, body io.Reader, header map[string]string) response {
	h.t.Helper()
	pairs := []string{auth.HeaderIdentity, testenv.Assertion(h.t, "vision", header["X-User-Id"], method, urlPath(h.t, path))}
	if contentType != "" {
		pairs = append(pairs, "Content-Type", contentType)
	}
	for k, v := range header {
		if k != "X-User-Id" {
			pairs = append(pairs, k, v)
		}
	}
	r := testenv.NewClient(h.t, h.url).Do(method, path, body, pairs...)
	return response{r.Status, r.Header, r.Body}
}

// upload posts the image as the browser's form would, with a file name and type of its
// choosing.
func (h *harness) upload(data []byte, claimedType, prompt string, header map[string]string) response {
	h.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if prompt != "" {
		_ = w.WriteField("prompt", prompt)
	}
	if data != nil {
		part, err := w.CreatePart(textproto.MIMEHeader{
			"Content-Disposition": {`form-data; name="image"; filename="gift.jpg"`},
			"Content-Type":        {claimedType},
		})
		if err != nil {
			h.t.Fatal(err)
		}
		_, _ = part.Write(data)
	}
	_ = w.Close()
	return h.do(http.MethodPost, "/api/vision/analyze", w.FormDataContentType(), &buf, header)
}

func (h *harness) postJSON(path string, v any, header map[string]string) response {
	h.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		h.t.Fatal(err)
	}
	return h.do(http.MethodPost, path, "application/json", bytes.NewReader(b), header)
}

func jpegPhoto(t *testing.T, seed int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for i := range 16 {
		img.Set(i, seed%16, color.RGBA{R: uint8(seed * 7), G: 200, B: uint8(i * 10), A: 255})
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func dataURL(mime string, b []byte) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(b)
}

type analysis struct {
	ID               string   `json:"id"`
	Name             string   `json:"name"`
	Description      string   `json:"description"`
	Category         string   `json:"category"`
	SearchQuery      string   `json:"searchQuery"`
	ApproximatePrice *string  `json:"approximatePrice"`
	Features         []string `json:"features"`
	Source           string   `json:"source"`
	ImageDataURL     *string  `json:"imageDataUrl"`
}

var teddy = map[string]any{
	"name": "Teddy Bear", "description": "A soft brown bear.", "category": "Toys",
	"searchQuery": "brown teddy bear", "approximatePrice": "$24.99", "features": []string{"Soft", "Washable", "Ribbon"},
}

var visitor = map[string]string{"X-Real-IP": "203.0.113.50"}

func TestAnalyzeAnUploadedPhoto(t *testing.T) {
	h := start(t)
	h.fake.Enqueue(gemini.Fenced(teddy))
	photo := jpegPhoto(t, 1)

	// The browser claims PNG; the bytes are JPEG, and Gemini is told so.
	r := h.upload(photo, "image/png", "", visitor)
	if r.status != http.StatusOK {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	var a analysis
	r.json(t, &a)
	if a.Name != "Teddy Bear" || a.Category != "Toys" || a.SearchQuery != "brown teddy bear" || a.Source != "gemini" ||
		a.ApproximatePrice == nil || *a.ApproximatePrice != "$24.99" || len(a.Features) != 3 || a.ID == "" || a.ImageDataURL != nil {
		t.Fatalf("%s", r.body)
	}
	if r.header.Get("X-Vision-Cache") != "miss" {
		t.Fatalf("cache header %q", r.header.Get("X-Vision-Cache"))
	}
	req := h.fake.Requests()[0]
	if imgs := req.Images(); len(imgs) != 1 || imgs[0].MimeType != "image/jpeg" || imgs[0].Data != base64.StdEncoding.EncodeToString(photo) {
		t.Fatalf("inline data %+v", req.Images())
	}
	gc := req.Body.GenerationConfig
	if *gc.Temperature != 0.2 || *gc.MaxOutputTokens != 800 {
		t.Fatalf("generation config %+v", gc)
	}
	for _, want := range []string{"name", "description", "category", "searchQuery", "approximatePrice", "features", "under 30 characters", "1-2 sentences", "3 to 5"} {
		if !strings.Contains(req.Prompt(), want) {
			t.Errorf("prompt lacks %q", want)
		}
	}

	// The same photo again, as a data URL from another visitor: no second Gemini call.
	r = h.postJSON("/api/vision/analyze", map[string]string{"image": dataURL("image/jpeg", photo)},
		map[string]string{"X-Forwarded-For": "198.51.100.9"})
	var again analysis
	r.json(t, &again)
	if r.status != http.StatusOK || again.Name != "Teddy Bear" || r.header.Get("X-Vision-Cache") != "hit" {
		t.Fatalf("second analysis %d %s", r.status, r.body)
	}
	if h.fake.Calls() != 1 {
		t.Fatalf("%d Gemini calls for the same photo twice", h.fake.Calls())
	}
}

func TestAnalyzeWithACustomPrompt(t *testing.T) {
	h := start(t)
	h.fake.Enqueue(gemini.JSON(teddy))
	r := h.postJSON("/api/vision/analyze", map[string]string{
		"image": dataURL("image/jpeg", jpegPhoto(t, 2)), "prompt": "Mention the colour of the ribbon.",
	}, visitor)
	if r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if p := h.fake.Requests()[0].Prompt(); !strings.Contains(p, "Mention the colour of the ribbon.") || !strings.Contains(p, "searchQuery") {
		t.Fatalf("prompt %q", p)
	}
}

func TestReplyShapesOverHTTP(t *testing.T) {
	tests := []struct {
		name    string
		reply   gemini.Reply
		status  int
		message string // error message, or the answer's name
	}{
		{"well-formed", gemini.JSON(teddy), 200, "Teddy Bear"},
		{"fenced", gemini.Fenced(teddy), 200, "Teddy Bear"},
		{"missing fields", gemini.JSON(map[string]any{}), 200, "Unknown Product"},
		{"prose", gemini.Text("A teddy bear, I think."), 502, "Failed to parse the AI response. The response format was invalid."},
		{"no candidates", gemini.NoCandidates(), 502, "No response from Gemini API"},
		{"no text", gemini.NoText(), 502, "No valid response from Gemini API for image analysis"},
		{"server error", gemini.Error(500), 502, "Gemini API error (500)"},
		{"forbidden", gemini.Error(403), 502, "Gemini API error (403)"},
		{"slow", gemini.Slow(3*time.Second, gemini.JSON(teddy)), 504, "Gemini API did not answer in time. Please try again."},
	}
	h := start(t)
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h.fake.Reset()
			// Retried statuses fail every attempt.
			h.fake.Always(tc.reply)
			r := h.upload(jpegPhoto(t, 100+i), "image/jpeg", "", visitor)
			if r.status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.body)
			}
			if tc.status == 200 {
				var a analysis
				r.json(t, &a)
				if a.Name != tc.message {
					t.Fatalf("name %q", a.Name)
				}
				return
			}
			if e := r.apiError(t); e.Message != tc.message {
				t.Fatalf("message %q, want %q", e.Message, tc.message)
			}
		})
	}
}

func TestRetriedThenAnswered(t *testing.T) {
	h := start(t)
	h.fake.Enqueue(gemini.Error(429), gemini.Error(503), gemini.JSON(teddy))
	r := h.upload(jpegPhoto(t, 3), "image/jpeg", "", visitor)
	if r.status != http.StatusOK || h.fake.Calls() != 3 {
		t.Fatalf("%d after %d calls: %s", r.status, h.fake.Calls(), r.body)
	}
}

func TestGenerateGiftAndItem(t *testing.T) {
	h := start(t)
	h.fake.Enqueue(gemini.Text("Sure!\nName: Toy Racing Car\nDescription: A fast red car.\nPrice: $12.99"))
	r := h.postJSON("/api/vision/generate", map[string]string{"prompt": "a red toy car", "mode": "gift"}, visitor)
	var gift map[string]string
	r.json(t, &gift)
	if r.status != 200 || gift["name"] != "Toy Racing Car" || gift["price"] != "$12.99" || gift["source"] != "gemini" {
		t.Fatalf("%d %s", r.status, r.body)
	}

	// The editor may send its decorated photo along.
	photo := jpegPhoto(t, 4)
	h.fake.Enqueue(gemini.JSON(map[string]string{"name": "Snow Globe", "description": "Glass and snow.", "price": "$15"}))
	r = h.postJSON("/api/vision/generate", map[string]string{"image": dataURL("image/jpeg", photo)}, visitor)
	r.json(t, &gift)
	if r.status != 200 || gift["name"] != "Snow Globe" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if imgs := h.fake.Requests()[1].Images(); len(imgs) != 1 || imgs[0].MimeType != "image/jpeg" {
		t.Fatalf("editor photo not sent: %+v", imgs)
	}

	h.fake.Enqueue(gemini.JSON(map[string]any{"name": "Headphones", "description": "Wireless.", "price": "$80", "category": "Electronics"}))
	r = h.postJSON("/api/vision/generate", map[string]string{"prompt": "Wireless over-ear headphones", "mode": "item"}, visitor)
	var item map[string]string
	r.json(t, &item)
	if r.status != 200 || item["category"] != "electronics" || item["estimatedPrice"] != "$80" || item["price"] != "$80" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if p := h.fake.Requests()[2].Prompt(); !strings.Contains(p, "toy, electronics, clothing, accessory, other") {
		t.Fatalf("item prompt %q", p)
	}

	h.fake.Enqueue(gemini.Text("no json"))
	r = h.postJSON("/api/vision/generate", map[string]string{"prompt": "something", "mode": "item"}, visitor)
	if r.status != 502 || r.apiError(t).Message != "Failed to parse the AI response. The response format was invalid." {
		t.Fatalf("%d %s", r.status, r.body)
	}
}

func TestBadInputIsRefusedWithA4xx(t *testing.T) {
	h := start(t)
	gif := []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")
	huge := append(jpegPhoto(t, 5), make([]byte, 8<<20)...)
	tests := []struct {
		name    string
		do      func() response
		status  int
		message string
	}{
		{"no image in the form", func() response { return h.upload(nil, "", "just a prompt", visitor) }, 400, "Please select an image first"},
		{"empty JSON image", func() response { return h.postJSON("/api/vision/analyze", map[string]string{"image": ""}, visitor) }, 400, "Please select an image first"},
		{"a text file", func() response { return h.upload([]byte("hello, not a picture"), "image/jpeg", "", visitor) }, 415, "Please select an image file"},
		{"a text data URL", func() response {
			return h.postJSON("/api/vision/analyze", map[string]string{"image": "data:text/plain;base64,aGVsbG8="}, visitor)
		}, 415, "Please select an image file"},
		{"GIF", func() response { return h.upload(gif, "image/gif", "", visitor) }, 415, "This image type is not supported. Please use a JPEG, PNG or WebP image."},
		{"too large upload", func() response { return h.upload(huge, "image/jpeg", "", visitor) }, 413, "The image is too large. Please use an image of at most 8 MB."},
		{"too large data URL", func() response {
			return h.postJSON("/api/vision/analyze", map[string]string{"image": dataURL("image/jpeg", huge)}, visitor)
		}, 413, ""},
		{"broken base64", func() response {
			return h.postJSON("/api/vision/analyze", map[string]string{"image": "data:image/jpeg;base64,!!!"}, visitor)
		}, 400, "The image could not be read. Send it as a data URL such as data:image/jpeg;base64,..."},
		{"plain text body", func() response {
			return h.do(http.MethodPost, "/api/vision/analyze", "text/plain", strings.NewReader("hi"), visitor)
		}, 415, ""},
		{"malformed JSON", func() response {
			return h.do(http.MethodPost, "/api/vision/analyze", "application/json", strings.NewReader("{"), visitor)
		}, 400, "The request body is not valid JSON."},
		{"broken multipart", func() response {
			return h.do(http.MethodPost, "/api/vision/analyze", "multipart/form-data; boundary=xyz", strings.NewReader("--xyz\r\nnot a part"), visitor)
		}, 400, ""},
		{"prompt too long", func() response {
			return h.postJSON("/api/vision/analyze", map[string]string{"image": dataURL("image/jpeg", jpegPhoto(t, 6)), "prompt": strings.Repeat("a", 2001)}, visitor)
		}, 400, "The prompt must be at most 2000 characters."},
		{"unknown mode", func() response {
			return h.postJSON("/api/vision/generate", map[string]string{"prompt": "x", "mode": "poem"}, visitor)
		}, 400, `The mode must be "gift" or "item".`},
		{"gift without prompt or photo", func() response {
			return h.postJSON("/api/vision/generate", map[string]string{"mode": "gift"}, visitor)
		}, 400, "Please describe the gift or add a photo."},
		{"item without analysis", func() response {
			return h.postJSON("/api/vision/generate", map[string]string{"prompt": "  ", "mode": "item"}, visitor)
		}, 400, "Please analyze an image first"},
		{"generate with a non-image", func() response {
			return h.postJSON("/api/vision/generate", map[string]string{"prompt": "x", "image": "data:image/png;base64,aGVsbG8="}, visitor)
		}, 415, "Please select an image file"},
		{"wrong field type", func() response {
			return h.do(http.MethodPost, "/api/vision/generate", "application/json", strings.NewReader(`{"prompt": 5}`), visitor)
		}, 400, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.do()
			if r.status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.body)
			}
			e := r.apiError(t)
			if e.Code == "" || e.Message == "" || (tc.message != "" && e.Message != tc.message) {
				t.Fatalf("error %+v, want message %q", e, tc.message)
			}
		})
	}
	if h.fake.Calls() != 0 {
		t.Fatalf("bad input reached Gemini %d times", h.fake.Calls())
	}
}

func TestQuotaAnswers429WithRetryAfter(t *testing.T) {
	h := start(t, func(c *service.Config) { c.App.QuotaPerUser, c.App.QuotaPerIP = 2, 3 })
	alice := map[string]string{"X-User-Id": "alice", "X-Real-IP": "192.0.2.44"}
	for i := range 2 {
		if r := h.postJSON("/api/vision/generate", map[string]string{"prompt": fmt.Sprintf("gift %d", i)}, alice); r.status != 200 {
			t.Fatalf("call %d: %d %s", i+1, r.status, r.body)
		}
	}
	r := h.postJSON("/api/vision/generate", map[string]string{"prompt": "gift 3"}, alice)
	if r.status != http.StatusTooManyRequests {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	retry, err := strconv.Atoi(r.header.Get("Retry-After"))
	now := time.Now().UTC()
	untilMidnight := time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC).Sub(now)
	if err != nil || retry < 1 || time.Duration(retry)*time.Second > untilMidnight+2*time.Second {
		t.Fatalf("Retry-After %q (midnight in %s)", r.header.Get("Retry-After"), untilMidnight)
	}
	if e := r.apiError(t); e.Code != "quota_exceeded" || e.Message != "You have used all 2 AI requests for today. Please try again tomorrow." {
		t.Fatalf("%+v", e)
	}
	// An answer already cached is still given.
	if r := h.postJSON("/api/vision/generate", map[string]string{"prompt": "gift 0"}, alice); r.status != 200 || r.header.Get("X-Vision-Cache") != "hit" {
		t.Fatalf("cached answer after quota: %d", r.status)
	}
	// A visitor on the same address takes its last call, then the address is spent.
	if r := h.postJSON("/api/vision/generate", map[string]string{"prompt": "gift 4"}, map[string]string{"X-Real-IP": "192.0.2.44"}); r.status != 200 {
		t.Fatalf("visitor: %d %s", r.status, r.body)
	}
	r = h.postJSON("/api/vision/generate", map[string]string{"prompt": "gift 5"}, map[string]string{"X-Forwarded-For": "10.0.0.1, 192.0.2.44"})
	if r.status != 429 || !strings.Contains(r.apiError(t).Message, "from your network") {
		t.Fatalf("address quota: %d %s", r.status, r.body)
	}
	// Another address is not affected.
	if r := h.postJSON("/api/vision/generate", map[string]string{"prompt": "gift 6"}, map[string]string{"X-Real-IP": "192.0.2.45"}); r.status != 200 {
		t.Fatalf("other address: %d %s", r.status, r.body)
	}
	if h.fake.Calls() != 4 {
		t.Fatalf("%d Gemini calls, want 4", h.fake.Calls())
	}
}

func TestWithoutAKeyTheFallbackItemIsAnswered(t *testing.T) {
	h := start(t, withoutKey)
	r := h.upload(jpegPhoto(t, 7), "image/jpeg", "", visitor)
	var a analysis
	r.json(t, &a)
	if r.status != 200 || a.Name != "Gift Item" || a.Category != "Gifts" || a.SearchQuery != "holiday gift" || a.Source != "fallback" ||
		!strings.Contains(a.Description, "not configured") || r.header.Get("X-Vision-Cache") != "fallback" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	r = h.postJSON("/api/vision/generate", map[string]string{"prompt": "a kite"}, visitor)
	var gift map[string]string
	r.json(t, &gift)
	if r.status != 200 || gift["name"] != "Wishlist Item" || gift["description"] != "A gift item from your wishlist" || gift["source"] != "fallback" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	// Bad input is still refused.
	if r := h.upload([]byte("not an image"), "image/png", "", visitor); r.status != 415 {
		t.Fatalf("bad input without a key: %d", r.status)
	}
	if h.fake.Calls() != 0 {
		t.Fatal("Gemini called without a key")
	}
}

func TestMetricsAndHealth(t *testing.T) {
	h := start(t)
	r := h.do(http.MethodGet, "/metrics", "", nil, nil)
	for _, want := range []string{
		`gemini_calls_total{kind="analyze"} 0`,
		`gemini_calls_total{kind="gift"} 0`,
		`gemini_failures_total{kind="analyze",reason="timeout"} 0`,
		`vision_cache_hits_total 0`,
	} {
		if !strings.Contains(string(r.body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	h.fake.Enqueue(gemini.JSON(teddy))
	photo := jpegPhoto(t, 8)
	h.upload(photo, "image/jpeg", "", visitor)
	h.upload(photo, "image/jpeg", "", visitor)
	r = h.do(http.MethodGet, "/metrics", "", nil, nil)
	for _, want := range []string{`gemini_calls_total{kind="analyze"} 1`, `vision_cache_hits_total 1`} {
		if !strings.Contains(string(r.body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if r := h.do(http.MethodGet, "/readyz", "", nil, nil); r.status != 200 {
		t.Fatalf("readyz %d %s", r.status, r.body)
	}
}

// urlPath is path's path as the service reads it (decoded, without the query).
func urlPath(t *testing.T, path string) string {
	u, err := url.Parse(path)
	if err != nil {
		t.Fatal(err)
	}
	return u.Path
}
