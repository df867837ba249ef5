// Package app holds the wishlist's use cases.
package app

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// Store is where items live (PostgreSQL in production and in tests).
type Store interface {
	Create(ctx context.Context, item domain.Item) (domain.Item, error)
	// ListJSON hands write the user's items, newest first and at most limit (0 for all), as
	// the JSON array of domain.Item; the buffer is reused once write returns.
	ListJSON(ctx context.Context, userID string, limit int, write func(json.RawMessage)) error
	Delete(ctx context.Context, userID, id string) error
	SendToSanta(ctx context.Context, userID, existingID string, draft domain.Item) (domain.Item, error)
}

// ImageStore keeps inline images out of the database.
type ImageStore interface {
	StoreDataURL(ctx context.Context, userID, itemID, dataURL string) (string, error)
}

// ErrImagesUnavailable means an inline image arrived but no media service is configured.
var ErrImagesUnavailable = errors.New("photos cannot be stored right now")

// Wishlist is the application service.
type Wishlist struct {
	store  Store
	images ImageStore // nil when no media service is configured
}

// New builds the application.
func New(store Store, images ImageStore) *Wishlist { return &Wishlist{store: store, images: images} }

// Add validates a draft and saves it for the user.
func (w *Wishlist) Add(ctx context.Context, userID string, draft domain.Draft) (domain.Item, error) {
	item, err := w.prepare(ctx, userID, draft)
	if err != nil {
		return domain.Item{}, err
	}
	return w.store.Create(ctx, item)
}

// prepare validates the draft, gives the item its id and moves an inline image to media.
func (w *Wishlist) prepare(ctx context.Context, userID string, draft domain.Draft) (domain.Item, error) {
	item, err := draft.Validate()
	if err != nil {
		return domain.Item{}, err
	}
	item.ID = uuid.NewString()
	item.UserID = userID
	if item.ImageURL != nil && domain.IsDataURL(*item.ImageURL) {
		if w.images == nil {
			return domain.Item{}, ErrImagesUnavailable
		}
		url, err := w.images.StoreDataURL(ctx, userID, item.ID, *item.ImageURL)
		if err != nil {
			return domain.Item{}, err
		}
		item.ImageURL = &url
	}
	return item, nil
}

// List answers the user's whole wishlist, newest first, as JSON.
func (w *Wishlist) List(ctx context.Context, userID string, write func(json.RawMessage)) error {
	return w.store.ListJSON(ctx, userID, 0, write)
}

// Recent answers the user's newest items as JSON.
func (w *Wishlist) Recent(ctx context.Context, userID string, write func(json.RawMessage)) error {
	return w.store.ListJSON(ctx, userID, domain.RecentLimit, write)
}

// Remove deletes one of the user's items.
func (w *Wishlist) Remove(ctx context.Context, userID, id string) error {
	if _, err := uuid.Parse(id); err != nil {
		return domain.ErrNotFound
	}
	return w.store.Delete(ctx, userID, id)
}

// SendToSanta saves the gift if it is not on the wishlist yet and marks it sent.
func (w *Wishlist) SendToSanta(ctx context.Context, userID, existingID string, draft domain.Draft) (domain.Item, error) {
	if existingID != "" {
		if _, err := uuid.Parse(existingID); err != nil {
			return domain.Item{}, domain.ErrNotFound
		}
		return w.store.SendToSanta(ctx, userID, existingID, domain.Item{})
	}
	item, err := w.prepare(ctx, userID, draft)
	if err != nil {
		return domain.Item{}, err
	}
	return w.store.SendToSanta(ctx, userID, "", item)
}
