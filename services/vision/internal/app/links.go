package app

import (
	"context"
	"errors"
	"log/slog"
	"net/url"

	"github.com/santa-wishlist/santa/pkg/caller"
	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

// MaxImportedImage bounds the shop picture fetched for the item.
const MaxImportedImage = 8 << 20

// Links imports shop links.
type Links struct {
	fetcher domain.PageFetcher
	images  domain.ImageStore
	logger  *slog.Logger
}

// NewLinks builds the importer.
func NewLinks(fetcher domain.PageFetcher, images domain.ImageStore, logger *slog.Logger) *Links {
	return &Links{fetcher: fetcher, images: images, logger: logger}
}

// CheckURL refuses what the link alone shows to be unreachable (before any quota is taken).
func (l *Links) CheckURL(raw string) (*url.URL, error) { return l.fetcher.CheckURL(raw) }

// Import fetches the page behind u and fills an item from it, storing its picture as the
// user's upload.
func (l *Links) Import(ctx context.Context, user caller.Caller, u *url.URL) (domain.LinkItem, error) {
	page, err := l.fetcher.Get(ctx, u, 0, "text/html", "application/xhtml+xml")
	if err != nil {
		return domain.LinkItem{}, err
	}
	e := domain.Extract(page.Body, page.URL)
	if e.Name == "" {
		return domain.LinkItem{}, domain.ErrNothingOnPage
	}
	item := domain.LinkItem{Name: e.Name, Description: e.Description, Currency: e.Currency, ShoppingURL: u.String(),
		Source: e.Source, Category: domain.MapCategory(e.Category, e.Name)}
	if amount, ok := domain.ParseAmount(e.Price); ok {
		item.Price = domain.FormatPrice(amount, e.Currency)
	}
	if e.ImageURL != "" && l.images == nil {
		item.ImageError = "Pictures cannot be imported here (no media service configured)."
	} else if e.ImageURL != "" {
		if stored, err := l.storeImage(ctx, user, e.ImageURL); err != nil {
			l.logger.Warn("shop image not imported", "err", err)
			item.ImageError = "The shop's picture could not be imported; you can add a photo yourself."
		} else {
			item.ImageURL = stored
		}
	}
	return item, nil
}

// storeImage fetches the picture through the same guarded fetcher (its address is the
// shop's to choose, so it is checked like the page) and hands it to media.
func (l *Links) storeImage(ctx context.Context, user caller.Caller, raw string) (string, error) {
	u, err := l.fetcher.CheckURL(raw)
	if err != nil {
		return "", err
	}
	img, err := l.fetcher.Get(ctx, u, MaxImportedImage, "image/")
	if err != nil {
		return "", err
	}
	if img.Truncated {
		return "", errors.New("image larger than the import limit")
	}
	return l.images.Store(ctx, user, img.Body)
}
