package app

import (
	"context"
	"time"

	"github.com/santa-wishlist/santa/pkg/caller"
	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

// ProductImages stores a scanned product's picture as the caller's upload (media), so the
// item saved from a scan never hot-links a product database's image. Only the picture the
// lookup itself found is fetched: the client names a code, never a URL.
type ProductImages struct {
	barcodes *Barcodes
	links    *Links
	cache    domain.Cache
	ttl      time.Duration
}

// NewProductImages builds the importer; a stored picture's URL is remembered per user and
// code for ttl, so scanning the same product again stores no second copy.
func NewProductImages(barcodes *Barcodes, links *Links, cache domain.Cache, ttl time.Duration) *ProductImages {
	return &ProductImages{barcodes: barcodes, links: links, cache: cache, ttl: ttl}
}

// Store answers our own URL of the picture of the product code names (looked up through the
// cache first; beforeUpstream as for Barcodes.Lookup).
func (p *ProductImages) Store(ctx context.Context, user caller.Caller, code domain.Barcode, beforeUpstream func(context.Context) error) (string, error) {
	key := "barcode-image:" + user.UID + ":" + code.Query
	if data, ok, err := p.get(ctx, key); err == nil && ok && len(data) > 0 {
		return string(data), nil
	}
	product, _, err := p.barcodes.Lookup(ctx, code, beforeUpstream)
	if err != nil {
		return "", err
	}
	if product.ImageURL == "" {
		return "", domain.ErrNoProductImage
	}
	if p.links == nil || p.links.images == nil {
		return "", domain.ErrProductImageUnavailable
	}
	stored, err := p.links.storeImage(ctx, user, product.ImageURL)
	if err != nil {
		p.links.logger.Warn("product image not imported", "code", code.Query, "err", err)
		return "", domain.ErrProductImageUnavailable
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
