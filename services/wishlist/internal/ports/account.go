package ports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/wishlist/internal/app"
)

// accountHandlers answer GET and DELETE /api/account.
type accountHandlers struct{ a *app.Accounts }

// GetAccount answers the caller's account.
func (h accountHandlers) GetAccount(c *gin.Context) {
	u, _ := auth.UserFrom(c)
	acc, err := h.a.Get(c.Request.Context(), u.UID, u.Email, u.Name)
	if err != nil {
		writeError(c, err, "Failed to load your account")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, acc)
}

// DeleteAccount starts the deletion. Its body is not the generated DeleteAccountJSONRequestBody:
// any body that does not decode, or lacks confirm, is the one confirmation_required answer.
func (h accountHandlers) DeleteAccount(c *gin.Context) {
	u, _ := auth.UserFrom(c)
	want := "your account's email"
	if u.Email == "" {
		want = "your account's id"
	}
	msg := fmt.Sprintf(`To delete your account, send {"confirm": "<%s>"}.`, want)
	var body struct {
		Confirm *string `json:"confirm"`
	}
	if c.Request.ContentLength == 0 || json.NewDecoder(http.MaxBytesReader(c.Writer, c.Request.Body, smallBody)).Decode(&body) != nil || body.Confirm == nil {
		httpserver.Abort(c, http.StatusBadRequest, "confirmation_required", msg)
		return
	}
	err := h.a.Delete(c.Request.Context(), u.UID, u.Email, *body.Confirm)
	if errors.Is(err, app.ErrConfirmation) {
		httpserver.Abort(c, http.StatusBadRequest, "confirmation_mismatch",
			fmt.Sprintf(`The confirmation does not match %s. %s`, want, msg))
		return
	}
	if err != nil {
		writeError(c, err, "Failed to delete your account")
		return
	}
	httpserver.WriteJSON(c, http.StatusAccepted, gin.H{"deletionPending": true})
}

// ConsumeAccountEvents starts the wishlist's part of an account deletion: erasing its own data
// on user.deleted, and counting every service's user.erased.
func ConsumeAccountEvents(ctx context.Context, js jetstream.JetStream, a *app.Accounts, backOff []time.Duration,
	logger *slog.Logger, m *events.ConsumerMetrics) ([]*events.Consumer, error) {
	deleted, err := events.ConsumeUserDeleted(ctx, js, "wishlist", a.Erase, backOff, logger, m)
	if err != nil {
		return nil, err
	}
	erased, err := events.Consume(ctx, js, events.ConsumerConfig{
		Durable: "wishlist-user-erased", Subjects: []string{events.TypeUserErased}, BackOff: backOff,
	}, func(ctx context.Context, env events.Envelope) error {
		var d events.UserErasedData
		if err := json.Unmarshal(env.Data, &d); err != nil || d.Service == "" {
			return fmt.Errorf("%w: user.erased needs a service", events.ErrPoison)
		}
		return a.Erased(ctx, env.UserID, d.Service)
	}, logger, m)
	if err != nil {
		deleted.Stop()
		return nil, err
	}
	return []*events.Consumer{deleted, erased}, nil
}
