package app

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/caller"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// AddManager makes uid a co-manager of a list for someone else the caller manages.
func (w *Wishlist) AddManager(ctx context.Context, by caller.Caller, listID, uid string) ([]domain.Manager, error) {
	uid = strings.TrimSpace(uid)
	if !domain.IsUUID(listID) {
		return nil, domain.ErrListNotFound
	}
	if uid == "" || len(uid) > 128 {
		return nil, domain.FieldError("uid", "Please name the family member to add by their uid.")
	}
	return w.store.AddManager(ctx, by, listID, uid)
}

// RemoveManager removes a manager of a list the caller manages, or lets the caller leave it.
func (w *Wishlist) RemoveManager(ctx context.Context, by caller.Caller, listID, uid string) error {
	if !domain.IsUUID(listID) {
		return domain.ErrListNotFound
	}
	return w.store.RemoveManager(ctx, by, listID, uid)
}

// Suggestion is a suggested gift as its givers see it.
type Suggestion struct {
	domain.Item
	Suggested   bool        `json:"suggested"`
	SuggestedBy SuggestedBy `json:"suggestedBy"`
}

// SuggestedBy names a suggestion's suggester; Mine is true for the suggester themselves.
type SuggestedBy struct {
	DisplayName string `json:"displayName"`
	Mine        bool   `json:"mine"`
}

// Suggest adds a giver's gift idea to a shared list they may give on.
func (w *Wishlist) Suggest(ctx context.Context, token string, by caller.Caller, draft domain.Draft) (Suggestion, error) {
	if !validToken(token) {
		return Suggestion{}, domain.ErrShareNotFound
	}
	item, err := domain.SuggestionDraft(draft).Validate()
	if err != nil {
		return Suggestion{}, err
	}
	item.ID = uuid.NewString()
	saved, err := w.store.Suggest(ctx, token, by, item)
	if err != nil {
		return Suggestion{}, err
	}
	return Suggestion{Item: saved, Suggested: true, SuggestedBy: SuggestedBy{DisplayName: by.Name, Mine: true}}, nil
}

// EditSuggestion changes a suggestion: its suggester's, or any for a manager of the list.
func (w *Wishlist) EditSuggestion(ctx context.Context, token, itemID string, by caller.Caller, patch domain.Draft) (Suggestion, error) {
	if !validToken(token) {
		return Suggestion{}, domain.ErrShareNotFound
	}
	if !domain.IsUUID(itemID) {
		return Suggestion{}, domain.ErrNotFound
	}
	patch.ListID, patch.ImageURL, patch.AIGenerated, patch.SentToSanta = nil, nil, nil, nil
	saved, err := w.store.EditSuggestion(ctx, token, itemID, by, patch.Edit)
	if err != nil {
		return Suggestion{}, err
	}
	return Suggestion{Item: saved, Suggested: true, SuggestedBy: SuggestedBy{DisplayName: saved.SuggestedByName, Mine: saved.UserID == by.UID}}, nil
}

// DeleteSuggestion removes a suggestion: its suggester's, or any for a manager of the list.
func (w *Wishlist) DeleteSuggestion(ctx context.Context, token, itemID string, by caller.Caller) error {
	if !validToken(token) {
		return domain.ErrShareNotFound
	}
	if !domain.IsUUID(itemID) {
		return domain.ErrNotFound
	}
	return w.store.DeleteSuggestion(ctx, token, itemID, by)
}
