// Package ports exposes the family service over HTTP to the gateway. It depends on app alone:
// app's error kinds decide the status codes here.
package ports

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/apperror"
	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/family/internal/app"
)

// smallBody bounds every request: they are all small JSON documents.
const smallBody = 64 << 10

// Routes registers the family endpoints under their public paths (the gateway forwards them
// unchanged).
func Routes(r gin.IRouter, f *app.Families) {
	h := handlers{f}
	api := r.Group("/api", auth.Caller(true))
	api.POST("/families", h.create)
	api.GET("/families", h.list)
	api.GET("/families/:id", h.get)
	api.POST("/families/:id/invites", h.invite)
	api.GET("/families/:id/invites", h.invites)
	api.DELETE("/families/:id/invites/:token", h.revokeInvite)
	api.DELETE("/families/:id/members/:uid", h.removeMember)
	api.PATCH("/families/:id/members/:uid", h.setRole)
	api.POST("/families/:id/secret-santa", h.draw)
	api.GET("/families/:id/secret-santa", h.myMatch)
	api.PATCH("/families/:id/secret-santa", h.planDraw)
	api.POST("/families/:id/secret-santa/messages", h.sendMessage)
	api.GET("/families/:id/secret-santa/messages", h.messages)
	api.POST("/invites/:token/accept", h.accept)
	// The accept page shows who invited before the visitor signs in.
	r.GET("/api/invites/:token", auth.Caller(false), h.inviteInfo)
}

type handlers struct{ f *app.Families }

// caller is the verified user with Name settled to the name the family sees.
func caller(c *gin.Context) auth.User {
	u, _ := auth.UserFrom(c)
	u.Name = u.ShownName("A family member")
	return u
}

func (h handlers) create(c *gin.Context) {
	var body struct {
		Name string `json:"name"`
	}
	if !httpserver.DecodeJSON(c, &body, smallBody) {
		return
	}
	created, err := h.f.Create(c.Request.Context(), caller(c), body.Name)
	respond(c, http.StatusCreated, created, err, "Failed to create the family")
}

func (h handlers) list(c *gin.Context) {
	fams, err := h.f.List(c.Request.Context(), caller(c).UID)
	respond(c, http.StatusOK, fams, err, "Failed to load your families")
}

func (h handlers) get(c *gin.Context) {
	fam, err := h.f.Get(c.Request.Context(), c.Param("id"), caller(c).UID)
	respond(c, http.StatusOK, fam, err, "Failed to load the family")
}

func (h handlers) invite(c *gin.Context) {
	var body struct {
		Email string `json:"email"`
		// The inviter's app language, for the invitation email; else their browser's.
		Language string `json:"language"`
	}
	if c.Request.ContentLength != 0 && !httpserver.DecodeJSON(c, &body, smallBody) {
		return
	}
	inv, err := h.f.Invite(c.Request.Context(), c.Param("id"), caller(c), body.Email, body.Language, c.GetHeader("Accept-Language"))
	respond(c, http.StatusCreated, inv, err, "Failed to invite")
}

func (h handlers) invites(c *gin.Context) {
	invites, err := h.f.Invites(c.Request.Context(), c.Param("id"), caller(c).UID)
	respond(c, http.StatusOK, invites, err, "Failed to load the invitations")
}

// revokeInvite takes the invitation's token or its id (from the list of open invitations).
func (h handlers) revokeInvite(c *gin.Context) {
	if err := h.f.RevokeInvite(c.Request.Context(), c.Param("id"), caller(c).UID, c.Param("token")); err != nil {
		writeError(c, err, "Failed to revoke the invitation")
		return
	}
	c.Status(http.StatusNoContent)
}

func (h handlers) inviteInfo(c *gin.Context) {
	info, err := h.f.InviteInfo(c.Request.Context(), c.Param("token"))
	respond(c, http.StatusOK, info, err, "Failed to open the invitation")
}

func (h handlers) accept(c *gin.Context) {
	fam, err := h.f.Accept(c.Request.Context(), c.Param("token"), caller(c))
	respond(c, http.StatusOK, fam, err, "Failed to join the family")
}

func (h handlers) removeMember(c *gin.Context) {
	err := h.f.RemoveMember(c.Request.Context(), c.Param("id"), caller(c).UID, c.Param("uid"))
	if err != nil {
		writeError(c, err, "Failed to remove the member")
		return
	}
	c.Status(http.StatusNoContent)
}

func (h handlers) setRole(c *gin.Context) {
	var body struct {
		Role string `json:"role"`
	}
	if !httpserver.DecodeJSON(c, &body, smallBody) {
		return
	}
	ctx := c.Request.Context()
	err := h.f.SetRole(ctx, c.Param("id"), caller(c).UID, c.Param("uid"), body.Role)
	if err != nil {
		writeError(c, err, "Failed to change the role")
		return
	}
	fam, err := h.f.Get(ctx, c.Param("id"), caller(c).UID)
	respond(c, http.StatusOK, fam, err, "Failed to change the role")
}

func (h handlers) draw(c *gin.Context) {
	var req app.DrawRequest
	if !httpserver.DecodeJSON(c, &req, smallBody) {
		return
	}
	res, err := h.f.Draw(c.Request.Context(), c.Param("id"), caller(c).UID, req)
	respond(c, http.StatusCreated, res, err, "Failed to draw names")
}

// planDraw sets the planned draw date ({"drawOn": null} clears it) and the exchange's date,
// place and budget; a field left out is unchanged.
func (h handlers) planDraw(c *gin.Context) {
	var body app.ExchangeRequest
	if !httpserver.DecodeJSON(c, &body, smallBody) {
		return
	}
	plan, err := h.f.Plan(c.Request.Context(), c.Param("id"), caller(c).UID, body)
	respond(c, http.StatusOK, plan, err, "Failed to save the Secret Santa plan")
}

func (h handlers) myMatch(c *gin.Context) {
	m, err := h.f.MyMatch(c.Request.Context(), c.Param("id"), caller(c).UID)
	respond(c, http.StatusOK, m, err, "Failed to load your Secret Santa match")
}

func (h handlers) sendMessage(c *gin.Context) {
	var body struct {
		To   string `json:"to"`
		Text string `json:"text"`
	}
	if !httpserver.DecodeJSON(c, &body, smallBody) {
		return
	}
	m, err := h.f.SendMessage(c.Request.Context(), c.Param("id"), caller(c).UID, body.To, body.Text)
	respond(c, http.StatusCreated, m, err, "Failed to send the message")
}

func (h handlers) messages(c *gin.Context) {
	ms, err := h.f.Messages(c.Request.Context(), c.Param("id"), caller(c).UID)
	respond(c, http.StatusOK, ms, err, "Failed to load the messages")
}

func respond(c *gin.Context, status int, body any, err error, context string) {
	if err != nil {
		writeError(c, err, context)
		return
	}
	httpserver.WriteJSON(c, status, body)
}

// writeError answers an app error. Field errors and impossible draws are their own words;
// the others say what failed, then why. Errors are logged without their request bodies, so
// no log line can hold a pair.
func writeError(c *gin.Context, err error, context string) {
	e := app.ErrorOf(err)
	status := httpserver.StatusOf(e.Kind)
	if e.Kind == apperror.KindInvalid && !app.Unprocessable(err) {
		status = http.StatusBadRequest // family's contract: a broken rule is a 400 (a date's, 422)
	}
	httpserver.WriteAppError(c, e, status, context)
}
