// Package ports exposes the wishlist over HTTP to the gateway.
package ports

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/apierror"
	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/wishlist/internal/adapters"
	"github.com/santa-wishlist/santa/services/wishlist/internal/app"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// MaxBodyBytes bounds an item: its inline photo is the large part (the gateway enforces the
// same limit at the edge).
const MaxBodyBytes = 12 << 20

// Messages of the spec's error catalogue (SPEC section 8).
const msgFailedToAdd = "Failed to add item to wishlist"

// Routes registers the wishlist endpoints. The paths are the public ones: the gateway
// forwards them unchanged.
func Routes(r gin.IRouter, w *app.Wishlist) {
	h := handlers{w}
	api := r.Group("/api", auth.FromGatewayHeaders(true))
	api.POST("/wishlist", h.add)
	api.GET("/wishlist", h.list)
	api.GET("/wishlist/recent", h.recent)
	api.DELETE("/wishlist/:id", h.remove)
	api.POST("/santa", h.sendToSanta)
}

type handlers struct{ w *app.Wishlist }

func uid(c *gin.Context) string {
	u, _ := auth.UserFrom(c)
	return u.UID
}

func (h handlers) add(c *gin.Context) {
	var draft domain.Draft
	if !httpserver.DecodeJSON(c, &draft, MaxBodyBytes) {
		return
	}
	item, err := h.w.Add(c.Request.Context(), uid(c), draft)
	if err != nil {
		writeError(c, err, msgFailedToAdd)
		return
	}
	httpserver.WriteJSON(c, http.StatusCreated, item)
}

func (h handlers) list(c *gin.Context) {
	answerList(c, h.w.List)
}

func (h handlers) recent(c *gin.Context) {
	answerList(c, h.w.Recent)
}

// answerList writes a list the store already encoded as JSON.
func answerList(c *gin.Context, list func(ctx context.Context, userID string, write func(json.RawMessage)) error) {
	err := list(c.Request.Context(), uid(c), func(body json.RawMessage) {
		c.Data(http.StatusOK, "application/json; charset=utf-8", body)
	})
	if err != nil {
		writeError(c, err, "Failed to load your wishlist")
	}
}

func (h handlers) remove(c *gin.Context) {
	id := c.Param("id")
	if _, err := uuid.Parse(id); err != nil {
		apierror.Abort(c, http.StatusBadRequest, "invalid_id", "Failed to delete item: that item id is not valid.")
		return
	}
	if err := h.w.Remove(c.Request.Context(), uid(c), id); err != nil {
		writeError(c, err, "Failed to delete item")
		return
	}
	c.Status(http.StatusNoContent)
}

// santaRequest is the item as the gift options screen has it, plus the id of an item already
// on the wishlist when the client knows it.
type santaRequest struct {
	ID *string `json:"id"`
	domain.Draft
}

func (h handlers) sendToSanta(c *gin.Context) {
	var req santaRequest
	if !httpserver.DecodeJSON(c, &req, MaxBodyBytes) {
		return
	}
	existing := ""
	if req.ID != nil && *req.ID != "" {
		existing = *req.ID
		if _, err := uuid.Parse(existing); err != nil {
			apierror.Abort(c, http.StatusBadRequest, "invalid_id", "That item id is not valid.")
			return
		}
	}
	item, err := h.w.SendToSanta(c.Request.Context(), uid(c), existing, req.Draft)
	if err != nil {
		writeError(c, err, "Failed to send your gift request to Santa")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, item)
}

func writeError(c *gin.Context, err error, context string) {
	var invalid *domain.ValidationError
	var rejected *adapters.MediaRejection
	switch {
	case errors.As(err, &invalid):
		apierror.AbortFields(c, http.StatusUnprocessableEntity, "validation_failed", invalid.Error(), invalid.Fields)
	case errors.As(err, &rejected):
		apierror.AbortFields(c, rejected.Status, "image_rejected", rejected.Message, map[string]string{"imageUrl": rejected.Message})
	case errors.Is(err, domain.ErrNotFound):
		apierror.Abort(c, http.StatusNotFound, "not_found", context+": item not found.")
	case errors.Is(err, domain.ErrWishlistFull):
		apierror.Abort(c, http.StatusConflict, "wishlist_full", context+": "+err.Error()+".")
	case errors.Is(err, app.ErrImagesUnavailable):
		apierror.Abort(c, http.StatusServiceUnavailable, "media_unavailable", context+": photos cannot be stored right now. Please try again shortly.")
	default:
		httpserver.Logger(c).Error("wishlist request failed", "err", err)
		apierror.Abort(c, http.StatusServiceUnavailable, "unavailable", context+": please try again shortly.")
	}
}
