package domain

import (
	"context"
	"errors"
	"io"
	"time"
)

// ErrNotFound: no object under that key (or a key this service never writes).
var ErrNotFound = errors.New("object not found")

// ObjectInfo describes a stored object.
type ObjectInfo struct {
	Key          string
	ContentType  string
	Size         int64
	ETag         string // without quotes
	LastModified time.Time
	Owner        string // user id recorded at upload
	Item         string // for an unattached upload: the item that took it (Attach), if any
}

// ObjectStore is where images live (MinIO in production and in tests).
type ObjectStore interface {
	Put(ctx context.Context, key string, data []byte, contentType, owner string) error
	Stat(ctx context.Context, key string) (ObjectInfo, error)
	// Get returns the object's content and information; the caller closes the reader.
	Get(ctx context.Context, key string) (io.ReadCloser, ObjectInfo, error)
	// Remove deletes an object; removing a missing object is not an error. The bucket keeps
	// its previous version for a while, so that an operator can bring it back.
	Remove(ctx context.Context, key string) error
	// List returns every key under prefix.
	List(ctx context.Context, prefix string) ([]string, error)
	// ListInfo returns every object under prefix with its size and time (not its owner).
	ListInfo(ctx context.Context, prefix string) ([]ObjectInfo, error)
	// MarkItem records, on the object itself, the item that uses it (keeping its owner).
	MarkItem(ctx context.Context, key, owner, itemID, contentType string) error
	// ListOwnedBy returns every key the user uploaded, attached to an item or not, also those
	// deleted or overwritten whose earlier versions the bucket still keeps.
	ListOwnedBy(ctx context.Context, owner string) ([]string, error)
	// Purge removes every version of an object, so that nothing of it can be recovered (account
	// deletion); purging a missing object is not an error.
	Purge(ctx context.Context, key string) error
}
