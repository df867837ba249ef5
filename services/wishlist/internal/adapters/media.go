package adapters

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"time"

	"github.com/santa-wishlist/santa/pkg/apperror"
	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/internalapi/media"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// MediaClient stores inline (data: URL) images with the media service, so no image bytes end
// up in PostgreSQL. It calls media's internal routes through the client generated from
// api/internal.yaml.
type MediaClient struct {
	api      *media.Client
	identity *auth.IdentitySigner
}

// NewMediaClient talks to the media service at baseURL, asserting the item's owner with
// identity (the media service refuses calls without a valid assertion).
func NewMediaClient(baseURL string, identity *auth.IdentitySigner) *MediaClient {
	// NewClient fails only when an option does; this one cannot.
	api, _ := media.NewClient(baseURL, media.WithHTTPClient(&http.Client{Timeout: 30 * time.Second}))
	return &MediaClient{api: api, identity: identity}
}

// as asserts userID to the media service, bound to the request's method and path (which the
// generated client has set when it runs the editors).
func (m *MediaClient) as(userID string) media.RequestEditorFn {
	return func(_ context.Context, req *http.Request) error {
		if err := m.identity.SetHeaders(req, auth.User{UID: userID}, true, "media"); err != nil {
			return fmt.Errorf("identity assertion for the media service: %w", err)
		}
		return nil
	}
}

// rejection is the media service refusing an image (wrong type, too large): the client's
// mistake, reported in the media service's own words with the kind its status says.
func rejection(status int, msg string) *apperror.Error {
	kind := apperror.KindInvalid
	switch status {
	case http.StatusRequestEntityTooLarge:
		kind = apperror.KindTooLarge
	case http.StatusUnsupportedMediaType:
		kind = apperror.KindUnsupported
	case http.StatusConflict: // the user's storage quota is full
		return &apperror.Error{Kind: apperror.KindConflict, Code: "storage_quota_exceeded", Message: msg, Fields: map[string]string{"imageUrl": msg}}
	}
	return &apperror.Error{Kind: kind, Code: "image_rejected", Message: msg, Fields: map[string]string{"imageUrl": msg}}
}

// StoreDataURL uploads the image for an item and returns the URL it is served at.
func (m *MediaClient) StoreDataURL(ctx context.Context, userID, itemID, dataURL string) (string, error) {
	body, contentType, err := uploadBody(userID, itemID, dataURL)
	if err != nil {
		return "", err
	}
	// The plain client, not the one that parses answers: a refusal's body is read leniently
	// (any 4xx is the image's fault, whatever its body) and a success's only for its url.
	resp, err := m.api.StoreItemImageWithBody(ctx, contentType, body, m.as(userID))
	if err != nil {
		return "", fmt.Errorf("media service: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		var e media.Error
		_ = json.NewDecoder(resp.Body).Decode(&e)
		msg := e.Error.Message
		if msg == "" {
			msg = "The image could not be stored."
		}
		return "", rejection(resp.StatusCode, msg)
	}
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("media service answered %d", resp.StatusCode)
	}
	var out media.StoredImage
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Url == "" {
		return "", fmt.Errorf("media service answer without url: %v", err)
	}
	return out.Url, nil
}

// Attach tells the media service that itemID took userID's unattached upload at imageURL.
// Media answers 404 when the upload is someone else's: domain.ErrNotYourImage.
func (m *MediaClient) Attach(ctx context.Context, userID, itemID, imageURL string) error {
	resp, err := m.api.AttachImage(ctx, media.AttachImage{ImageUrl: imageURL, ItemId: itemID}, m.as(userID))
	status, err := answered(resp, err, "attach")
	if err == nil && status == http.StatusNotFound {
		return domain.ErrNotYourImage
	}
	return err
}

// Discard asks the media service to remove an image stored for an item that was then not
// saved; media removes it only when userID uploaded it.
func (m *MediaClient) Discard(ctx context.Context, userID, imageURL string) error {
	resp, err := m.api.DiscardImage(ctx, media.DiscardImage{ImageUrl: imageURL}, m.as(userID))
	_, err = answered(resp, err, "discard")
	return err
}

// answered is the status of one of media's small internal calls (200 or 404; anything else
// is an error), its body closed.
func answered(resp *http.Response, err error, call string) (int, error) {
	if err != nil {
		return 0, fmt.Errorf("media service: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNotFound {
		return resp.StatusCode, fmt.Errorf("media service answered %d to %s", resp.StatusCode, call)
	}
	return resp.StatusCode, nil
}

// uploadBody sends a well-formed base64 data URL as the image's bytes in a multipart form:
// for a phone photo that spares the media service parsing megabytes of JSON and base64
// (about 15 ms of a 2 MB upload). Anything else (URL-encoded data, line-wrapped base64) goes
// as JSON, so the media service reads it and words any rejection itself.
func uploadBody(userID, itemID, dataURL string) (io.Reader, string, error) {
	if _, payload, ok := strings.Cut(dataURL, ";base64,"); ok {
		var buf bytes.Buffer
		buf.Grow(base64.RawStdEncoding.DecodedLen(len(payload)) + 1024)
		form := multipart.NewWriter(&buf)
		_ = form.WriteField("userId", userID) // writes to a bytes.Buffer do not fail
		_ = form.WriteField("itemId", itemID)
		part, _ := form.CreateFormFile("image", "image")
		// Decoded straight into the form: no second copy of the photo.
		image := base64.NewDecoder(base64.RawStdEncoding, strings.NewReader(strings.TrimRight(payload, "=")))
		if _, err := io.Copy(part, image); err == nil {
			_ = form.Close()
			return &buf, form.FormDataContentType(), nil
		}
	}
	body, err := json.Marshal(media.DataUrlImage{DataUrl: dataURL, ItemId: itemID, UserId: userID})
	if err != nil {
		return nil, "", err
	}
	return bytes.NewReader(body), "application/json", nil
}
