package ports

import (
	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/family/internal/app"
)

var _ ServerInterface = handlers{}

// Register adds family's public routes (the gateway forwards them unchanged) through the
// generated RegisterHandlersWithOptions, so that each is the spec's method and path. The spec's
// security says which need a signed-in caller (openapi_signin.gen.go); that check runs ahead of
// the wrapper's binding, so a visitor is refused before any parameter is looked at, and what
// the binding would refuse (an empty id in /api/families//invites, a repeated Idempotency-Key)
// reaches the handler as it always has (httpserver.Unbound).
func Register(r gin.IRouter, f *app.Families) {
	h := handlers{f}
	RegisterHandlersWithOptions(r.Group("", auth.CallerFor(signedIn)), h, GinServerOptions{
		ErrorHandler: httpserver.Unbound(unboundCalls(h)),
	})
}
