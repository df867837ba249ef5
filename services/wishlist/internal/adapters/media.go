package adapters

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/santa-wishlist/santa/pkg/apierror"
	"github.com/santa-wishlist/santa/pkg/auth"
)

// MediaClient stores inline (data: URL) images with the media service, so no image bytes end
// up in PostgreSQL.
type MediaClient struct {
	baseURL string
	http    *http.Client
}

// NewMediaClient talks to the media service at baseURL.
func NewMediaClient(baseURL string) *MediaClient {
	return &MediaClient{baseURL: baseURL, http: &http.Client{Timeout: 30 * time.Second}}
}

// MediaRejection is the media service refusing an image (wrong type, too large): the
// client's mistake, reported with the media service's own status and words.
type MediaRejection struct {
	Status  int
	Message string
}

func (e *MediaRejection) Error() string { return e.Message }

// StoreDataURL uploads the image for an item and returns the URL it is served at.
func (m *MediaClient) StoreDataURL(ctx context.Context, userID, itemID, dataURL string) (string, error) {
	body, err := json.Marshal(map[string]string{"dataUrl": dataURL, "itemId": itemID, "userId": userID})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.baseURL+"/internal/media", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(auth.HeaderUserID, userID)
	resp, err := m.http.Do(req)
	if err != nil {
		return "", fmt.Errorf("media service: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		var e apierror.Body
		_ = json.NewDecoder(resp.Body).Decode(&e)
		msg := e.Error.Message
		if msg == "" {
			msg = "The image could not be stored."
		}
		return "", &MediaRejection{Status: resp.StatusCode, Message: msg}
	}
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("media service answered %d", resp.StatusCode)
	}
	var out struct {
		URL string `json:"url"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.URL == "" {
		return "", fmt.Errorf("media service answer without url: %v", err)
	}
	return out.URL, nil
}
