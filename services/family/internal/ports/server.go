package ports

import (
	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/family/internal/app"
)

var _ ServerInterface = handlers{}

// Register adds family's public routes (the gateway forwards them unchanged) through the
// generated RegisterHandlersWithOptions, so that each is the spec's method and path; the spec's
// security says which need a signed-in caller (openapi_signin.gen.go).
func Register(r gin.IRouter, f *app.Families) {
	RegisterHandlersWithOptions(r.Group("", firstHeaderValues), handlers{f}, GinServerOptions{
		Middlewares:  []MiddlewareFunc{auth.CallerFor(signedIn)},
		ErrorHandler: httpserver.ParamError,
	})
}

// firstHeaderValues keeps only the first of a repeated Idempotency-Key or Accept-Language, the
// spec's header parameters here. The generated wrapper binds them before anything else runs
// and answers a repeated one 400 (before the sign-in's 401 too); the handlers, and the
// gateway's idempotency, read the first value only and always have.
func firstHeaderValues(c *gin.Context) {
	for _, name := range []string{"Idempotency-Key", "Accept-Language"} {
		if v := c.Request.Header.Values(name); len(v) > 1 {
			c.Request.Header.Set(name, v[0])
		}
	}
}
