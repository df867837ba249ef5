// Package app holds the media use cases: store an uploaded image, serve a stored object and
// delete an item's objects when the item is deleted.
package app

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/semaphore"

	"github.com/santa-wishlist/santa/services/media/internal/domain"
)

// ErrNoOwner: an upload must say which user it belongs to (a user id of 1 to 128 printable
// ASCII characters, as Firebase uids are; it is stored as object metadata).
var ErrNoOwner = errors.New("upload has no valid owner")

// ErrUploadRate: the user sent more images than the per-user upload rate allows.
var ErrUploadRate = errors.New("too many uploads")

var ownerPattern = regexp.MustCompile(`^[\x21-\x7e]{1,128}$`)

// EraseUser removes every object a deleted account uploaded, every version of each: what the
// bucket keeps of deleted photos for recovery must not outlive the account. Idempotent: a
// second call finds nothing. It returns how many objects it removed.
func (s *Service) EraseUser(ctx context.Context, uid string) (int, error) {
	if uid == "" {
		return 0, errors.New("no user to erase")
	}
	keys, err := s.store.ListOwnedBy(ctx, uid)
	if err != nil {
		return 0, err
	}
	// The storage quota's ledger entries are named by a hash of the uid (and written with its
	// owner, so usually listed already).
	ledger, err := s.store.List(ctx, ledgerPrefix(uid))
	if err != nil {
		return 0, err
	}
	for _, k := range ledger {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	deleted := 0
	defer func() { s.metrics.ObjectsDeleted.Add(float64(deleted)) }()
	for _, k := range keys {
		if err := s.store.Purge(ctx, k); err != nil {
			return deleted, fmt.Errorf("remove %s: %w", k, err)
		}
		deleted++
	}
	return deleted, nil
}

// Metrics are the service-specific counters.
type Metrics struct {
	BytesStored    prometheus.Counter
	ObjectsDeleted prometheus.Counter
}

// NewMetrics registers media_bytes_stored_total and media_objects_deleted_total.
func NewMetrics(reg prometheus.Registerer) Metrics {
	m := Metrics{
		BytesStored: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "media_bytes_stored_total", Help: "Bytes written to object storage (images and thumbnails).",
		}),
		ObjectsDeleted: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "media_objects_deleted_total", Help: "Objects removed because their item was deleted.",
		}),
	}
	reg.MustRegister(m.BytesStored, m.ObjectsDeleted)
	return m
}

// Limits bound the work one media process accepts.
type Limits struct {
	// DecodeMemory is the memory, in bytes, all images being decoded at once may need
	// together (a weighted semaphore: a big image takes a big share, small ones run side
	// by side). It is also the most one image may need.
	DecodeMemory int64
	// UploadsPerMinute and UploadBurst are each user's upload rate (public and internal
	// uploads alike); 0 turns the per-user rate off.
	UploadsPerMinute float64
	UploadBurst      int
	// Quota is each user's storage quota (MEDIA_QUOTA_BYTES, MEDIA_QUOTA_IMAGES).
	Quota Quota
}

// Service runs the use cases.
type Service struct {
	store   domain.ObjectStore
	rules   domain.Rules
	metrics Metrics
	logger  *slog.Logger
	// decoding holds the memory of the images being decoded, in bytes.
	decoding *semaphore.Weighted
	uploads  *userRates
	quota    Quota
	owners   ownerLocks
}

// New builds the service.
func New(store domain.ObjectStore, rules domain.Rules, metrics Metrics, logger *slog.Logger, limits Limits) *Service {
	if limits.DecodeMemory <= 0 {
		limits.DecodeMemory = domain.DefaultMaxDecodeBytes
	}
	// One image may never need more than all the slots together.
	if rules.MaxDecodeBytes <= 0 || rules.MaxDecodeBytes > limits.DecodeMemory {
		rules.MaxDecodeBytes = limits.DecodeMemory
	}
	return &Service{store: store, rules: rules, metrics: metrics, logger: logger,
		decoding: semaphore.NewWeighted(limits.DecodeMemory),
		uploads:  newUserRates(limits.UploadsPerMinute, limits.UploadBurst), quota: limits.Quota}
}

// Rules are the limits uploads must respect.
func (s *Service) Rules() domain.Rules { return s.rules }

// Upload is one image to store.
type Upload struct {
	Data   []byte
	ItemID string // optional: the item the image belongs to
	Owner  string // the signed-in user's id
}

// Stored is what a client needs to show the image.
type Stored struct {
	URL          string `json:"url"`
	ThumbnailURL string `json:"thumbnailUrl"`
	ContentType  string `json:"contentType"`
	Bytes        int    `json:"bytes"`
	Width        int    `json:"width"`
	Height       int    `json:"height"`
}

// Store checks, cleans, thumbnails and stores an image.
func (s *Service) Store(ctx context.Context, up Upload) (Stored, error) {
	owner := strings.TrimSpace(up.Owner)
	if !ownerPattern.MatchString(owner) {
		return Stored{}, ErrNoOwner
	}
	itemID, err := domain.NormalizeItemID(up.ItemID)
	if err != nil {
		return Stored{}, err
	}

	if wait, ok := s.uploads.allow(owner, time.Now()); !ok {
		return Stored{}, &RateError{RetryAfter: wait}
	}
	// A full quota is refused before any decoding (and checked again, exactly, before storing).
	if err := s.fits(ctx, owner, 0); err != nil {
		return Stored{}, err
	}
	// The header is read, and hostile images refused, before any memory is reserved.
	plan, err := domain.Inspect(up.Data, s.rules)
	if err != nil {
		return Stored{}, err
	}
	if err := s.decoding.Acquire(ctx, plan.Cost); err != nil {
		return Stored{}, fmt.Errorf("wait for decoding memory: %w", err)
	}
	processed, err := plan.Process(up.Data)
	s.decoding.Release(plan.Cost)
	if err != nil {
		return Stored{}, err
	}

	var random [16]byte
	_, _ = rand.Read(random[:]) // crypto/rand.Read never fails (it aborts the program instead)
	imageKey, thumbKey := domain.ObjectKeys(itemID, random, processed.Image.Ext)
	size := len(processed.Image.Data) + len(processed.Thumb.Data)

	if s.quota.enabled() {
		unlock := s.owners.lock(owner)
		defer unlock()
		if err := s.fits(ctx, owner, int64(size)); err != nil {
			return Stored{}, err
		}
	}
	var wg sync.WaitGroup
	var imageErr, thumbErr error
	wg.Go(func() {
		thumbErr = s.store.Put(ctx, thumbKey, processed.Thumb.Data, processed.Thumb.ContentType, owner)
	})
	imageErr = s.store.Put(ctx, imageKey, processed.Image.Data, processed.Image.ContentType, owner)
	wg.Wait()
	var ledgerErr error
	if imageErr == nil && thumbErr == nil {
		ledgerErr = s.record(ctx, owner, imageKey, size)
	}
	if err := errors.Join(imageErr, thumbErr, ledgerErr); err != nil {
		// Leave no half-stored image behind (the client will retry and get new keys).
		cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		for _, k := range []string{imageKey, thumbKey} {
			if rerr := s.store.Remove(cleanup, k); rerr != nil {
				s.logger.Warn("could not remove a half-stored object", "key", k, "err", rerr)
			}
		}
		return Stored{}, fmt.Errorf("store image %s: %w", imageKey, err)
	}
	s.metrics.BytesStored.Add(float64(len(processed.Image.Data) + len(processed.Thumb.Data)))

	return Stored{
		URL:          domain.URL(imageKey),
		ThumbnailURL: domain.URL(thumbKey),
		ContentType:  processed.Image.ContentType,
		Bytes:        len(processed.Image.Data),
		Width:        processed.Image.Width,
		Height:       processed.Image.Height,
	}, nil
}

// Stat describes the object under key.
func (s *Service) Stat(ctx context.Context, key string) (domain.ObjectInfo, error) {
	if !domain.ValidKey(key) {
		return domain.ObjectInfo{}, domain.ErrNotFound
	}
	return s.store.Stat(ctx, key)
}

// Open returns the object under key for streaming.
func (s *Service) Open(ctx context.Context, key string) (io.ReadCloser, domain.ObjectInfo, error) {
	if !domain.ValidKey(key) {
		return nil, domain.ObjectInfo{}, domain.ErrNotFound
	}
	return s.store.Get(ctx, key)
}

// ItemDeleted is what the media service needs from an item.deleted event.
type ItemDeleted struct {
	ItemID   string
	ImageURL string
	UserID   string // the item's owner
}

// DeleteForItem removes every object of a deleted item: its folder, and the image its
// imageUrl names when that image was uploaded before the item existed. It is idempotent:
// a second call finds nothing left and deletes nothing. It returns how many objects it
// removed.
func (s *Service) DeleteForItem(ctx context.Context, ev ItemDeleted) (int, error) {
	itemID, err := domain.NormalizeItemID(ev.ItemID)
	if err != nil {
		return 0, err
	}
	if itemID == "" {
		return 0, fmt.Errorf("%w: the event names no item", domain.ErrInvalidItemID)
	}
	prefix := domain.ItemPrefix(itemID)
	keys, err := s.store.List(ctx, prefix)
	if err != nil {
		return 0, fmt.Errorf("list objects of item %s: %w", itemID, err)
	}
	deleted := 0
	defer func() { s.metrics.ObjectsDeleted.Add(float64(deleted)) }()
	// Only what the item's owner uploaded goes: an event is a claim, and a forged one (or one
	// naming another user's item) must not delete someone else's photos.
	for _, k := range keys {
		removed, err := s.removeOwned(ctx, k, ev.UserID)
		if err != nil {
			return deleted, err
		}
		if !removed {
			s.logger.Warn("not deleting an object the item's owner did not upload",
				"key", k, "item_id", itemID, "user_id", ev.UserID)
			continue
		}
		deleted++
	}

	// The image URL may name an object uploaded before the item existed. Only unattached
	// objects are removed this way: an object in another item's folder belongs to that
	// item (a user may reuse an image URL), and only when the item's owner uploaded it,
	// so that an imageUrl pointing at someone else's photo cannot delete it.
	for _, k := range domain.KeysForImageURL(ev.ImageURL) {
		if strings.HasPrefix(k, prefix) || !strings.HasPrefix(k, domain.ItemPrefix(domain.Unattached)) {
			continue
		}
		info, err := s.store.Stat(ctx, k)
		if errors.Is(err, domain.ErrNotFound) {
			continue
		}
		if err != nil {
			return deleted, fmt.Errorf("look up %s: %w", k, err)
		}
		if info.Owner == "" || info.Owner != ev.UserID {
			s.logger.Warn("not deleting an image the item's owner did not upload",
				"key", k, "item_id", itemID, "user_id", ev.UserID)
			continue
		}
		if err := s.store.Remove(ctx, k); err != nil {
			return deleted, fmt.Errorf("remove %s: %w", k, err)
		}
		if err := s.forget(ctx, info.Owner, k); err != nil {
			return deleted, fmt.Errorf("forget %s: %w", k, err)
		}
		deleted++
	}
	return deleted, nil
}

// removeOwned deletes the object under key, and its ledger entry, when owner uploaded it.
// A missing object counts as removed (deletes are repeated after a redelivery).
func (s *Service) removeOwned(ctx context.Context, key, owner string) (bool, error) {
	info, err := s.store.Stat(ctx, key)
	if errors.Is(err, domain.ErrNotFound) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("look up %s: %w", key, err)
	}
	if info.Owner == "" || info.Owner != owner {
		return false, nil
	}
	if err := s.store.Remove(ctx, key); err != nil {
		return false, fmt.Errorf("remove %s: %w", key, err)
	}
	if err := s.forget(ctx, owner, key); err != nil {
		return false, fmt.Errorf("forget %s: %w", key, err)
	}
	return true, nil
}

// Discard removes an image (and its thumbnail) that owner stored but that no item kept: the
// wishlist calls it when the item could not be saved (the list was full) or was not needed
// (Send to Santa found the gift already on the list). Someone else's image is left alone.
func (s *Service) Discard(ctx context.Context, owner, imageURL string) (int, error) {
	keys := domain.KeysForImageURL(imageURL)
	if len(keys) == 0 {
		return 0, domain.ErrNotFound
	}
	removed := 0
	for _, k := range keys {
		ok, err := s.removeOwned(ctx, k, owner)
		if err != nil {
			return removed, err
		}
		if ok {
			removed++
		}
	}
	s.metrics.ObjectsDeleted.Add(float64(removed))
	return removed, nil
}
