package ports

import (
	"context"
	"errors"
	"net/http"
	"net/netip"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// SubscriptionStore keeps the devices' push subscriptions.
type SubscriptionStore interface {
	Save(ctx context.Context, sub domain.Subscription) (domain.Subscription, error)
	Remove(ctx context.Context, userID, endpoint string) (bool, error)
}

type pushHandlers struct {
	cfg   PushConfig
	allow map[netip.AddrPort]bool
}

// subscriptionBody is the browser's PushSubscription.toJSON(). Not the generated
// SavePushSubscriptionJSONRequestBody: that one reads expirationTime, which a wrong type there
// would make a 400 where it is ignored.
type subscriptionBody struct {
	Endpoint string `json:"endpoint"`
	Keys     struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
	// Language is the app's language on this device ("de", "fr-CA"); reminders are pushed in it.
	Language string `json:"language"`
}

func (h pushHandlers) ready(c *gin.Context) bool {
	if h.cfg.PublicKey == "" {
		httpserver.Abort(c, http.StatusNotFound, "push_unavailable", "Push notifications are not available here.")
		return false
	}
	return true
}

// GetPushKey answers the VAPID public key the browser subscribes with.
func (h pushHandlers) GetPushKey(c *gin.Context) {
	if h.ready(c) {
		httpserver.WriteJSON(c, http.StatusOK, gin.H{"publicKey": h.cfg.PublicKey})
	}
}

// SavePushSubscription saves this device's subscription as the caller's.
func (h pushHandlers) SavePushSubscription(c *gin.Context) {
	var b subscriptionBody
	if !h.ready(c) || !httpserver.DecodeJSON(c, &b, 8<<10) {
		return
	}
	u, _ := auth.UserFrom(c)
	sub := domain.Subscription{UserID: u.UID, Endpoint: b.Endpoint, P256dh: b.Keys.P256dh, Auth: b.Keys.Auth,
		Language: domain.Language(b.Language)}
	if err := domain.CheckSubscription(sub, h.allow); err != nil {
		var bad *domain.ErrBadSubscription
		if errors.As(err, &bad) {
			httpserver.AbortFields(c, http.StatusBadRequest, "validation_failed", bad.Message, map[string]string{bad.Field: bad.Message})
			return
		}
		httpserver.Abort(c, http.StatusBadRequest, "validation_failed", err.Error())
		return
	}
	saved, err := h.cfg.Store.Save(c.Request.Context(), sub)
	if err != nil {
		httpserver.Logger(c).Error("save push subscription", "err", err)
		httpserver.Abort(c, http.StatusServiceUnavailable, "unavailable", "Notifications cannot be set up right now.")
		return
	}
	httpserver.WriteJSON(c, http.StatusCreated, saved)
}

// DeletePushSubscription removes the caller's subscription of an endpoint.
func (h pushHandlers) DeletePushSubscription(c *gin.Context) {
	var b DeletePushSubscriptionJSONRequestBody
	if !h.ready(c) || !httpserver.DecodeJSON(c, &b, 8<<10) {
		return
	}
	if b.Endpoint == "" {
		httpserver.AbortFields(c, http.StatusBadRequest, "validation_failed", "endpoint is required.", map[string]string{"endpoint": "Required."})
		return
	}
	u, _ := auth.UserFrom(c)
	removed, err := h.cfg.Store.Remove(c.Request.Context(), u.UID, b.Endpoint)
	if err != nil {
		httpserver.Logger(c).Error("remove push subscription", "err", err)
		httpserver.Abort(c, http.StatusServiceUnavailable, "unavailable", "Notifications cannot be changed right now.")
		return
	}
	if !removed {
		// Another user's device answers like one that never subscribed.
		httpserver.Abort(c, http.StatusNotFound, "subscription_not_found", "This device has no push subscription.")
		return
	}
	c.Status(http.StatusNoContent)
}
