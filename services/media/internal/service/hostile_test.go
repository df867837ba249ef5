package service_test

import (
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/santa-wishlist/santa/fakes/hostileimages"
	"github.com/santa-wishlist/santa/fakes/testimages"
	"github.com/santa-wishlist/santa/services/media/internal/app"
	"github.com/santa-wishlist/santa/services/media/internal/service"
)

// Every hostile file, eight at a time, gets a 4xx in words, never a 500 or a 201.
func TestHostileImagesAreRefusedWithA4xx(t *testing.T) {
	h := start(t, func(c *service.Config) { c.Limits = app.Limits{DecodeMemory: 56 << 20} })
	want := map[string]string{
		"png16-7000": "image_too_large_to_open", "png-huge-dimensions": "image_dimensions_too_large",
		"png-49mp-rgba": "image_too_large_to_open", "jpeg-5000-scans": "image_too_complex",
		"gif-5000-frames": "image_too_complex", "webp-huge-canvas": "image_dimensions_too_large",
		"webp-48mp-alpha": "image_too_large_to_open", "jpeg-truncated": "corrupt_image",
		"png16-truncated": "image_too_large_to_open", "jpeg-header-only": "corrupt_image",
	}
	corpus := hostileimages.Corpus()
	results := make([]response, len(corpus))
	var wg sync.WaitGroup
	slots := make(chan struct{}, 8)
	for i, c := range corpus {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			results[i] = h.multipartUpload("bomber-"+strconv.Itoa(i), c.Name, "image/png", c.Data, nil)
		})
	}
	wg.Wait()
	for i, c := range corpus {
		r := results[i]
		if r.status < 400 || r.status >= 500 || r.apiError().Code != want[c.Name] {
			t.Errorf("%s: %d %s, want a 4xx %s", c.Name, r.status, r.body, want[c.Name])
		}
	}
}

// One user sending images faster than MEDIA_UPLOADS_PER_MINUTE is told to wait (429 with
// Retry-After); another user is not affected.
func TestPerUserUploadRate(t *testing.T) {
	h := start(t, func(c *service.Config) {
		c.Limits = app.Limits{UploadsPerMinute: 6, UploadBurst: 2}
	})
	photo := testimages.PhotoJPEG(64, 48, 3)
	for i := range 2 {
		if r := h.multipartUpload("fast-user", "a.jpg", "image/jpeg", photo, nil); r.status != http.StatusCreated {
			t.Fatalf("upload %d within the burst: %d %s", i, r.status, r.body)
		}
	}
	r := h.multipartUpload("fast-user", "a.jpg", "image/jpeg", photo, nil)
	if r.status != http.StatusTooManyRequests || r.apiError().Code != "too_many_uploads" {
		t.Fatalf("third upload: %d %s, want 429 too_many_uploads", r.status, r.body)
	}
	if wait, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || wait < 1 || wait > 10 {
		t.Errorf("Retry-After %q, want 1-10 seconds", r.header.Get("Retry-After"))
	}
	if r := h.multipartUpload("other-user", "a.jpg", "image/jpeg", photo, nil); r.status != http.StatusCreated {
		t.Errorf("another user: %d %s", r.status, r.body)
	}
}
