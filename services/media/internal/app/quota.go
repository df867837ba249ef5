package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"sync"
)

// ErrQuotaExceeded: storing the image would take the user past their storage quota.
var ErrQuotaExceeded = errors.New("storage quota exceeded")

// Quota bounds what one user keeps stored; 0 turns a bound off.
type Quota struct {
	MaxBytes  int64 // images and thumbnails together
	MaxImages int   // images (each with its thumbnail)
}

func (q Quota) enabled() bool { return q.MaxBytes > 0 || q.MaxImages > 0 }

// Usage is what a user has stored.
type Usage struct {
	Bytes  int64
	Images int
}

// The ledger records every stored image as an empty object in MinIO itself (media has no
// database): owners/<hash of the owner>/<item folder>/<random>.<bytes>. Listing a user's
// prefix gives their count and bytes without reading any image, and deleting an image
// deletes its entry. The owner is hashed because a uid may hold any printable character.
const ledgerRoot = "owners/"

func ledgerPrefix(owner string) string {
	h := sha256.Sum256([]byte(owner))
	return ledgerRoot + hex.EncodeToString(h[:16]) + "/"
}

// ledgerEntry names the ledger entry of an image key items/<folder>/<random>.<ext>.
func ledgerEntry(owner, imageKey string) (string, bool) {
	rest, ok := strings.CutPrefix(imageKey, "items/")
	if !ok {
		return "", false
	}
	folder, file, ok := strings.Cut(rest, "/")
	if !ok || len(file) < 32 {
		return "", false
	}
	return ledgerPrefix(owner) + folder + "/" + file[:32] + ".", true
}

// usage adds up the user's ledger.
func (s *Service) usage(ctx context.Context, owner string) (Usage, error) {
	keys, err := s.store.List(ctx, ledgerPrefix(owner))
	if err != nil {
		return Usage{}, fmt.Errorf("read the storage ledger: %w", err)
	}
	var u Usage
	for _, k := range keys {
		i := strings.LastIndexByte(k, '.')
		n, err := strconv.ParseInt(k[i+1:], 10, 64)
		if i < 0 || err != nil {
			continue
		}
		u.Images++
		u.Bytes += n
	}
	return u, nil
}

// Usage answers what owner has stored.
func (s *Service) Usage(ctx context.Context, owner string) (Usage, error) { return s.usage(ctx, owner) }

// fits says whether adding bytes (0: only checking there is room at all) keeps owner inside
// the quota.
func (s *Service) fits(ctx context.Context, owner string, bytes int64) error {
	if !s.quota.enabled() {
		return nil
	}
	u, err := s.usage(ctx, owner)
	if err != nil {
		return err
	}
	images := u.Images + 1
	if (s.quota.MaxImages > 0 && images > s.quota.MaxImages) ||
		(s.quota.MaxBytes > 0 && (u.Bytes+bytes > s.quota.MaxBytes || (bytes == 0 && u.Bytes >= s.quota.MaxBytes))) {
		return &QuotaError{Quota: s.quota, Used: u}
	}
	return nil
}

// QuotaError says which quota is full.
type QuotaError struct {
	Quota Quota
	Used  Usage
}

func (e *QuotaError) Error() string {
	return fmt.Sprintf("%v: %d images and %d bytes stored (limits %d, %d)", ErrQuotaExceeded,
		e.Used.Images, e.Used.Bytes, e.Quota.MaxImages, e.Quota.MaxBytes)
}
func (e *QuotaError) Unwrap() error { return ErrQuotaExceeded }

// record writes the ledger entry of a stored image.
func (s *Service) record(ctx context.Context, owner, imageKey string, bytes int) error {
	entry, ok := ledgerEntry(owner, imageKey)
	if !ok {
		return fmt.Errorf("no ledger entry for %s", imageKey)
	}
	return s.store.Put(ctx, entry+strconv.Itoa(bytes), nil, "application/octet-stream", owner)
}

// forget removes the ledger entry of an image (any of image or thumbnail key).
func (s *Service) forget(ctx context.Context, owner, key string) error {
	entry, ok := ledgerEntry(owner, key)
	if !ok {
		return nil
	}
	keys, err := s.store.List(ctx, entry)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := s.store.Remove(ctx, k); err != nil {
			return err
		}
	}
	return nil
}

// ownerLocks serialise one user's check-and-store, so that parallel uploads cannot each see
// room for one more (within a replica; across replicas a user may overshoot by one upload
// per replica).
type ownerLocks [64]sync.Mutex

func (l *ownerLocks) lock(owner string) func() {
	h := fnv.New32a()
	_, _ = h.Write([]byte(owner))
	m := &l[h.Sum32()%uint32(len(l))]
	m.Lock()
	return m.Unlock
}
