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

func (h handlers) AddItem(c *gin.Context, _ AddItemParams) {
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

func (h handlers) ListItems(c *gin.Context, params ListItemsParams) {
	listID := ""
	if params.ListId != nil {
		listID = *params.ListId
	}
	answerJSON(c, "Failed to load your wishlist", func(ctx context.Context, write func(json.RawMessage)) error {
		return h.w.List(ctx, uid(c), listID, write)
	})
}

func (h handlers) RecentItems(c *gin.Context) {
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

func (h handlers) EditItem(c *gin.Context, id string) {
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

func (h handlers) DeleteItem(c *gin.Context, id string) {
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

func (h handlers) SendToSanta(c *gin.Context, _ SendToSantaParams) {
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

func (h handlers) ListLists(c *gin.Context) {
	lists, err := h.w.Lists(c.Request.Context(), uid(c))
	if err != nil {
		writeError(c, err, "Failed to load your lists")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, lists)
}

func (h handlers) CreateList(c *gin.Context, _ CreateListParams) {
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

func (h handlers) UpdateList(c *gin.Context, id string) {
	var d app.ListDraft
	if !httpserver.DecodeJSON(c, &d, smallBody) {
		return
	}
	list, err := h.w.UpdateList(c.Request.Context(), caller(c), id, d)
	if err != nil {
		writeError(c, err, "Failed to update the list")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, list)
}

func (h handlers) DeleteList(c *gin.Context, id string) {
	if err := h.w.DeleteList(c.Request.Context(), uid(c), id); err != nil {
		writeError(c, err, "Failed to delete the list")
		return
	}
	c.Status(http.StatusNoContent)
}

func (h handlers) ShareList(c *gin.Context, id string) {
	share, err := h.w.Share(c.Request.Context(), caller(c), id)
	if err != nil {
		writeError(c, err, "Failed to share the list")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, share)
}

func (h handlers) UnshareList(c *gin.Context, id string) {
	if err := h.w.Unshare(c.Request.Context(), uid(c), id); err != nil {
		writeError(c, err, "Failed to stop sharing the list")
		return
	}
	c.Status(http.StatusNoContent)
}

func (h handlers) OpenSharedList(c *gin.Context, token ShareToken) {
	if uid(c) == "" {
		// Every visitor who is not signed in gets the same answer, so a shared cache may keep it
		// briefly; Vary: Authorization keeps it from anyone signed in, the owner above all.
		c.Header("Cache-Control", "public, max-age=10")
	}
	answerJSON(c, "Failed to open the list", func(ctx context.Context, write func(json.RawMessage)) error {
		return h.w.Shared(ctx, token, uid(c), write)
	})
}

func (h handlers) ClaimItem(c *gin.Context, token ShareToken, itemID string) {
	var req app.ClaimRequest
	if !httpserver.DecodeJSON(c, &req, smallBody) {
		return
	}
	res, err := h.w.Claim(c.Request.Context(), token, itemID, caller(c), req)
	if err != nil {
		writeError(c, err, "Failed to claim the gift")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, res)
}

func (h handlers) ReleaseClaim(c *gin.Context, token ShareToken, itemID string) {
	if err := h.w.Release(c.Request.Context(), token, itemID, uid(c)); err != nil {
		writeError(c, err, "Failed to release the gift")
		return
	}
	c.Status(http.StatusNoContent)
}

func (h handlers) MyClaims(c *gin.Context) {
	body, err := h.w.Claims(c.Request.Context(), uid(c))
	if err != nil {
		writeError(c, err, "Failed to load your gift shopping list")
		return
	}
	c.Data(http.StatusOK, "application/json; charset=utf-8", body)
}

func (h handlers) AddListManager(c *gin.Context, id string) {
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
	managers, err := h.w.AddManager(c.Request.Context(), caller(c), id, uid)
	if err != nil {
		writeError(c, err, "Failed to add the manager")
		return
	}
	httpserver.WriteJSON(c, http.StatusCreated, gin.H{"managers": managers})
}

func (h handlers) RemoveListManager(c *gin.Context, id, managerUID string) {
	if err := h.w.RemoveManager(c.Request.Context(), caller(c), id, managerUID); err != nil {
		writeError(c, err, "Failed to remove the manager")
		return
	}
	c.Status(http.StatusNoContent)
}

func (h handlers) SuggestGift(c *gin.Context, token ShareToken) {
	var draft app.Draft
	if !httpserver.DecodeJSON(c, &draft, smallBody) {
		return
	}
	s, err := h.w.Suggest(c.Request.Context(), token, caller(c), draft)
	if err != nil {
		writeError(c, err, "Failed to suggest the gift")
		return
	}
	httpserver.WriteJSON(c, http.StatusCreated, s)
}

func (h handlers) EditSuggestion(c *gin.Context, token ShareToken, itemID string) {
	var patch app.Draft
	if !httpserver.DecodeJSON(c, &patch, smallBody) {
		return
	}
	s, err := h.w.EditSuggestion(c.Request.Context(), token, itemID, caller(c), patch)
	if err != nil {
		writeError(c, err, "Failed to update the suggestion")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, s)
}

func (h handlers) DeleteSuggestion(c *gin.Context, token ShareToken, itemID string) {
	if err := h.w.DeleteSuggestion(c.Request.Context(), token, itemID, caller(c)); err != nil {
		writeError(c, err, "Failed to delete the suggestion")
		return
	}
	c.Status(http.StatusNoContent)
}

func (h handlers) StartGroupGift(c *gin.Context, token ShareToken, itemID SharedItemID) {
	var req app.GroupGiftRequest
	if !httpserver.DecodeJSON(c, &req, smallBody) {
		return
	}
	g, err := h.w.StartGroupGift(c.Request.Context(), token, itemID, caller(c), req)
	if err != nil {
		writeError(c, err, "Failed to start the group gift")
		return
	}
	httpserver.WriteJSON(c, http.StatusCreated, gin.H{"groupGift": g})
}

func (h handlers) CancelGroupGift(c *gin.Context, token ShareToken, itemID SharedItemID) {
	if err := h.w.CancelGroupGift(c.Request.Context(), token, itemID, uid(c)); err != nil {
		writeError(c, err, "Failed to cancel the group gift")
		return
	}
	c.Status(http.StatusNoContent)
}

func (h handlers) Pledge(c *gin.Context, token ShareToken, itemID SharedItemID) {
	var req app.PledgeRequest
	if !httpserver.DecodeJSON(c, &req, smallBody) {
		return
	}
	g, err := h.w.Pledge(c.Request.Context(), token, itemID, caller(c), req)
	if err != nil {
		writeError(c, err, "Failed to pledge")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, gin.H{"groupGift": g})
}

func (h handlers) WithdrawPledge(c *gin.Context, token ShareToken, itemID SharedItemID) {
	if err := h.w.Withdraw(c.Request.Context(), token, itemID, uid(c)); err != nil {
		writeError(c, err, "Failed to withdraw the pledge")
		return
	}
	c.Status(http.StatusNoContent)
}

func (h handlers) ListBudgets(c *gin.Context) {
	b, err := h.w.Budgets(c.Request.Context(), uid(c))
	if err != nil {
		writeError(c, err, "Failed to load your budgets")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, b)
}

func (h handlers) SetBudget(c *gin.Context, key string) {
	var req app.BudgetRequest
	if !httpserver.DecodeJSON(c, &req, smallBody) {
		return
	}
	b, err := h.w.SetBudget(c.Request.Context(), uid(c), key, req)
	if err != nil {
		writeError(c, err, "Failed to save the budget")
		return
	}
	httpserver.WriteJSON(c, http.StatusOK, b)
}

func (h handlers) DeleteBudget(c *gin.Context, key string) {
	if err := h.w.DeleteBudget(c.Request.Context(), uid(c), key); err != nil {
		writeError(c, err, "Failed to remove the budget")
		return
	}
	c.Status(http.StatusNoContent)
}

func (h handlers) ThankGivers(c *gin.Context, id string) {
	var req app.ThanksRequest
	if !httpserver.DecodeJSON(c, &req, smallBody) {
		return
	}
	t, err := h.w.Thank(c.Request.Context(), caller(c), id, req)
	if err != nil {
		writeError(c, err, "Failed to say thank you")
		return
	}
	httpserver.WriteJSON(c, http.StatusCreated, t)
}

func (h handlers) GiftsGiven(c *gin.Context) {
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
