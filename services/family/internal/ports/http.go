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

type handlers struct{ f *app.Families }

// caller is the verified user with Name settled to the name the family sees.
func caller(c *gin.Context) auth.User {
	u, _ := auth.UserFrom(c)
	u.Name = u.ShownName("A family member")
	return u
}

// CreateFamily answers POST /api/families {name}: a new family, the caller its admin.
func (h handlers) CreateFamily(c *gin.Context, _ CreateFamilyParams) {
	var body CreateFamilyJSONRequestBody
	if !httpserver.DecodeJSON(c, &body, smallBody) {
		return
	}
	created, err := h.f.Create(c.Request.Context(), caller(c), body.Name)
	respond(c, http.StatusCreated, created, err, "Failed to create the family")
}

// ListFamilies answers GET /api/families: the caller's families.
func (h handlers) ListFamilies(c *gin.Context) {
	fams, err := h.f.List(c.Request.Context(), caller(c).UID)
	respond(c, http.StatusOK, fams, err, "Failed to load your families")
}

// GetFamily answers GET /api/families/{id}.
func (h handlers) GetFamily(c *gin.Context, id FamilyID) {
	fam, err := h.f.Get(c.Request.Context(), id, caller(c).UID)
	respond(c, http.StatusOK, fam, err, "Failed to load the family")
}

// InviteToFamily answers POST /api/families/{id}/invites {email?, language?}. The body keeps its
// own type: the generated one's email (openapi_types.Email) would refuse a malformed address in
// its own words, where the app answers it as a field error.
func (h handlers) InviteToFamily(c *gin.Context, id FamilyID, _ InviteToFamilyParams) {
	var body struct {
		Email string `json:"email"`
		// The inviter's app language, for the invitation email; else their browser's.
		Language string `json:"language"`
	}
	if c.Request.ContentLength != 0 && !httpserver.DecodeJSON(c, &body, smallBody) {
		return
	}
	inv, err := h.f.Invite(c.Request.Context(), id, caller(c), body.Email, body.Language, c.GetHeader("Accept-Language"))
	respond(c, http.StatusCreated, inv, err, "Failed to invite")
}

// ListFamilyInvites answers GET /api/families/{id}/invites.
func (h handlers) ListFamilyInvites(c *gin.Context, id FamilyID) {
	invites, err := h.f.Invites(c.Request.Context(), id, caller(c).UID)
	respond(c, http.StatusOK, invites, err, "Failed to load the invitations")
}

// RevokeFamilyInvite answers DELETE /api/families/{id}/invites/{token}: token is the
// invitation's token or its id (from the list of open invitations).
func (h handlers) RevokeFamilyInvite(c *gin.Context, id FamilyID, token string) {
	if err := h.f.RevokeInvite(c.Request.Context(), id, caller(c).UID, token); err != nil {
		writeError(c, err, "Failed to revoke the invitation")
		return
	}
	c.Status(http.StatusNoContent)
}

// InviteInfo answers GET /api/invites/{token}: the accept page shows who invited before the
// visitor signs in.
func (h handlers) InviteInfo(c *gin.Context, token ShareToken) {
	info, err := h.f.InviteInfo(c.Request.Context(), token)
	respond(c, http.StatusOK, info, err, "Failed to open the invitation")
}

// AcceptInvite answers POST /api/invites/{token}/accept.
func (h handlers) AcceptInvite(c *gin.Context, token ShareToken) {
	fam, err := h.f.Accept(c.Request.Context(), token, caller(c))
	respond(c, http.StatusOK, fam, err, "Failed to join the family")
}

// RemoveFamilyMember answers DELETE /api/families/{id}/members/{uid}.
func (h handlers) RemoveFamilyMember(c *gin.Context, id FamilyID, uid string) {
	err := h.f.RemoveMember(c.Request.Context(), id, caller(c).UID, uid)
	if err != nil {
		writeError(c, err, "Failed to remove the member")
		return
	}
	c.Status(http.StatusNoContent)
}

// SetFamilyRole answers PATCH /api/families/{id}/members/{uid} {role}. The body keeps its own
// type: the generated role takes any JSON, where a number must stay a wrong_type answer.
func (h handlers) SetFamilyRole(c *gin.Context, id FamilyID, uid string) {
	var body struct {
		Role string `json:"role"`
	}
	if !httpserver.DecodeJSON(c, &body, smallBody) {
		return
	}
	ctx := c.Request.Context()
	err := h.f.SetRole(ctx, id, caller(c).UID, uid, body.Role)
	if err != nil {
		writeError(c, err, "Failed to change the role")
		return
	}
	fam, err := h.f.Get(ctx, id, caller(c).UID)
	respond(c, http.StatusOK, fam, err, "Failed to change the role")
}

// DrawSecretSanta answers POST /api/families/{id}/secret-santa. The body is the app's
// DrawRequest, as before: the generated one only repeats it with pointers.
func (h handlers) DrawSecretSanta(c *gin.Context, id FamilyID) {
	var req app.DrawRequest
	if !httpserver.DecodeJSON(c, &req, smallBody) {
		return
	}
	res, err := h.f.Draw(c.Request.Context(), id, caller(c).UID, req)
	respond(c, http.StatusCreated, res, err, "Failed to draw names")
}

// PlanSecretSanta answers PATCH /api/families/{id}/secret-santa: it sets the planned draw date
// ({"drawOn": null} clears it) and the exchange's date, place and budget; a field left out is
// unchanged. The body is the app's ExchangeRequest, which tells a null from a field left out
// (the generated pointers cannot).
func (h handlers) PlanSecretSanta(c *gin.Context, id FamilyID) {
	var body app.ExchangeRequest
	if !httpserver.DecodeJSON(c, &body, smallBody) {
		return
	}
	plan, err := h.f.Plan(c.Request.Context(), id, caller(c).UID, body)
	respond(c, http.StatusOK, plan, err, "Failed to save the Secret Santa plan")
}

// MySecretSantaMatch answers GET /api/families/{id}/secret-santa.
func (h handlers) MySecretSantaMatch(c *gin.Context, id FamilyID) {
	m, err := h.f.MyMatch(c.Request.Context(), id, caller(c).UID)
	respond(c, http.StatusOK, m, err, "Failed to load your Secret Santa match")
}

// SendSecretSantaMessage answers POST /api/families/{id}/secret-santa/messages {to, text}. The
// body keeps its own type: the generated to's enum type would be named in a wrong_type answer.
func (h handlers) SendSecretSantaMessage(c *gin.Context, id FamilyID, _ SendSecretSantaMessageParams) {
	var body struct {
		To   string `json:"to"`
		Text string `json:"text"`
	}
	if !httpserver.DecodeJSON(c, &body, smallBody) {
		return
	}
	m, err := h.f.SendMessage(c.Request.Context(), id, caller(c).UID, body.To, body.Text)
	respond(c, http.StatusCreated, m, err, "Failed to send the message")
}

// MySecretSantaMessages answers GET /api/families/{id}/secret-santa/messages.
func (h handlers) MySecretSantaMessages(c *gin.Context, id FamilyID) {
	ms, err := h.f.Messages(c.Request.Context(), id, caller(c).UID)
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
