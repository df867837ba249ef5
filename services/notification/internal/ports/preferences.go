package ports

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// PreferenceStore keeps the users' notification settings and does what unsubscribe tokens say.
type PreferenceStore interface {
	Settings(ctx context.Context, userID string) (domain.Settings, error)
	Update(ctx context.Context, userID, language string, prefs []domain.Preference) (domain.Settings, error)
	Describe(ctx context.Context, token string) (domain.Unsubscribed, bool, error)
	Unsubscribe(ctx context.Context, token string) (domain.Unsubscribed, bool, error)
}

type preferenceHandlers struct{ store PreferenceStore }

func unavailable(c *gin.Context, what string, err error) {
	httpserver.Logger(c).Error(what, "err", err)
	httpserver.Abort(c, http.StatusServiceUnavailable, "unavailable", "Notification settings cannot be reached right now.")
}

// GetNotificationPreferences answers the caller's settings.
func (h preferenceHandlers) GetNotificationPreferences(c *gin.Context) {
	u, _ := auth.UserFrom(c)
	s, err := h.store.Settings(c.Request.Context(), u.UID)
	if err != nil {
		unavailable(c, "read preferences", err)
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, s)
}

// PutNotificationPreferences changes what the body names. Its body is not the generated
// PutNotificationPreferencesJSONRequestBody: that one's enum types would name themselves in a
// wrong_type answer ("expected ports.NotificationLanguage" for "expected string").
func (h preferenceHandlers) PutNotificationPreferences(c *gin.Context) {
	var b struct {
		Language    *string             `json:"language"`
		Preferences []domain.Preference `json:"preferences"`
	}
	if !httpserver.DecodeJSON(c, &b, 16<<10) {
		return
	}
	lang := ""
	if b.Language != nil {
		lang = *b.Language
		if err := domain.CheckLanguage(lang); err != nil {
			badPreference(c, err)
			return
		}
	}
	if err := domain.CheckPreferences(b.Preferences); err != nil {
		badPreference(c, err)
		return
	}
	u, _ := auth.UserFrom(c)
	s, err := h.store.Update(c.Request.Context(), u.UID, lang, b.Preferences)
	if err != nil {
		unavailable(c, "update preferences", err)
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, s)
}

func badPreference(c *gin.Context, err error) {
	var bad *domain.ErrBadPreference
	if errors.As(err, &bad) {
		httpserver.AbortFields(c, http.StatusUnprocessableEntity, "validation_failed", bad.Message, map[string]string{bad.Field: bad.Message})
		return
	}
	httpserver.Abort(c, http.StatusUnprocessableEntity, "validation_failed", err.Error())
}

// tokenOK rejects what cannot be a token before the database is asked.
func tokenOK(token string) bool {
	if len(token) < 20 || len(token) > 100 {
		return false
	}
	return strings.IndexFunc(token, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}) < 0
}

func notFound(c *gin.Context) {
	httpserver.Abort(c, http.StatusNotFound, "unsubscribe_not_found", "This unsubscribe link is not known.")
}

// DescribeUnsubscribe says what the token stops, changing nothing (a link checker or a person opening the
// link must not unsubscribe anyone). A browser is sent to the app's page, which asks first.
func (h preferenceHandlers) DescribeUnsubscribe(c *gin.Context, token string) {
	if !tokenOK(token) {
		notFound(c)
		return
	}
	if accept := c.GetHeader("Accept"); strings.Contains(accept, "text/html") {
		c.Header("Cache-Control", "no-store")
		c.Redirect(http.StatusSeeOther, "/unsubscribe/"+token)
		return
	}
	what, found, err := h.store.Describe(c.Request.Context(), token)
	if err != nil {
		unavailable(c, "read unsubscribe token", err)
		return
	}
	if !found {
		notFound(c)
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, what)
}

// oneClick reads the body List-Unsubscribe=One-Click, as mail programs send it: multipart (the
// RFC's example), form-encoded, or with no or another content type.
func oneClick(c *gin.Context) bool {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, 4<<10)
	if strings.HasPrefix(c.ContentType(), "multipart/form-data") {
		return c.Request.ParseMultipartForm(4<<10) == nil && c.Request.PostFormValue("List-Unsubscribe") == "One-Click"
	}
	raw, err := io.ReadAll(c.Request.Body)
	if err != nil {
		return false
	}
	values, err := url.ParseQuery(strings.TrimSpace(string(raw)))
	return err == nil && values.Get("List-Unsubscribe") == "One-Click"
}

// Unsubscribe is the one-click POST (RFC 8058 section 3.2): the body is
// List-Unsubscribe=One-Click, form-encoded; no cookie or sign-in is needed or used.
func (h preferenceHandlers) Unsubscribe(c *gin.Context, token string) {
	if !tokenOK(token) {
		notFound(c)
		return
	}
	if !oneClick(c) {
		httpserver.Abort(c, http.StatusBadRequest, "validation_failed", "The body must be List-Unsubscribe=One-Click (form-encoded).")
		return
	}
	what, found, err := h.store.Unsubscribe(c.Request.Context(), token)
	if err != nil {
		unavailable(c, "unsubscribe", err)
		return
	}
	if !found {
		notFound(c)
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, what)
}
