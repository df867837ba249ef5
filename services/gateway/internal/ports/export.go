package ports

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/mediaurl"
)

// exportClient makes the export's internal calls; each has its own timeout.
var exportClient = &http.Client{Transport: sharedTransport}

// exportAccount answers GET /api/account/export: a ZIP of everything the user keeps with us,
// written to the response as it is gathered (never built in memory): the account, the lists
// with their items as the owner sees them (so no claim made on them before the reveal date),
// the photos of those items (fetched at the signed addresses the list answers carry), the claims the user made, their families,
// their own Secret Santa conversations (as the family service answers them to the user) and their notices.
// Each part is asked of its service with the user's verified headers, as any request is.
func exportAccount(up Upstreams, identity *auth.IdentitySigner) gin.HandlerFunc {
	return func(c *gin.Context) {
		u, _ := auth.UserFrom(c)
		ctx := c.Request.Context()
		// Each call carries an assertion of the user addressed to the service it goes to.
		get := func(base, audience, p string) ([]byte, error) {
			if base == "" {
				return nil, fmt.Errorf("%s: service not configured", p)
			}
			return internalGet(ctx, base+p, identity, audience, u)
		}
		// The lists come first: if the wishlist is away, the answer is still a clean 503.
		lists, err := get(up.Wishlist, "wishlist", "/api/lists")
		var parsed []struct {
			ID string `json:"id"`
		}
		if err == nil {
			err = json.Unmarshal(lists, &parsed)
		}
		if err != nil {
			httpserver.Logger(c).Warn("export failed", "err", err)
			httpserver.Abort(c, http.StatusServiceUnavailable, "unavailable", "Your data cannot be gathered right now. Please try again shortly.")
			return
		}
		c.Header("Content-Type", "application/zip")
		c.Header("Content-Disposition", `attachment; filename="santa-wishlist-data.zip"`)
		c.Header("Cache-Control", "no-store")
		c.Status(http.StatusOK)
		zw := zip.NewWriter(c.Writer)
		fail := func(err error) {
			// Headers are gone: end the connection so the download is broken, not silently short.
			httpserver.Logger(c).Warn("export interrupted", "err", err)
			panic(http.ErrAbortHandler)
		}
		put := func(name string, body []byte) {
			w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: time.Now()})
			if err == nil {
				_, err = w.Write(body)
			}
			if err != nil {
				fail(err)
			}
		}
		account, _ := json.MarshalIndent(map[string]string{"uid": u.UID, "email": u.Email, "displayName": u.Name}, "", "  ")
		put("account.json", account)
		put("lists.json", lists)
		var photos []string
		for _, l := range parsed {
			items, err := get(up.Wishlist, "wishlist", "/api/wishlist?listId="+url.QueryEscape(l.ID))
			if err != nil {
				fail(err)
			}
			put("lists/"+l.ID+".json", items)
			var its []struct {
				ImageURL *string `json:"imageUrl"`
			}
			_ = json.Unmarshal(items, &its)
			for _, it := range its {
				if it.ImageURL != nil && strings.HasPrefix(*it.ImageURL, "/media/") {
					photos = append(photos, *it.ImageURL)
				}
			}
		}
		for _, p := range photos {
			if err := copyPhoto(ctx, zw, up.Media, identity, u, p); err != nil {
				fail(err)
			}
		}
		for _, part := range []struct{ name, base, audience, path string }{
			{"claims.json", up.Wishlist, "wishlist", "/api/claims"},
			{"budgets.json", up.Wishlist, "wishlist", "/api/budgets"},
			{"gifts-given.json", up.Wishlist, "wishlist", "/api/gifts/given"},
			{"families.json", up.Family, "family", "/api/families"},
			{"notices.json", up.Notification, "notification", "/api/notifications"},
			{"notification-settings.json", up.Notification, "notification", "/api/notifications/preferences"},
		} {
			body, err := get(part.base, part.audience, part.path)
			if err != nil {
				fail(err)
			}
			put(part.name, body)
			if part.name == "families.json" {
				// The caller's own Secret Santa conversations in each family, exactly as the
				// family service answers them to the caller (never a Santa's name or uid); a
				// family without a draw the caller is in has none.
				var fams []struct {
					ID string `json:"id"`
				}
				_ = json.Unmarshal(body, &fams)
				for _, f := range fams {
					p := "/api/families/" + url.PathEscape(f.ID) + "/secret-santa/messages"
					msgs, err := internalGet(ctx, up.Family+p, identity, "family", u)
					var status *statusError
					if errors.As(err, &status) && status.code == http.StatusNotFound {
						continue
					}
					if err != nil {
						fail(err)
					}
					put("secret-santa-messages/"+f.ID+".json", msgs)
				}
			}
		}
		if err := zw.Close(); err != nil {
			fail(err)
		}
	}
}

// copyPhoto streams one photo from media into the archive under photos/.
func copyPhoto(ctx context.Context, zw *zip.Writer, mediaBase string, identity *auth.IdentitySigner, u auth.User, mediaPath string) error {
	if mediaBase == "" {
		return fmt.Errorf("photos: media not configured")
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, mediaBase+mediaPath, nil)
	if err := identity.SetHeaders(req, u, true, "media"); err != nil {
		return err
	}
	resp, err := exportClient.Do(req)
	if err != nil {
		return fmt.Errorf("photo %s: %w", mediaPath, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil // gone since the list was read
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("photo %s: status %d", mediaPath, resp.StatusCode)
	}
	// Stored photos are JPEG or PNG already: kept as they are, not compressed again. The
	// address is signed (that is how media lets anyone read it); the file is named by its key.
	key, _ := mediaurl.Key(mediaPath)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "photos/" + path.Base(key), Method: zip.Store, Modified: time.Now()})
	if err != nil {
		return err
	}
	_, err = io.Copy(w, resp.Body)
	return err
}

// internalGet calls an internal service as the user and returns a 200's body.
func internalGet(ctx context.Context, target string, identity *auth.IdentitySigner, audience string, u auth.User) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, err
	}
	if err := identity.SetHeaders(req, u, true, audience); err != nil {
		return nil, err
	}
	resp, err := exportClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &statusError{target: target, code: resp.StatusCode}
	}
	return body, nil
}

// statusError is an internal GET answered with another status than 200.
type statusError struct {
	target string
	code   int
}

func (e *statusError) Error() string { return fmt.Sprintf("GET %s: status %d", e.target, e.code) }
