package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/santa-wishlist/santa/services/media/internal/domain"
)

// Unattached uploads: an image uploaded without an item (a shop link's
// picture, an upload before the item is saved) lives in items/unattached/. When an item takes
// it as its imageUrl, the wishlist calls Attach, which records the item on the object; the
// sweeper removes the unattached uploads no item took once they are older than the TTL.

// Attach records that itemID uses the unattached image at imageURL (and its thumbnail), when
// owner uploaded it. It returns how many objects it marked.
func (s *Service) Attach(ctx context.Context, owner, imageURL, itemID string) (int, error) {
	item, err := domain.NormalizeItemID(itemID)
	if err != nil || item == "" {
		return 0, fmt.Errorf("%w: attach needs the item's id", domain.ErrInvalidItemID)
	}
	marked := 0
	for _, k := range domain.KeysForImageURL(imageURL) {
		if !strings.HasPrefix(k, domain.ItemPrefix(domain.Unattached)) {
			continue
		}
		info, err := s.store.Stat(ctx, k)
		if errors.Is(err, domain.ErrNotFound) {
			continue
		}
		if err != nil {
			return marked, err
		}
		if info.Owner != owner {
			// Someone else's upload: as if it did not exist, so an item cannot take (and the
			// wishlist then sign addresses for) a photo its owner never uploaded.
			return marked, domain.ErrNotFound
		}
		if info.Item == item {
			continue
		}
		if err := s.store.MarkItem(ctx, k, owner, item, info.ContentType); err != nil {
			return marked, err
		}
		marked++
	}
	return marked, nil
}

// SweepUnattached removes the unattached uploads older than maxAge that no item took, with
// their ledger entries, and returns how many objects it removed.
func (s *Service) SweepUnattached(ctx context.Context, maxAge time.Duration, now time.Time) (int, error) {
	infos, err := s.store.ListInfo(ctx, domain.ItemPrefix(domain.Unattached))
	if err != nil {
		return 0, err
	}
	removed := 0
	defer func() { s.metrics.ObjectsDeleted.Add(float64(removed)) }()
	for _, o := range infos {
		if o.LastModified.IsZero() || now.Sub(o.LastModified) < maxAge {
			continue
		}
		info, err := s.store.Stat(ctx, o.Key)
		if errors.Is(err, domain.ErrNotFound) {
			continue
		}
		if err != nil {
			return removed, err
		}
		if info.Item != "" {
			continue
		}
		if err := s.store.Remove(ctx, o.Key); err != nil {
			return removed, err
		}
		if info.Owner != "" {
			if err := s.forget(ctx, info.Owner, o.Key); err != nil {
				return removed, err
			}
		}
		removed++
	}
	return removed, nil
}

// SweepLoop runs SweepUnattached every interval until ctx ends.
func (s *Service) SweepLoop(ctx context.Context, maxAge, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if n, err := s.SweepUnattached(ctx, maxAge, time.Now()); err != nil && ctx.Err() == nil {
			s.logger.Warn("sweeping unattached uploads failed", "err", err)
		} else if n > 0 {
			s.logger.Info("unattached uploads expired", "objects", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
