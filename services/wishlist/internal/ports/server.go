package ports

import (
	"maps"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/mediaurl"
	"github.com/santa-wishlist/santa/services/wishlist/internal/app"
)

// server is the ServerInterface oapi-codegen generates from the spec's x-service: wishlist
// operations (openapi_api.gen.go): the lists, items and giving (handlers) and the account
// (accountHandlers). The bodies still decode into app's types, as before: the generated ones
// would change answers (a wrong_type answer names the Go type it expected; ItemDraft's price,
// a string or a number, is any there).
type server struct {
	handlers
	accountHandlers
}

var _ ServerInterface = server{}

// accountPath is the one route that never had an ETag.
const accountPath = "/api/account"

// Register adds the wishlist's public routes through the generated RegisterHandlersWithOptions,
// so that each is the spec's method and path. photos signs the photo address of each item
// answered.
//
// The caller check and the ETag stay gin middleware, ahead of the generated wrapper, in the
// order they had: a visitor is refused before any parameter is looked at, and that 401 carries
// no Cache-Control or Vary. The ETag (GET answers revalidate to 304: Christmas Eve's read storm
// on shared lists) wraps the handler, which a generated middleware, run before it, cannot do.
func Register(r gin.IRouter, w *app.Wishlist, photos *mediaurl.Signer, accounts *app.Accounts) {
	s := server{handlers: handlers{w, photos}, accountHandlers: accountHandlers{accounts}}
	revalidate := httpserver.ETag("private, no-cache", etagMaxBody)
	g := r.Group("", auth.CallerFor(callers), func(c *gin.Context) {
		if c.FullPath() != accountPath {
			revalidate(c)
		}
	})
	RegisterHandlersWithOptions(g, s, GinServerOptions{ErrorHandler: httpserver.Unbound(unboundCalls(s))})
}

// callers is the spec's sign-in table but for the recent items, which a signed-out visitor
// gets from the gateway itself (x-gateway: by-hand, an empty list): here only a signed-in
// caller is let in, as before.
var callers = func() map[string]bool {
	m := maps.Clone(signedIn)
	m["GET /api/wishlist/recent"] = true
	return m
}()
