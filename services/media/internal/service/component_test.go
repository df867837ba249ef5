package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/santa-wishlist/santa/fakes/miniotest"
	"github.com/santa-wishlist/santa/fakes/testimages"
	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/mediaurl"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/media/internal/adapters"
	"github.com/santa-wishlist/santa/services/media/internal/app"
	"github.com/santa-wishlist/santa/services/media/internal/service"
)

// newItemID returns a fresh item id. The stream is shared and keeps its events for days, so a
// fixed id would let old item.deleted events, replayed to each new consumer, delete this
// test's objects.
func newItemID() string { return uuid.NewString() }

// harness is the media service built by the same wiring as main, on its own MinIO bucket
// and its own JetStream server, called over HTTP.
type harness struct {
	t        *testing.T
	url      string
	store    *adapters.MinIOStore
	js       jetstream.JetStream
	consumer string
}

func start(t *testing.T, options ...func(*service.Config)) *harness {
	t.Helper()
	// The shared JetStream server (Debian's 2.9 on developer machines and CI), as in
	// production, with a durable consumer of this test's own; it is removed at the end.
	natsURL := testenv.SharedNATSURL()
	consumer := "media-item-deleted-test-" + testenv.RandomHex(6)
	minioCfg := adapters.MinIOConfig(miniotest.Bucket(t))
	store, err := adapters.NewMinIOStore(minioCfg)
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cfg := service.Config{
		MinIO:        minioCfg,
		NATSURL:      natsURL,
		MaxBytes:     service.DefaultMaxBytes,
		ConsumerName: consumer,
		Server:       httpserver.Options{Service: "media", Addr: "127.0.0.1:0"},
		Identity:     testenv.IdentityVerifier("media"),
		URLs:         testenv.MediaURLSigner(),
	}
	for _, o := range options {
		o(&cfg)
	}
	srv, err := service.Build(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		cancel()
		t.Fatalf("build (needs MinIO and NATS at %s): %v", natsURL, err)
	}
	ts := httptest.NewServer(srv.Engine)

	nc, js, err := events.Connect(natsURL, "media-test", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ts.Close()
		// Run with a finished context is the server's shutdown path: it runs the
		// OnShutdown steps (stop the consumer, drain NATS).
		cancel()
		_ = srv.Run(ctx)
		dctx, dcancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer dcancel()
		if err := js.DeleteConsumer(dctx, events.StreamName, consumer); err != nil {
			t.Logf("delete consumer %s: %v", consumer, err)
		}
		nc.Close()
	})
	return &harness{t: t, url: ts.URL, store: store, js: js, consumer: consumer}
}

// handled waits until the test's consumer has acknowledged (or terminated) every event up
// to stream sequence seq. The shared stream holds other tests' events too, so progress is
// tracked by sequence rather than by counting.
func (h *harness) handled(seq uint64) {
	h.t.Helper()
	testenv.Eventually(h.t, 15*time.Second, func() error {
		c, err := h.js.Consumer(context.Background(), events.StreamName, h.consumer)
		if err != nil {
			return err
		}
		info, err := c.Info(context.Background())
		if err != nil {
			return err
		}
		if info.AckFloor.Stream < seq {
			return fmt.Errorf("consumer acked up to %d, waiting for %d", info.AckFloor.Stream, seq)
		}
		return nil
	})
}

// in returns the harness reporting to a subtest.
func (h *harness) in(t *testing.T) *harness {
	c := *h
	c.t = t
	return &c
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) apiError() httpserver.ErrorDetail {
	var b httpserver.ErrorBody
	_ = json.Unmarshal(r.body, &b)
	return b.Error
}

func (r response) stored(t *testing.T) app.Stored {
	t.Helper()
	if r.status != http.StatusCreated {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	var s app.Stored
	if err := json.Unmarshal(r.body, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// do sends a request as the gateway would: the user named by an "X-User-Id" entry of header
// (none: a visitor) travels in a signed assertion, the wishlist's on /internal/. With a
// "raw" entry, header is sent as it is (an attacker's request, straight to the port).
// A download of a plain /media/ address is made as someone given the address would: signed
// now, as the wishlist answers it; an "unsigned" entry sends the path as it is.
func (h *harness) do(method, path string, body io.Reader, header map[string]string) response {
	h.t.Helper()
	if _, unsigned := header["unsigned"]; !unsigned && (method == http.MethodGet || method == http.MethodHead) &&
		strings.HasPrefix(path, "/media/") && !strings.Contains(path, "?") {
		path = testenv.MediaURLSigner().At(time.Now()).Sign(path)
	}
	var pairs []string
	if _, raw := header["raw"]; !raw {
		issuer := "gateway"
		if strings.HasPrefix(path, "/internal/") {
			issuer = "wishlist"
		}
		uid := header["X-User-Id"]
		target, err := url.Parse(path)
		if err != nil {
			h.t.Fatal(err)
		}
		// Bound to the path as the service reads it (decoded), as SetHeaders binds a request.
		token, err := testenv.IdentitySigner(issuer).Assert(auth.User{UID: uid}, uid != "", "media", method, target.Path)
		if err != nil {
			h.t.Fatal(err)
		}
		pairs = append(pairs, auth.HeaderIdentity, token)
	}
	for k, v := range header {
		if k != "X-User-Id" && k != "raw" && k != "unsigned" {
			pairs = append(pairs, k, v)
		}
	}
	r := testenv.NewClient(h.t, h.url).Do(method, path, body, pairs...)
	return response{r.Status, r.Header, r.Body}
}

// multipartUpload posts a file as the browser would, with a name and type it chose.
func (h *harness) multipartUpload(user, filename, claimedType string, data []byte, fields map[string]string) response {
	h.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		_ = w.WriteField(k, v)
	}
	part, err := w.CreatePart(textproto.MIMEHeader{
		"Content-Disposition": {fmt.Sprintf(`form-data; name="image"; filename=%q`, filename)},
		"Content-Type":        {claimedType},
	})
	if err != nil {
		h.t.Fatal(err)
	}
	_, _ = part.Write(data)
	_ = w.Close()
	header := map[string]string{"Content-Type": w.FormDataContentType()}
	if user != "" {
		header["X-User-Id"] = user
	}
	return h.do(http.MethodPost, "/api/media", &buf, header)
}

const multipartBoundary = "santa-test-boundary"

var multipartType = "multipart/form-data; boundary=" + multipartBoundary

// multipartBody is a form with one "image" part; for bodies sent without a length.
func multipartBody(t *testing.T, data []byte) io.Reader {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if err := w.SetBoundary(multipartBoundary); err != nil {
		t.Fatal(err)
	}
	part, _ := w.CreateFormFile("image", "big.jpg")
	_, _ = part.Write(data)
	_ = w.Close()
	return &buf
}

func (h *harness) jsonUpload(path, user string, body map[string]string) response {
	h.t.Helper()
	data, _ := json.Marshal(body)
	header := map[string]string{"Content-Type": "application/json"}
	if user == "" {
		user = body["userId"] // the wishlist's call: it asserts the item's owner
	}
	if user != "" {
		header["X-User-Id"] = user
	}
	return h.do(http.MethodPost, path, bytes.NewReader(data), header)
}

func decodeSize(t *testing.T, data []byte) (int, int, string) {
	t.Helper()
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Width, cfg.Height, format
}

func TestUploadedPhotoIsServedWithoutEXIFAndWithAThumbnail(t *testing.T) {
	h := start(t)
	photo := testimages.WithEXIF(testimages.PhotoJPEG(1600, 1200, 5), 0)
	stored := h.multipartUpload("user-1", "IMG_0001.jpg", "image/jpeg", photo, nil).stored(t)

	if !strings.HasPrefix(stored.URL, "/media/items/unattached/") || stored.ContentType != "image/jpeg" ||
		stored.Width != 1600 || stored.Height != 1200 || stored.Bytes == 0 {
		t.Fatalf("answer %+v", stored)
	}
	img := h.do(http.MethodGet, stored.URL, nil, nil)
	if img.status != http.StatusOK || img.header.Get("Content-Type") != "image/jpeg" || len(img.body) != stored.Bytes {
		t.Fatalf("GET image: %d %s, %d bytes", img.status, img.header.Get("Content-Type"), len(img.body))
	}
	if left := testimages.MetadataLeft(img.body); len(left) > 0 {
		t.Fatalf("served image still carries metadata: %v", left)
	}

	thumb := h.do(http.MethodGet, stored.ThumbnailURL, nil, nil)
	w, hgt, format := decodeSize(t, thumb.body)
	if thumb.status != http.StatusOK || format != "jpeg" || w != 320 || hgt != 240 {
		t.Fatalf("thumbnail: %d %s %dx%d", thumb.status, format, w, hgt)
	}
	if left := testimages.MetadataLeft(thumb.body); len(left) > 0 {
		t.Fatalf("thumbnail carries metadata: %v", left)
	}
}

func TestUploadsAreRefusedWithClearErrors(t *testing.T) {
	h := start(t)
	tenMB := bytes.Repeat([]byte{0xFF, 0xD8, 0xFF, 0xE0}, 10_000_000/4)
	svg := []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>`)

	cases := []struct {
		name    string
		resp    response
		status  int
		code    string
		message string
	}{
		{"10 MB file", h.multipartUpload("user-1", "huge.jpg", "image/jpeg", tenMB, nil),
			413, "image_too_large", "The image is too large: the limit is 8 MiB."},
		{"10 MB data URL without Content-Length", h.do(http.MethodPost, "/internal/media",
			io.MultiReader(strings.NewReader(`{"userId":"user-1","dataUrl":"`+testimages.DataURL("image/jpeg", tenMB)+`"}`)),
			map[string]string{"Content-Type": "application/json", "X-User-Id": "user-1"}),
			413, "image_too_large", "The image is too large: the limit is 8 MiB."},
		{"10 MB file without Content-Length", h.do(http.MethodPost, "/api/media", io.MultiReader(multipartBody(t, tenMB)),
			map[string]string{"Content-Type": multipartType, "X-User-Id": "user-1"}),
			413, "image_too_large", "The image is too large: the limit is 8 MiB."},
		{"10 MB data URL", h.jsonUpload("/internal/media", "", map[string]string{
			"dataUrl": testimages.DataURL("image/jpeg", tenMB), "userId": "user-1"}),
			413, "image_too_large", "The image is too large: the limit is 8 MiB."},
		{"text file named .jpg", h.multipartUpload("user-1", "holiday.jpg", "image/jpeg", []byte("Dear Santa, this is not a photo."), nil),
			415, "unsupported_image_type", "Only JPEG, PNG, WebP or GIF images are accepted."},
		{"SVG upload", h.multipartUpload("user-1", "star.svg", "image/svg+xml", svg, nil),
			415, "unsupported_image_type", "Only JPEG, PNG, WebP or GIF images are accepted."},
		{"SVG data URL claiming PNG", h.jsonUpload("/api/media", "user-1", map[string]string{
			"dataUrl": testimages.DataURL("image/png", svg)}),
			415, "unsupported_image_type", "Only JPEG, PNG, WebP or GIF images are accepted."},
		{"broken JPEG", h.multipartUpload("user-1", "broken.jpg", "image/jpeg", testimages.PhotoJPEG(200, 200, 1)[:300], nil),
			422, "corrupt_image", "The image could not be read; it may be damaged or incomplete."},
		{"not signed in", h.multipartUpload("", "a.jpg", "image/jpeg", testimages.PhotoJPEG(8, 8, 1), nil),
			401, "unauthenticated", "Please sign in to upload images."},
		{"internal call without user", h.jsonUpload("/internal/media", "", map[string]string{
			"dataUrl": testimages.DataURL("image/jpeg", testimages.PhotoJPEG(8, 8, 1))}),
			401, "unauthenticated", "Please sign in to upload images."},
		{"item id not a UUID", h.multipartUpload("user-1", "a.jpg", "image/jpeg", testimages.PhotoJPEG(8, 8, 1), map[string]string{"itemId": "../../etc"}),
			400, "invalid_item_id", "itemId must be a UUID."},
		{"not a data URL", h.jsonUpload("/api/media", "user-1", map[string]string{"dataUrl": "https://example.com/a.jpg"}),
			400, "invalid_data_url", "dataUrl must be a base64 data: URL such as data:image/jpeg;base64,..."},
		{"no dataUrl", h.jsonUpload("/api/media", "user-1", map[string]string{"itemId": newItemID()}),
			400, "missing_image", "dataUrl is required."},
		{"plain text body", h.do(http.MethodPost, "/api/media", strings.NewReader("hi"), map[string]string{"Content-Type": "text/plain", "X-User-Id": "u"}),
			415, "unsupported_request_type", `Send the image as multipart/form-data in a field named "image", or as JSON with a dataUrl.`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.resp.apiError()
			if tc.resp.status != tc.status || got.Code != tc.code || got.Message != tc.message {
				t.Fatalf("got %d %+v, want %d %s %q", tc.resp.status, got, tc.status, tc.code, tc.message)
			}
		})
	}
	// Nothing refused was stored.
	keys, err := h.store.List(context.Background(), "")
	if err != nil || len(keys) != 0 {
		t.Fatalf("objects after refusals: %v %v", keys, err)
	}
}

func TestPNGWebPAndGIFAreStored(t *testing.T) {
	h := start(t)
	itemID := newItemID()
	lossy, err := os.ReadFile("../domain/testdata/photo-480x360-lossy.webp")
	if err != nil {
		t.Fatal(err)
	}
	transparent, err := os.ReadFile("../domain/testdata/half-transparent-64x48-lossless.webp")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name        string
		data        []byte
		contentType string
		w, h        int
		thumbW      int
		thumbH      int
	}{
		{"transparent PNG", testimages.TransparentPNG(1000, 500), "image/png", 1000, 500, 320, 160},
		{"opaque WebP", lossy, "image/jpeg", 480, 360, 320, 240},
		{"transparent WebP", transparent, "image/png", 64, 48, 64, 48},
		{"GIF", testimages.GIF(300, 400), "image/png", 300, 400, 240, 320},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := h.in(t)
			// The wishlist service's call: JSON with the item and its owner.
			stored := h.jsonUpload("/internal/media", "", map[string]string{
				"dataUrl": testimages.DataURL("image/jpeg", tc.data), "itemId": itemID, "userId": "user-1",
			}).stored(t)
			if !strings.HasPrefix(stored.URL, "/media/items/"+itemID+"/") || stored.ContentType != tc.contentType ||
				stored.Width != tc.w || stored.Height != tc.h {
				t.Fatalf("answer %+v", stored)
			}
			img := h.do(http.MethodGet, stored.URL, nil, nil)
			if img.header.Get("Content-Type") != tc.contentType {
				t.Fatalf("served as %s", img.header.Get("Content-Type"))
			}
			thumb := h.do(http.MethodGet, stored.ThumbnailURL, nil, nil)
			w, hh, format := decodeSize(t, thumb.body)
			if format != "jpeg" || w != tc.thumbW || hh != tc.thumbH || max(w, hh) > 320 {
				t.Fatalf("thumbnail %s %dx%d", format, w, hh)
			}
		})
	}
}

func TestServingHeadersCachingAndNotFound(t *testing.T) {
	h := start(t)
	stored := h.multipartUpload("user-1", "a.png", "image/png", testimages.TransparentPNG(40, 30), nil).stored(t)

	first := h.do(http.MethodGet, stored.URL, nil, nil)
	etag := first.header.Get("ETag")
	want := map[string]string{
		"Content-Type":           "image/png",
		"X-Content-Type-Options": "nosniff",
		"Content-Length":         fmt.Sprint(stored.Bytes),
	}
	for k, v := range want {
		if got := first.header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if first.status != http.StatusOK || len(etag) < 3 || etag[0] != '"' {
		t.Fatalf("status %d, ETag %q", first.status, etag)
	}
	// Kept by the browser as long as the signed address lives (1 to 2 hours), not a year.
	var maxAge int
	if _, err := fmt.Sscanf(first.header.Get("Cache-Control"), "private, max-age=%d", &maxAge); err != nil ||
		maxAge <= 3600-5 || maxAge > 7200 {
		t.Errorf("Cache-Control = %q, want private with max-age the address's remaining 1-2 hours", first.header.Get("Cache-Control"))
	}

	for _, inm := range []string{etag, `"other", ` + etag, "W/" + etag, "*"} {
		again := h.do(http.MethodGet, stored.URL, nil, map[string]string{"If-None-Match": inm})
		if again.status != http.StatusNotModified || len(again.body) != 0 || again.header.Get("ETag") != etag ||
			again.header.Get("Cache-Control") == "" {
			t.Errorf("If-None-Match %s: %d, %d bytes, ETag %q", inm, again.status, len(again.body), again.header.Get("ETag"))
		}
	}
	changed := h.do(http.MethodGet, stored.URL, nil, map[string]string{"If-None-Match": `"stale"`})
	if changed.status != http.StatusOK || len(changed.body) != stored.Bytes {
		t.Errorf("stale ETag: %d, %d bytes", changed.status, len(changed.body))
	}
	head := h.do(http.MethodHead, stored.URL, nil, nil)
	if head.status != http.StatusOK || len(head.body) != 0 || head.header.Get("Content-Length") != fmt.Sprint(stored.Bytes) ||
		head.header.Get("ETag") != etag {
		t.Errorf("HEAD: %d, %v", head.status, head.header)
	}

	folder := strings.TrimSuffix(stored.URL, stored.URL[strings.LastIndex(stored.URL, "/")+1:])
	for _, path := range []string{
		"/media/", "/media/items/", folder,
		"/media/items/unattached/00000000000000000000000000000000.jpg",
		"/media/items/unattached/../../" + strings.TrimPrefix(stored.URL, "/media/"),
		"/media/items/%2e%2e/x.jpg",
	} {
		r := h.do(http.MethodGet, path, nil, nil)
		if r.status != http.StatusNotFound || r.apiError().Code != "not_found" {
			t.Errorf("GET %s: %d %s", path, r.status, r.body)
		}
	}
	if r := h.do(http.MethodGet, "/media/items/unattached/00000000000000000000000000000000.jpg", nil,
		map[string]string{"If-None-Match": "*"}); r.status != http.StatusNotFound {
		t.Errorf("If-None-Match * on a missing key: %d", r.status)
	}
}

func TestDeletingAnItemRemovesItsObjectsOnceAndOnlyOnce(t *testing.T) {
	h := start(t)
	itemID := newItemID()
	attached := h.jsonUpload("/internal/media", "", map[string]string{
		"dataUrl": testimages.DataURL("image/jpeg", testimages.PhotoJPEG(300, 200, 1)), "itemId": itemID, "userId": "user-1",
	}).stored(t)
	// Uploaded before the item existed, then used as its imageUrl.
	early := h.multipartUpload("user-1", "early.jpg", "image/jpeg", testimages.PhotoJPEG(300, 200, 2), nil).stored(t)
	// Someone else's image that must survive.
	other := h.multipartUpload("user-2", "other.jpg", "image/jpeg", testimages.PhotoJPEG(300, 200, 3), nil).stored(t)

	publish := func(item, imageURL string) uint64 {
		t.Helper()
		env, err := events.NewEnvelope(events.TypeItemDeleted, "user-1", map[string]any{
			"id": item, "name": "Toy Racing Car", "imageUrl": imageURL, "wishlistCount": 0,
		})
		if err != nil {
			t.Fatal(err)
		}
		payload, _ := json.Marshal(env)
		ack, err := h.js.Publish(context.Background(), env.Type, payload, jetstream.WithMsgID(env.ID))
		if err != nil {
			t.Fatal(err)
		}
		return ack.Sequence
	}
	gone := func(url string) error {
		// HEAD: a GET racing the deletion may be cut off mid-body.
		r := h.do(http.MethodHead, url, nil, nil)
		if r.status != http.StatusNotFound {
			return fmt.Errorf("%s still answers %d", url, r.status)
		}
		return nil
	}

	h.handled(publish(itemID, early.URL))
	for _, u := range []string{attached.URL, attached.ThumbnailURL, early.URL, early.ThumbnailURL} {
		if err := gone(u); err != nil {
			t.Error(err)
		}
	}
	if deleted := metricValue(t, h, "media_objects_deleted_total"); deleted != 4 {
		t.Fatalf("media_objects_deleted_total = %v, want 4", deleted)
	}

	// The same deletion announced again (as after a lost ack) changes nothing, and an event
	// whose imageUrl points at someone else's image leaves it alone.
	publish(itemID, early.URL)
	h.handled(publish(itemID, other.URL))
	if r := h.do(http.MethodHead, other.URL, nil, nil); r.status != http.StatusOK {
		t.Fatalf("another user's image: %d", r.status)
	}
	if got := metricValue(t, h, "media_objects_deleted_total"); got != 4 {
		t.Fatalf("media_objects_deleted_total after redelivery = %v, want 4", got)
	}
	okSeries := fmt.Sprintf(`events_processed_total{consumer=%q,result="ok"}`, h.consumer)
	if ok := metricValue(t, h, okSeries); ok < 3 {
		t.Fatalf("%s = %v, want at least our 3", okSeries, ok)
	}

	// An event that can never be handled is terminated, not retried forever.
	h.handled(publish("not-a-uuid", ""))
	poisonSeries := fmt.Sprintf(`events_processed_total{consumer=%q,result="poison"}`, h.consumer)
	if n := metricValue(t, h, poisonSeries); n < 1 {
		t.Fatalf("%s = %v", poisonSeries, n)
	}
	if n := metricValue(t, h, fmt.Sprintf(`events_processed_total{consumer=%q,result="retry"}`, h.consumer)); n != 0 {
		t.Fatalf("%v events were retried", n)
	}
}

func TestHealthReadinessAndMetrics(t *testing.T) {
	h := start(t)
	if r := h.do(http.MethodGet, "/readyz", nil, nil); r.status != http.StatusOK {
		t.Fatalf("readyz: %d %s", r.status, r.body)
	}
	h.multipartUpload("user-1", "a.gif", "image/gif", testimages.GIF(20, 20), nil).stored(t)
	if got := metricValue(t, h, "media_bytes_stored_total"); got <= 0 {
		t.Fatalf("media_bytes_stored_total = %v", got)
	}
	// The consumer's lag is first reported once its first info call returns.
	testenv.Eventually(t, 10*time.Second, func() error {
		body := string(h.do(http.MethodGet, "/metrics", nil, nil).body)
		for _, name := range []string{"media_objects_deleted_total", "events_consumer_pending{consumer=\"" + h.consumer + "\"}",
			`http_requests_total{method="POST",route="/api/media",service="media",status="201"}`} {
			if !strings.Contains(body, name) {
				return fmt.Errorf("/metrics lacks %s", name)
			}
		}
		return nil
	})
}

// metricValue reads one sample from /metrics ("name" or "name{labels}"); 0 when absent.
func metricValue(t *testing.T, h *harness, series string) float64 {
	t.Helper()
	body := string(h.do(http.MethodGet, "/metrics", nil, nil).body)
	for _, line := range strings.Split(body, "\n") {
		if rest, ok := strings.CutPrefix(line, series+" "); ok {
			var v float64
			if _, err := fmt.Sscan(rest, &v); err != nil {
				t.Fatalf("metric %s: %v", line, err)
			}
			return v
		}
	}
	return 0
}

// Reaching media's port is not enough: a forged X-User-Id, an assertion
// signed by an unknown key, one for another service, an expired one, or the gateway's on the
// wishlist's internal route are all refused with 401, and nothing is stored.
func TestForgedInternalRequestsAreRefused(t *testing.T) {
	h := start(t)
	photo := testimages.PhotoJPEG(64, 48, 1)
	assertOn := func(s *auth.IdentitySigner, aud, path string) string {
		tok, err := s.Assert(auth.User{UID: "victim"}, true, aud, http.MethodPost, path)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	assert := func(s *auth.IdentitySigner, aud string) string {
		tok, err := s.Assert(auth.User{UID: "victim"}, true, aud, http.MethodPost, "/api/media")
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	upload := func(path string, header ...string) response {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		part, _ := w.CreateFormFile("image", "a.jpg")
		_, _ = part.Write(photo)
		_ = w.Close()
		hdr := map[string]string{"raw": "", "Content-Type": w.FormDataContentType()}
		for i := 0; i+1 < len(header); i += 2 {
			hdr[header[i]] = header[i+1]
		}
		return h.do(http.MethodPost, path, &buf, hdr)
	}
	gateway := testenv.IdentitySigner("gateway")
	for name, r := range map[string]response{
		"X-User-Id alone":               upload("/api/media", "X-User-Id", "victim"),
		"X-User-Id with a garbage one":  upload("/api/media", "X-User-Id", "victim", auth.HeaderIdentity, "x.y.z"),
		"signed by an unknown key":      upload("/api/media", auth.HeaderIdentity, assert(testenv.IdentitySigner("attacker"), "media")),
		"for another service":           upload("/api/media", auth.HeaderIdentity, assert(gateway, "wishlist")),
		"expired":                       upload("/api/media", auth.HeaderIdentity, assert(gateway.WithTTL(-time.Minute), "media")),
		"gateway's on /internal/media":  upload("/internal/media", auth.HeaderIdentity, assertOn(gateway, "media", "/internal/media")),
		"made for another route":        upload("/api/media", auth.HeaderIdentity, assertOn(gateway, "media", "/api/media/elsewhere")),
		"download without an assertion": h.do(http.MethodGet, "/media/items/unattached/00000000000000000000000000000000.jpg", nil, map[string]string{"raw": ""}),
	} {
		if r.status != http.StatusUnauthorized {
			t.Errorf("%s: %d %s, want 401", name, r.status, r.body)
		}
	}
	if keys, err := h.store.List(context.Background(), "items/"); err != nil || len(keys) != 0 {
		t.Fatalf("objects stored by forged requests: %v %v", keys, err)
	}
	if r := upload("/api/media", auth.HeaderIdentity, assert(gateway, "media")); r.status != http.StatusCreated {
		t.Fatalf("the gateway's valid assertion: %d %s", r.status, r.body)
	}
	if r := h.do(http.MethodGet, "/healthz", nil, map[string]string{"raw": ""}); r.status != http.StatusOK {
		t.Fatalf("/healthz must stay open for the probes: %d", r.status)
	}
}

// publishDeleted announces item.deleted for itemID as user (a forged event when user is not
// the item's owner) and returns its stream sequence.
func (h *harness) publishDeleted(user, itemID, imageURL string) uint64 {
	h.t.Helper()
	env, err := events.NewEnvelope(events.TypeItemDeleted, user, map[string]any{
		"id": itemID, "name": "Toy Racing Car", "imageUrl": imageURL, "wishlistCount": 0,
	})
	if err != nil {
		h.t.Fatal(err)
	}
	payload, _ := json.Marshal(env)
	ack, err := h.js.Publish(context.Background(), env.Type, payload, jetstream.WithMsgID(env.ID))
	if err != nil {
		h.t.Fatal(err)
	}
	return ack.Sequence
}

// A forged item.deleted (anyone reaching NATS could publish one) naming
// another user's item deletes nothing: media checks the owner recorded with each object.
func TestAForgedItemDeletedEventDeletesNothing(t *testing.T) {
	h := start(t)
	itemID := newItemID()
	photo := h.jsonUpload("/internal/media", "", map[string]string{
		"dataUrl": testimages.DataURL("image/jpeg", testimages.PhotoJPEG(300, 200, 1)), "itemId": itemID, "userId": "alice",
	}).stored(t)
	h.handled(h.publishDeleted("mallory", itemID, photo.URL))
	for _, u := range []string{photo.URL, photo.ThumbnailURL} {
		if r := h.do(http.MethodHead, u, nil, nil); r.status != http.StatusOK {
			t.Fatalf("alice's %s after mallory's forged event: %d, want 200", u, r.status)
		}
	}
	// Alice's own deletion still removes them.
	h.handled(h.publishDeleted("alice", itemID, photo.URL))
	for _, u := range []string{photo.URL, photo.ThumbnailURL} {
		if r := h.do(http.MethodHead, u, nil, nil); r.status != http.StatusNotFound {
			t.Fatalf("%s after alice's deletion: %d, want 404", u, r.status)
		}
	}
}

// Each user's storage quota: past the count or the bytes the upload is a
// 409 storage_quota_exceeded and nothing more is stored; deleting frees the room again.
func TestStorageQuotaIsCheckedBeforeStoring(t *testing.T) {
	h := start(t, func(c *service.Config) { c.Limits.Quota = app.Quota{MaxImages: 2, MaxBytes: 50 << 20} })
	var kept []app.Stored
	for i := range 2 {
		kept = append(kept, h.multipartUpload("quota-user", "a.jpg", "image/jpeg", testimages.PhotoJPEG(320, 240, uint64(i+1)), nil).stored(t))
	}
	objects := func() int {
		keys, err := h.store.List(context.Background(), "items/")
		if err != nil {
			t.Fatal(err)
		}
		return len(keys)
	}
	before := objects()
	third := h.multipartUpload("quota-user", "c.jpg", "image/jpeg", testimages.PhotoJPEG(320, 240, 3), nil)
	if e := third.apiError(); third.status != http.StatusConflict || e.Code != "storage_quota_exceeded" ||
		!strings.Contains(e.Message, "2 photos") {
		t.Fatalf("third upload past a quota of 2: %d %+v", third.status, e)
	}
	// Through the wishlist's route too, and as JSON.
	internal := h.jsonUpload("/internal/media", "quota-user", map[string]string{
		"dataUrl": testimages.DataURL("image/jpeg", testimages.PhotoJPEG(32, 32, 4)), "itemId": newItemID()})
	if internal.status != http.StatusConflict {
		t.Fatalf("internal upload past the quota: %d %s", internal.status, internal.body)
	}
	if after := objects(); after != before {
		t.Fatalf("%d objects after refused uploads, %d before", after, before)
	}
	// Someone else is not affected.
	h.multipartUpload("other-user", "d.jpg", "image/jpeg", testimages.PhotoJPEG(32, 32, 5), nil).stored(t)

	// The wishlist discards one (an item it could not save): there is room again.
	r := h.do(http.MethodPost, "/internal/media/discard", strings.NewReader(`{"imageUrl":"`+kept[0].URL+`"}`),
		map[string]string{"Content-Type": "application/json", "X-User-Id": "quota-user"})
	if r.status != http.StatusOK {
		t.Fatalf("discard: %d %s", r.status, r.body)
	}
	h.multipartUpload("quota-user", "e.jpg", "image/jpeg", testimages.PhotoJPEG(320, 240, 6), nil).stored(t)

	// Bytes: a quota smaller than one photo refuses it after decoding, before storing.
	small := start(t, func(c *service.Config) { c.Limits.Quota = app.Quota{MaxBytes: 2000} })
	big := small.multipartUpload("bytes-user", "f.jpg", "image/jpeg", testimages.PhotoJPEG(640, 480, 7), nil)
	if big.status != http.StatusConflict || big.apiError().Code != "storage_quota_exceeded" {
		t.Fatalf("a photo larger than the byte quota: %d %s", big.status, big.body)
	}
	if keys, _ := small.store.List(context.Background(), ""); len(keys) != 0 {
		t.Fatalf("stored despite the byte quota: %v", keys)
	}
}

// Discard removes only the asserted user's own image, and only when the wishlist asks.
func TestDiscardIsTheWishlistsAndTheOwnersOnly(t *testing.T) {
	h := start(t)
	photo := h.multipartUpload("alice", "a.jpg", "image/jpeg", testimages.PhotoJPEG(64, 64, 1), nil).stored(t)
	body := `{"imageUrl":"` + photo.URL + `"}`
	if r := h.do(http.MethodPost, "/internal/media/discard", strings.NewReader(body),
		map[string]string{"Content-Type": "application/json", "X-User-Id": "mallory"}); r.status != http.StatusOK {
		t.Fatalf("mallory's discard: %d", r.status)
	}
	if r := h.do(http.MethodHead, photo.URL, nil, nil); r.status != http.StatusOK {
		t.Fatalf("alice's photo after mallory's discard: %d", r.status)
	}
	token, _ := testenv.IdentitySigner("gateway").Assert(auth.User{UID: "alice"}, true, "media", http.MethodPost, "/internal/media/discard")
	if r := h.do(http.MethodPost, "/internal/media/discard", strings.NewReader(body),
		map[string]string{"raw": "", "Content-Type": "application/json", auth.HeaderIdentity: token}); r.status != http.StatusUnauthorized {
		t.Fatalf("the gateway's assertion on /internal/media/discard: %d, want 401", r.status)
	}
}

// Unattached uploads expire: past MEDIA_UNATTACHED_TTL the sweeper removes
// an upload no item took, and keeps the one an item took (the wishlist's attach) and an item's
// own photos.
func TestUnattachedUploadsExpireUnlessAnItemTookThem(t *testing.T) {
	h := start(t, func(c *service.Config) {
		c.UnattachedTTL, c.SweepInterval = 2*time.Second, 200*time.Millisecond
	})
	forgotten := h.multipartUpload("alice", "a.jpg", "image/jpeg", testimages.PhotoJPEG(64, 48, 1), nil).stored(t)
	taken := h.multipartUpload("alice", "b.jpg", "image/jpeg", testimages.PhotoJPEG(64, 48, 2), nil).stored(t)
	itemID := newItemID()
	own := h.jsonUpload("/internal/media", "", map[string]string{
		"dataUrl": testimages.DataURL("image/jpeg", testimages.PhotoJPEG(64, 48, 3)), "itemId": itemID, "userId": "alice"}).stored(t)
	// Mallory cannot attach (and so keep, or take into an item) alice's upload: as if it did not
	// exist. The wishlist can for alice.
	attach := func(user, url string) response {
		return h.do(http.MethodPost, "/internal/media/attach", strings.NewReader(`{"imageUrl":"`+url+`","itemId":"`+itemID+`"}`),
			map[string]string{"Content-Type": "application/json", "X-User-Id": user})
	}
	if r := attach("mallory", forgotten.URL); r.status != http.StatusNotFound {
		t.Fatalf("mallory's attach: %d %s", r.status, r.body)
	}
	if r := attach("alice", taken.URL); r.status != http.StatusOK || !strings.Contains(string(r.body), `"marked":2`) {
		t.Fatalf("alice's attach: %d %s", r.status, r.body)
	}
	testenv.Eventually(t, 15*time.Second, func() error {
		if r := h.do(http.MethodHead, forgotten.URL, nil, nil); r.status != http.StatusNotFound {
			return fmt.Errorf("the forgotten upload still answers %d", r.status)
		}
		return nil
	})
	for _, u := range []string{taken.URL, taken.ThumbnailURL, own.URL} {
		r := h.do(http.MethodHead, u, nil, nil)
		if r.status != http.StatusOK {
			t.Errorf("%s after the sweep: %d, want 200", u, r.status)
		}
		if u == taken.URL && r.header.Get("Content-Type") != "image/jpeg" {
			t.Errorf("the attached image is now served as %q", r.header.Get("Content-Type"))
		}
	}
}

// A photo is served only at an address signed by a service that answered it, and
// only until it expires. Everything else is a 404 like a missing photo, so a refused
// address tells an attacker nothing.
func TestPhotosAreServedOnlyAtSignedUnexpiredAddresses(t *testing.T) {
	h := start(t)
	stored := h.multipartUpload("user-1", "kid.jpg", "image/jpeg", testimages.PhotoJPEG(300, 200, 7), nil).stored(t)
	other := h.multipartUpload("user-1", "sibling.jpg", "image/jpeg", testimages.PhotoJPEG(300, 200, 8), nil).stored(t)

	// The public upload answer is signed, ready for the uploader's <img>.
	for _, u := range []string{stored.URL, stored.ThumbnailURL} {
		if !strings.Contains(u, "?exp=") || !strings.Contains(u, "&sig=") {
			t.Fatalf("upload answer not signed: %q", u)
		}
		if r := h.do(http.MethodGet, u, nil, nil); r.status != http.StatusOK {
			t.Fatalf("GET signed %s: %d", u, r.status)
		}
	}
	// The wishlist's internal upload stores the plain address; it signs when it answers.
	internal := h.jsonUpload("/internal/media", "", map[string]string{
		"dataUrl": testimages.DataURL("image/jpeg", testimages.PhotoJPEG(300, 200, 9)), "itemId": newItemID(), "userId": "user-1",
	}).stored(t)
	if strings.Contains(internal.URL, "?") {
		t.Errorf("internal upload answer signed: %q", internal.URL)
	}

	plain := strings.Split(stored.URL, "?")[0]
	query, _ := url.ParseQuery(strings.Split(stored.URL, "?")[1])
	exp, sig := query.Get("exp"), query.Get("sig")
	tampered := []byte(sig)
	tampered[0] ^= 2
	otherQuery := strings.Split(other.URL, "?")[1]
	expired := testenv.MediaURLSigner().At(time.Now().Add(-3 * time.Hour)).Sign(plain)
	foreign, err := mediaurl.NewSigner(strings.Repeat("z", 40))
	if err != nil {
		t.Fatal(err)
	}
	for name, path := range map[string]string{
		"unsigned":                   plain,
		"exp without sig":            plain + "?exp=" + exp,
		"tampered sig":               plain + "?exp=" + exp + "&sig=" + string(tampered),
		"another photo's signature":  plain + "?" + otherQuery,
		"a later exp, same sig":      plain + "?exp=" + fmt.Sprint(time.Now().Add(90*time.Minute).Unix()) + "&sig=" + sig,
		"expired":                    expired,
		"signed with another secret": foreign.At(time.Now()).Sign(plain),
		"the thumbnail, photo's sig": strings.Split(stored.ThumbnailURL, "?")[0] + "?exp=" + exp + "&sig=" + sig,
	} {
		for _, method := range []string{http.MethodGet, http.MethodHead} {
			r := h.do(method, path, nil, map[string]string{"unsigned": ""})
			if r.status != http.StatusNotFound || (method == http.MethodGet && r.apiError().Code != "not_found") {
				t.Errorf("%s %s (%s): %d %s", method, name, path, r.status, r.body)
			}
			if len(r.body) > 0 && bytes.Contains(r.body, []byte("\xff\xd8")) {
				t.Errorf("%s %s: image bytes in the refusal", method, name)
			}
		}
		// Not even a 304 for a client that says it holds the photo.
		if r := h.do(http.MethodGet, path, nil, map[string]string{"unsigned": "", "If-None-Match": "*"}); r.status != http.StatusNotFound {
			t.Errorf("If-None-Match * at %s: %d", name, r.status)
		}
	}
	// A missing photo at a well-signed address answers the same 404.
	missing := testenv.MediaURLSigner().At(time.Now()).Sign("/media/items/unattached/0123456789abcdef0123456789abcdef.jpg")
	if r := h.do(http.MethodGet, missing, nil, nil); r.status != http.StatusNotFound || r.apiError().Code != "not_found" {
		t.Errorf("signed address of a missing photo: %d %s", r.status, r.body)
	}
}
