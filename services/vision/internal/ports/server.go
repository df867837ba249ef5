package ports

import (
	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
)

// server is the ServerInterface oapi-codegen generates from the spec's x-service: vision
// operations (openapi_api.gen.go): the AI calls (HTTP) and the product lookups (Lookups).
type server struct {
	*HTTP
	Lookups
}

var _ ServerInterface = server{}

// Register adds vision's public routes through the generated RegisterHandlersWithOptions, so
// that each is the spec's method and path; the spec's security says which need a signed-in
// caller (openapi_signin.gen.go).
func Register(r gin.IRouter, l Lookups) {
	RegisterHandlersWithOptions(r, server{HTTP: &HTTP{app: l.App}, Lookups: l}, GinServerOptions{
		Middlewares:  []MiddlewareFunc{auth.CallerFor(signedIn)},
		ErrorHandler: httpserver.ParamError,
	})
}
