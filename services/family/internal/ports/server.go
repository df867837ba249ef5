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
	h := handlers{f}
	RegisterHandlersWithOptions(r.Group("", firstHeaderValues), h, GinServerOptions{
		Middlewares:  []MiddlewareFunc{auth.CallerFor(signedIn)},
		ErrorHandler: h.emptySegment,
	})
}

// emptySegment is the wrapper's ErrorHandler. The path parameters are plain strings, so the one
// it refuses is an empty segment in the middle of a path (/api/families//invites), which gin
// matches: the wrapper would answer it 400 before the sign-in, where the route has always
// answered as for any unknown id (the sign-in's 401, then the app's 404). So it runs the
// sign-in and the handler with the empty value, as before; anything else is ParamError.
func (h handlers) emptySegment(c *gin.Context, err error, status int) {
	id, token := c.Param("id"), c.Param("token")
	routes := map[string]func(){
		"GET /api/families/:id":                        func() { h.GetFamily(c, id) },
		"GET /api/families/:id/invites":                func() { h.ListFamilyInvites(c, id) },
		"POST /api/families/:id/invites":               func() { h.InviteToFamily(c, id, InviteToFamilyParams{}) },
		"DELETE /api/families/:id/invites/:token":      func() { h.RevokeFamilyInvite(c, id, token) },
		"DELETE /api/families/:id/members/:uid":        func() { h.RemoveFamilyMember(c, id, c.Param("uid")) },
		"PATCH /api/families/:id/members/:uid":         func() { h.SetFamilyRole(c, id, c.Param("uid")) },
		"GET /api/families/:id/secret-santa":           func() { h.MySecretSantaMatch(c, id) },
		"PATCH /api/families/:id/secret-santa":         func() { h.PlanSecretSanta(c, id) },
		"POST /api/families/:id/secret-santa":          func() { h.DrawSecretSanta(c, id) },
		"GET /api/families/:id/secret-santa/messages":  func() { h.MySecretSantaMessages(c, id) },
		"POST /api/families/:id/secret-santa/messages": func() { h.SendSecretSantaMessage(c, id, SendSecretSantaMessageParams{}) },
		"POST /api/invites/:token/accept":              func() { h.AcceptInvite(c, token) },
	}
	route, ok := routes[c.Request.Method+" "+c.FullPath()]
	if !ok || !emptyParam(c) {
		httpserver.ParamError(c, err, status)
		return
	}
	if auth.CallerFor(signedIn)(c); !c.IsAborted() {
		route()
	}
}

func emptyParam(c *gin.Context) bool {
	for _, p := range c.Params {
		if p.Value == "" {
			return true
		}
	}
	return false
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
