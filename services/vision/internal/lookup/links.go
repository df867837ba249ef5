package lookup

import (
	"context"
	"errors"
	"log/slog"
	"net/url"

	"github.com/santa-wishlist/santa/pkg/auth"
)

// ImageStore keeps an imported image as the user's own upload (the media service), so the
// wishlist never hot-links a shop's picture.
type ImageStore interface {
	Store(ctx context.Context, owner auth.User, data []byte) (string, error)
}

// LinkItem is a wishlist item filled from a shop's page.
type LinkItem struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Category    string `json:"category"`
	Price       string `json:"price"`
	Currency    string `json:"currency"`
	// ImageURL is our own copy of the shop's picture (empty if it had none or it could not
	// be stored); ImageError says why it is missing when it should have been there.
	ImageURL    string `json:"imageUrl"`
	ImageError  string `json:"imageError,omitempty"`
	ShoppingURL string `json:"shoppingUrl"`
	Source      string `json:"source"`
}

// ErrNothingOnPage: the page names no product at all (no data, no title).
var ErrNothingOnPage = &RefusedError{Code: "no_product_on_page",
	Message: "We could not read a product from this page. Please fill in the item by hand."}

// MaxImportedImage bounds the shop picture fetched for the item.
const MaxImportedImage = 8 << 20

// Links imports shop links.
type Links struct {
	fetcher *Fetcher
	images  ImageStore
	logger  *slog.Logger
}

// NewLinks builds the importer.
func NewLinks(fetcher *Fetcher, images ImageStore, logger *slog.Logger) *Links {
	return &Links{fetcher: fetcher, images: images, logger: logger}
}

// CheckURL refuses what the link alone shows to be unreachable (before any quota is taken).
func (l *Links) CheckURL(raw string) (*url.URL, error) { return l.fetcher.CheckURL(raw) }

// Import fetches the page behind u and fills an item from it, storing its picture as the
// user's upload.
func (l *Links) Import(ctx context.Context, user auth.User, u *url.URL) (LinkItem, error) {
	page, err := l.fetcher.Get(ctx, u, 0, "text/html", "application/xhtml+xml")
	if err != nil {
		return LinkItem{}, err
	}
	e := Extract(page.Body, page.URL)
	if e.Name == "" {
		return LinkItem{}, ErrNothingOnPage
	}
	item := LinkItem{Name: e.Name, Description: e.Description, Currency: e.Currency, ShoppingURL: u.String(),
		Source: e.Source, Category: MapCategory(e.Category, e.Name)}
	if amount, ok := ParseAmount(e.Price); ok {
		item.Price = FormatPrice(amount, e.Currency)
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
func (l *Links) storeImage(ctx context.Context, user auth.User, raw string) (string, error) {
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
