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
	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

// Media stores images through the media service's upload API, as the user who imports
// them (the same call the web app makes through the gateway).
type Media struct {
	base     string
	client   *http.Client
	identity *auth.IdentitySigner
}

var _ domain.ImageStore = (*Media)(nil)

// NewMedia talks to the media service at base (MEDIA_URL), asserting the importing user
// with identity (the media service refuses calls without a valid assertion).
func NewMedia(base string, identity *auth.IdentitySigner) *Media {
	return &Media{base: strings.TrimRight(base, "/"), client: &http.Client{Timeout: 15 * time.Second}, identity: identity}
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
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.base+"/api/media", &body)
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	if err := m.identity.SetHeaders(req, owner, true, "media"); err != nil {
		return "", fmt.Errorf("identity assertion for the media service: %w", err)
	}
	resp, err := m.client.Do(req)
	if err != nil {
		return "", fmt.Errorf("media: %w", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusCreated {
		return "", fmt.Errorf("media answered %d: %s", resp.StatusCode, raw)
	}
	var stored struct {
		URL string `json:"url"`
	}
	if err := json.Unmarshal(raw, &stored); err != nil || stored.URL == "" {
		return "", fmt.Errorf("media answer without a url: %s", raw)
	}
	// The plain address: it is cached (a product scanned again), and signed when answered.
	return mediaurl.Unsigned(stored.URL), nil
}
