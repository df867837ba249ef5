package lookup

import (
	"context"
	"errors"
	"time"

	"github.com/santa-wishlist/santa/pkg/auth"
)

// ErrNoProductImage: the product is known but no database has a picture of it.
var ErrNoProductImage = errors.New("No picture of this product is known. You can add a photo yourself.")

// ErrProductImageUnavailable: the database's picture could not be fetched or stored.
var ErrProductImageUnavailable = errors.New("The product's picture could not be imported right now; you can add a photo yourself.")

// ProductImages stores a scanned product's picture as the caller's upload (media), so the
// item saved from a scan never hot-links a product database's image. Only the picture the
// lookup itself found is fetched: the client names a code, never a URL.
type ProductImages struct {
	barcodes *Barcodes
	links    *Links
	cache    Cache
	ttl      time.Duration
}

// NewProductImages builds the importer; a stored picture's URL is remembered per user and
// code for ttl, so scanning the same product again stores no second copy.
func NewProductImages(barcodes *Barcodes, links *Links, cache Cache, ttl time.Duration) *ProductImages {
	return &ProductImages{barcodes: barcodes, links: links, cache: cache, ttl: ttl}
}

// Store answers our own URL of the picture of the product code names (looked up through the
// cache first; beforeUpstream as for Barcodes.Lookup).
func (p *ProductImages) Store(ctx context.Context, user auth.User, code Barcode, beforeUpstream func(context.Context) error) (string, error) {
	key := "barcode-image:" + user.UID + ":" + code.Query
	if data, ok, err := p.get(ctx, key); err == nil && ok && len(data) > 0 {
		return string(data), nil
	}
	product, _, err := p.barcodes.Lookup(ctx, code, beforeUpstream)
	if err != nil {
		return "", err
	}
	if product.ImageURL == "" {
		return "", ErrNoProductImage
	}
	if p.links == nil || p.links.images == nil {
		return "", ErrProductImageUnavailable
	}
	stored, err := p.links.storeImage(ctx, user, product.ImageURL)
	if err != nil {
		p.links.logger.Warn("product image not imported", "code", code.Query, "err", err)
		return "", ErrProductImageUnavailable
	}
	setCtx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	if err := p.cache.Set(setCtx, key, []byte(stored), p.ttl); err != nil {
		p.links.logger.Warn("stored product image not remembered", "err", err)
	}
	return stored, nil
}

func (p *ProductImages) get(ctx context.Context, key string) ([]byte, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	return p.cache.Get(ctx, key)
}
