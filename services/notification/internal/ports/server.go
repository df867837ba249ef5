package ports

import (
	"net/netip"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/safedial"
	"github.com/santa-wishlist/santa/services/notification/internal/app"
)

// server is the ServerInterface oapi-codegen generates from the spec's x-service: notification
// operations (openapi_api.gen.go), the live stream aside (StreamRoute): the notice list
// (handlers), the settings and unsubscribe links (preferenceHandlers) and push
// (pushHandlers).
type server struct {
	handlers
	preferenceHandlers
	pushHandlers
}

var _ ServerInterface = server{}

// Register adds notification's public routes but the stream through the generated
// RegisterHandlersWithOptions, so that each is the spec's method and path; the spec's security
// says which need a signed-in caller (openapi_signin.gen.go), checked ahead of the wrapper's
// binding; what the binding would refuse reaches the handler (httpserver.Unbound).
func Register(r gin.IRouter, feed *app.Feed, prefs PreferenceStore, push PushConfig) {
	s := server{
		handlers:           handlers{feed: feed},
		preferenceHandlers: preferenceHandlers{store: prefs},
		pushHandlers:       pushHandlers{cfg: push, allow: safedial.Set(push.Allow)},
	}
	RegisterHandlersWithOptions(r.Group("", auth.CallerFor(signedIn)), s, GinServerOptions{
		ErrorHandler: httpserver.Unbound(unboundCalls(s)),
	})
}

// PushConfig is what the push routes need; a zero PublicKey means push is not set up here.
type PushConfig struct {
	Store     SubscriptionStore
	PublicKey string
	Allow     []netip.AddrPort
}
