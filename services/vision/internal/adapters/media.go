package adapters

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"time"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/mediaurl"
	"github.com/santa-wishlist/santa/pkg/publicapi/media"
	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

// Media stores images through the media service's upload API, as the user who imports
// them (the same call the web app makes through the gateway), with the client generated
// from api/openapi.yaml.
type Media struct {
	api      *media.Client
	identity *auth.IdentitySigner
}

var _ domain.ImageStore = (*Media)(nil)

// NewMedia talks to the media service at base (MEDIA_URL), asserting the importing user
// with identity (the media service refuses calls without a valid assertion).
func NewMedia(base string, identity *auth.IdentitySigner) *Media {
	// NewClient fails only when an option does; this one cannot.
	api, _ := media.NewClient(strings.TrimRight(base, "/"), media.WithHTTPClient(&http.Client{Timeout: 15 * time.Second}))
	return &Media{api: api, identity: identity}
}

// Store uploads data as owner's image and returns its URL.
func (m *Media) Store(ctx context.Context, owner auth.User, data []byte) (string, error) {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, err := w.CreateFormFile("image", "shop-image")
	if err != nil {
		return "", err
	}
	if _, err := part.Write(data); err != nil {
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	// The assertion is bound to the request's method and path, which are set by the time the
	// generated client runs its editors.
	as := func(_ context.Context, req *http.Request) error {
		if err := m.identity.SetHeaders(req, owner, true, "media"); err != nil {
			return fmt.Errorf("identity assertion for the media service: %w", err)
		}
		return nil
	}
	resp, err := m.api.UploadMediaWithBody(ctx, w.FormDataContentType(), &body, as)
	if err != nil {
		return "", fmt.Errorf("media: %w", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusCreated {
		return "", fmt.Errorf("media answered %d: %s", resp.StatusCode, raw)
	}
	var stored media.StoredMedia
	if err := json.Unmarshal(raw, &stored); err != nil || stored.Url == "" {
		return "", fmt.Errorf("media answer without a url: %s", raw)
	}
	// The plain address: it is cached (a product scanned again), and signed when answered.
	return mediaurl.Unsigned(stored.Url), nil
}
