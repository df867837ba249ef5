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
	RegisterHandlersWithOptions(g, s, GinServerOptions{ErrorHandler: s.bindFailed})
}

// callers is the spec's sign-in table but for the recent items, which a signed-out visitor
// gets from the gateway itself (x-gateway: by-hand, an empty list): here only a signed-in
// caller is let in, as before.
var callers = func() map[string]bool {
	m := maps.Clone(signedIn)
	m["GET /api/wishlist/recent"] = true
	return m
}()

// bindFailed is the generated wrapper's ErrorHandler. Every parameter is a string
// (oapi-codegen.yaml), so the wrapper refuses only a path segment left empty (gin routes
// /api/lists//share with id ""), a repeated listId or a repeated Idempotency-Key. The
// handlers took those before (the empty id, the first listId, no look at the header), so the
// route's handler is called as it was: the answer stays the handler's (a 404 for an id that
// names nothing), not a 400 of the wrapper's.
func (s server) bindFailed(c *gin.Context, err error, status int) {
	if call, ok := unbound[c.Request.Method+" "+c.FullPath()]; ok {
		call(s, c)
		return
	}
	httpserver.ParamError(c, err, status)
}

// unbound calls each route that has parameters with their raw values (TestEveryRouteWithParameters
// IsUnbound).
var unbound = map[string]func(s server, c *gin.Context){
	"GET /api/wishlist": func(s server, c *gin.Context) {
		id := c.Query("listId")
		s.ListItems(c, ListItemsParams{ListId: &id})
	},
	"POST /api/wishlist":            func(s server, c *gin.Context) { s.AddItem(c, AddItemParams{}) },
	"POST /api/santa":               func(s server, c *gin.Context) { s.SendToSanta(c, SendToSantaParams{}) },
	"POST /api/lists":               func(s server, c *gin.Context) { s.CreateList(c, CreateListParams{}) },
	"PATCH /api/wishlist/:id":       func(s server, c *gin.Context) { s.EditItem(c, c.Param("id")) },
	"DELETE /api/wishlist/:id":      func(s server, c *gin.Context) { s.DeleteItem(c, c.Param("id")) },
	"POST /api/wishlist/:id/thanks": func(s server, c *gin.Context) { s.ThankGivers(c, c.Param("id")) },
	"PATCH /api/lists/:id":          func(s server, c *gin.Context) { s.UpdateList(c, c.Param("id")) },
	"DELETE /api/lists/:id":         func(s server, c *gin.Context) { s.DeleteList(c, c.Param("id")) },
	"POST /api/lists/:id/managers":  func(s server, c *gin.Context) { s.AddListManager(c, c.Param("id")) },
	"DELETE /api/lists/:id/managers/:uid": func(s server, c *gin.Context) {
		s.RemoveListManager(c, c.Param("id"), c.Param("uid"))
	},
	"POST /api/lists/:id/share":   func(s server, c *gin.Context) { s.ShareList(c, c.Param("id")) },
	"DELETE /api/lists/:id/share": func(s server, c *gin.Context) { s.UnshareList(c, c.Param("id")) },
	"GET /api/shared/:token":      func(s server, c *gin.Context) { s.OpenSharedList(c, c.Param("token")) },
	"PUT /api/shared/:token/items/:itemId/claim": func(s server, c *gin.Context) {
		s.ClaimItem(c, c.Param("token"), c.Param("itemId"))
	},
	"DELETE /api/shared/:token/items/:itemId/claim": func(s server, c *gin.Context) {
		s.ReleaseClaim(c, c.Param("token"), c.Param("itemId"))
	},
	"POST /api/shared/:token/items/:itemId/group-gift": func(s server, c *gin.Context) {
		s.StartGroupGift(c, c.Param("token"), c.Param("itemId"))
	},
	"DELETE /api/shared/:token/items/:itemId/group-gift": func(s server, c *gin.Context) {
		s.CancelGroupGift(c, c.Param("token"), c.Param("itemId"))
	},
	"PUT /api/shared/:token/items/:itemId/pledge": func(s server, c *gin.Context) {
		s.Pledge(c, c.Param("token"), c.Param("itemId"))
	},
	"DELETE /api/shared/:token/items/:itemId/pledge": func(s server, c *gin.Context) {
		s.WithdrawPledge(c, c.Param("token"), c.Param("itemId"))
	},
	"POST /api/shared/:token/suggestions": func(s server, c *gin.Context) { s.SuggestGift(c, c.Param("token")) },
	"PATCH /api/shared/:token/suggestions/:itemId": func(s server, c *gin.Context) {
		s.EditSuggestion(c, c.Param("token"), c.Param("itemId"))
	},
	"DELETE /api/shared/:token/suggestions/:itemId": func(s server, c *gin.Context) {
		s.DeleteSuggestion(c, c.Param("token"), c.Param("itemId"))
	},
	"PUT /api/budgets/:key":    func(s server, c *gin.Context) { s.SetBudget(c, c.Param("key")) },
	"DELETE /api/budgets/:key": func(s server, c *gin.Context) { s.DeleteBudget(c, c.Param("key")) },
}
