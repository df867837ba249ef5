// Package ports exposes the wishlist over HTTP to the gateway. It depends on app alone:
// app's error kinds decide the status codes here.
package ports

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/mediaurl"
	"github.com/santa-wishlist/santa/services/wishlist/internal/app"
)

// MaxBodyBytes bounds an item: its inline photo is the large part (the gateway enforces the
// same limit at the edge).
const MaxBodyBytes = 12 << 20

// smallBody bounds the JSON-only calls (lists, claims).
const smallBody = 64 << 10

// etagMaxBody is the largest answer given an ETag (a full list of 500 items fits).
const etagMaxBody = 4 << 20

// Messages of the spec's error catalogue (docs/spec.md, section 8: error catalogue).
const msgFailedToAdd = "Failed to add item to wishlist"

// Routes registers the wishlist endpoints. The paths are the public ones: the gateway
// forwards them unchanged. photos signs the photo address of each item answered.
func Routes(r gin.IRouter, w *app.Wishlist, photos *mediaurl.Signer) {
	h := handlers{w, photos}
	// Reads answer 304 to a caller who already holds the same answer (Christmas Eve's read
	// storm on shared lists); the tag hashes only what this caller is sent.
	revalidate := httpserver.ETag("private, no-cache", etagMaxBody)
	api := r.Group("/api", auth.Caller(true), revalidate)
	api.POST("/wishlist", h.add)
	api.GET("/wishlist", h.list)
	api.GET("/wishlist/recent", h.recent)
	api.PATCH("/wishlist/:id", h.edit)
	api.DELETE("/wishlist/:id", h.remove)
	api.POST("/santa", h.sendToSanta)

	api.GET("/lists", h.lists)
	api.POST("/lists", h.createList)
	api.PATCH("/lists/:id", h.updateList)
	api.DELETE("/lists/:id", h.deleteList)
	api.POST("/lists/:id/managers", h.addManager)
	api.DELETE("/lists/:id/managers/:uid", h.removeManager)
	api.POST("/lists/:id/share", h.share)
	api.DELETE("/lists/:id/share", h.unshare)
	api.PUT("/shared/:token/items/:itemId/claim", h.claim)
	api.DELETE("/shared/:token/items/:itemId/claim", h.release)
	api.GET("/claims", h.claims)
	api.POST("/shared/:token/suggestions", h.suggest)
	api.PATCH("/shared/:token/suggestions/:itemId", h.editSuggestion)
	api.DELETE("/shared/:token/suggestions/:itemId", h.deleteSuggestion)
	api.POST("/shared/:token/items/:itemId/group-gift", h.startGroupGift)
	api.DELETE("/shared/:token/items/:itemId/group-gift", h.cancelGroupGift)
	api.PUT("/shared/:token/items/:itemId/pledge", h.pledge)
	api.DELETE("/shared/:token/items/:itemId/pledge", h.withdraw)
	api.GET("/budgets", h.budgets)
	api.PUT("/budgets/:key", h.setBudget)
	api.DELETE("/budgets/:key", h.deleteBudget)
	api.POST("/wishlist/:id/thanks", h.thank)
	api.GET("/gifts/given", h.giftsGiven)
	// A shared list opens for visitors too.
	r.GET("/api/shared/:token", auth.Caller(false), revalidate, h.shared)
}

type handlers struct {
	w      *app.Wishlist
	photos *mediaurl.Signer
}

// writeItem answers one item, its photo at a signed address (the list answers are signed as
// the store writes them).
func (h handlers) writeItem(c *gin.Context, status int, item app.Item) {
	item.ImageURL = h.photos.At(time.Now()).SignPtr(item.ImageURL)
	httpserver.WriteJSON(c, status, item)
}

func uid(c *gin.Context) string {
	u, _ := auth.UserFrom(c)
	return u.UID
}

// caller is the verified user with Name settled to the name others see (the owner's name on
// a shared list, the claimer's name after the reveal date).
func caller(c *gin.Context) auth.User {
	u, _ := auth.UserFrom(c)
	u.Name = u.ShownName("A friend")
	return u
}

func (h handlers) add(c *gin.Context) {
	var draft app.Draft
	if !httpserver.DecodeJSON(c, &draft, MaxBodyBytes) {
		return
	}
	item, err := h.w.Add(c.Request.Context(), caller(c), draft)
	if err != nil {
		writeError(c, err, msgFailedToAdd)
		return
	}
	h.writeItem(c, http.StatusCreated, item)
}

func (h handlers) list(c *gin.Context) {
	listID := c.Query("listId")
	answerJSON(c, "Failed to load your wishlist", func(ctx context.Context, write func(json.RawMessage)) error {
		return h.w.List(ctx, uid(c), listID, write)
	})
}

func (h handlers) recent(c *gin.Context) {
	answerJSON(c, "Failed to load your wishlist", func(ctx context.Context, write func(json.RawMessage)) error {
		return h.w.Recent(ctx, uid(c), write)
	})
}

// answerJSON writes an answer the store already encoded as JSON.
func answerJSON(c *gin.Context, context string, answer func(ctx context.Context, write func(json.RawMessage)) error) {
	err := answer(c.Request.Context(), func(body json.RawMessage) {
		c.Data(http.StatusOK, "application/json; charset=utf-8", body)
	})
	if err != nil {
		writeError(c, err, context)
	}
}

func (h handlers) edit(c *gin.Context) {
	id := c.Param("id")
	if !validID(c, id, "Failed to update item: that item id is not valid.") {
		return
	}
	var patch app.Draft
	if !httpserver.DecodeJSON(c, &patch, MaxBodyBytes) {
		return
	}
	item, err := h.w.Edit(c.Request.Context(), uid(c), id, patch)
	if err != nil {
		writeError(c, err, "Failed to update item")
		return
	}
	h.writeItem(c, http.StatusOK, item)
}

func validID(c *gin.Context, id, msg string) bool {
	if _, err := uuid.Parse(id); err != nil {
		httpserver.Abort(c, http.StatusBadRequest, "invalid_id", msg)
		return false
	}
	return true
}

func (h handlers) remove(c *gin.Context) {
	id := c.Param("id")
	if !validID(c, id, "Failed to delete item: that item id is not valid.") {
		return
	}
	if err := h.w.Remove(c.Request.Context(), uid(c), id); err != nil {
		writeError(c, err, "Failed to delete item")
		return
	}
	c.Status(http.StatusNoContent)
}

// santaRequest is the item as the gift options screen has it, plus the id of an item already
// on the wishlist when the client knows it.
type santaRequest struct {
	ID *string `json:"id"`
	app.Draft
}

func (h handlers) sendToSanta(c *gin.Context) {
	var req santaRequest
	if !httpserver.DecodeJSON(c, &req, MaxBodyBytes) {
		return
	}
	existing := ""
	if req.ID != nil && *req.ID != "" {
		existing = *req.ID
		if !validID(c, existing, "That item id is not valid.") {
			return
		}
	}
	item, err := h.w.SendToSanta(c.Request.Context(), uid(c), existing, req.Draft)
	if err != nil {
		writeError(c, err, "Failed to send your gift request to Santa")
		return
	}
	h.writeItem(c, http.StatusOK, item)
}

func (h handlers) lists(c *gin.Context) {
	lists, err := h.w.Lists(c.Request.Context(), uid(c))
	if err != nil {
		writeError(c, err, "Failed to load your lists")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, lists)
}

func (h handlers) createList(c *gin.Context) {
	var d app.ListDraft
	if !httpserver.DecodeJSON(c, &d, smallBody) {
		return
	}
	list, err := h.w.CreateList(c.Request.Context(), caller(c), d, time.Now())
	if err != nil {
		writeError(c, err, "Failed to create the list")
		return
	}
	httpserver.WriteJSON(c, http.StatusCreated, list)
}

func (h handlers) updateList(c *gin.Context) {
	var d app.ListDraft
	if !httpserver.DecodeJSON(c, &d, smallBody) {
		return
	}
	list, err := h.w.UpdateList(c.Request.Context(), caller(c), c.Param("id"), d)
	if err != nil {
		writeError(c, err, "Failed to update the list")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, list)
}

func (h handlers) deleteList(c *gin.Context) {
	if err := h.w.DeleteList(c.Request.Context(), uid(c), c.Param("id")); err != nil {
		writeError(c, err, "Failed to delete the list")
		return
	}
	c.Status(http.StatusNoContent)
}

func (h handlers) share(c *gin.Context) {
	share, err := h.w.Share(c.Request.Context(), caller(c), c.Param("id"))
	if err != nil {
		writeError(c, err, "Failed to share the list")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, share)
}

func (h handlers) unshare(c *gin.Context) {
	if err := h.w.Unshare(c.Request.Context(), uid(c), c.Param("id")); err != nil {
		writeError(c, err, "Failed to stop sharing the list")
		return
	}
	c.Status(http.StatusNoContent)
}

func (h handlers) shared(c *gin.Context) {
	if uid(c) == "" {
		// Every visitor who is not signed in gets the same answer, so a shared cache may keep it
		// briefly; Vary: Authorization keeps it from anyone signed in, the owner above all.
		c.Header("Cache-Control", "public, max-age=10")
	}
	answerJSON(c, "Failed to open the list", func(ctx context.Context, write func(json.RawMessage)) error {
		return h.w.Shared(ctx, c.Param("token"), uid(c), write)
	})
}

func (h handlers) claim(c *gin.Context) {
	var req app.ClaimRequest
	if !httpserver.DecodeJSON(c, &req, smallBody) {
		return
	}
	res, err := h.w.Claim(c.Request.Context(), c.Param("token"), c.Param("itemId"), caller(c), req)
	if err != nil {
		writeError(c, err, "Failed to claim the gift")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, res)
}

func (h handlers) release(c *gin.Context) {
	if err := h.w.Release(c.Request.Context(), c.Param("token"), c.Param("itemId"), uid(c)); err != nil {
		writeError(c, err, "Failed to release the gift")
		return
	}
	c.Status(http.StatusNoContent)
}

func (h handlers) claims(c *gin.Context) {
	body, err := h.w.Claims(c.Request.Context(), uid(c))
	if err != nil {
		writeError(c, err, "Failed to load your gift shopping list")
		return
	}
	c.Data(http.StatusOK, "application/json; charset=utf-8", body)
}

func (h handlers) addManager(c *gin.Context) {
	var body struct {
		UID *string `json:"uid"`
	}
	if !httpserver.DecodeJSON(c, &body, smallBody) {
		return
	}
	uid := ""
	if body.UID != nil {
		uid = *body.UID
	}
	managers, err := h.w.AddManager(c.Request.Context(), caller(c), c.Param("id"), uid)
	if err != nil {
		writeError(c, err, "Failed to add the manager")
		return
	}
	httpserver.WriteJSON(c, http.StatusCreated, gin.H{"managers": managers})
}

func (h handlers) removeManager(c *gin.Context) {
	if err := h.w.RemoveManager(c.Request.Context(), caller(c), c.Param("id"), c.Param("uid")); err != nil {
		writeError(c, err, "Failed to remove the manager")
		return
	}
	c.Status(http.StatusNoContent)
}

func (h handlers) suggest(c *gin.Context) {
	var draft app.Draft
	if !httpserver.DecodeJSON(c, &draft, smallBody) {
		return
	}
	s, err := h.w.Suggest(c.Request.Context(), c.Param("token"), caller(c), draft)
	if err != nil {
		writeError(c, err, "Failed to suggest the gift")
		return
	}
	httpserver.WriteJSON(c, http.StatusCreated, s)
}

func (h handlers) editSuggestion(c *gin.Context) {
	var patch app.Draft
	if !httpserver.DecodeJSON(c, &patch, smallBody) {
		return
	}
	s, err := h.w.EditSuggestion(c.Request.Context(), c.Param("token"), c.Param("itemId"), caller(c), patch)
	if err != nil {
		writeError(c, err, "Failed to update the suggestion")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, s)
}

func (h handlers) deleteSuggestion(c *gin.Context) {
	if err := h.w.DeleteSuggestion(c.Request.Context(), c.Param("token"), c.Param("itemId"), caller(c)); err != nil {
		writeError(c, err, "Failed to delete the suggestion")
		return
	}
	c.Status(http.StatusNoContent)
}

func (h handlers) startGroupGift(c *gin.Context) {
	var req app.GroupGiftRequest
	if !httpserver.DecodeJSON(c, &req, smallBody) {
		return
	}
	g, err := h.w.StartGroupGift(c.Request.Context(), c.Param("token"), c.Param("itemId"), caller(c), req)
	if err != nil {
		writeError(c, err, "Failed to start the group gift")
		return
	}
	httpserver.WriteJSON(c, http.StatusCreated, gin.H{"groupGift": g})
}

func (h handlers) cancelGroupGift(c *gin.Context) {
	if err := h.w.CancelGroupGift(c.Request.Context(), c.Param("token"), c.Param("itemId"), uid(c)); err != nil {
		writeError(c, err, "Failed to cancel the group gift")
		return
	}
	c.Status(http.StatusNoContent)
}

func (h handlers) pledge(c *gin.Context) {
	var req app.PledgeRequest
	if !httpserver.DecodeJSON(c, &req, smallBody) {
		return
	}
	g, err := h.w.Pledge(c.Request.Context(), c.Param("token"), c.Param("itemId"), caller(c), req)
	if err != nil {
		writeError(c, err, "Failed to pledge")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, gin.H{"groupGift": g})
}

func (h handlers) withdraw(c *gin.Context) {
	if err := h.w.Withdraw(c.Request.Context(), c.Param("token"), c.Param("itemId"), uid(c)); err != nil {
		writeError(c, err, "Failed to withdraw the pledge")
		return
	}
	c.Status(http.StatusNoContent)
}

func (h handlers) budgets(c *gin.Context) {
	b, err := h.w.Budgets(c.Request.Context(), uid(c))
	if err != nil {
		writeError(c, err, "Failed to load your budgets")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, b)
}

func (h handlers) setBudget(c *gin.Context) {
	var req app.BudgetRequest
	if !httpserver.DecodeJSON(c, &req, smallBody) {
		return
	}
	b, err := h.w.SetBudget(c.Request.Context(), uid(c), c.Param("key"), req)
	if err != nil {
		writeError(c, err, "Failed to save the budget")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, b)
}

func (h handlers) deleteBudget(c *gin.Context) {
	if err := h.w.DeleteBudget(c.Request.Context(), uid(c), c.Param("key")); err != nil {
		writeError(c, err, "Failed to remove the budget")
		return
	}
	c.Status(http.StatusNoContent)
}

func (h handlers) thank(c *gin.Context) {
	var req app.ThanksRequest
	if !httpserver.DecodeJSON(c, &req, smallBody) {
		return
	}
	t, err := h.w.Thank(c.Request.Context(), caller(c), c.Param("id"), req)
	if err != nil {
		writeError(c, err, "Failed to say thank you")
		return
	}
	httpserver.WriteJSON(c, http.StatusCreated, t)
}

func (h handlers) giftsGiven(c *gin.Context) {
	body, err := h.w.GiftsGiven(c.Request.Context(), uid(c))
	if err != nil {
		writeError(c, err, "Failed to load the gifts you gave")
		return
	}
	c.Data(http.StatusOK, "application/json; charset=utf-8", body)
}

// writeError answers an app error. Field errors are the field's own words; the others say
// what failed, then why: "Failed to delete item: item not found."
func writeError(c *gin.Context, err error, context string) {
	e := app.ErrorOf(err)
	httpserver.WriteAppError(c, e, httpserver.StatusOf(e.Kind), context)
}
