package domain

import (
	"context"
	"net/url"
	"time"

	"github.com/santa-wishlist/santa/pkg/caller"
)

// What the use cases need from outside the service. The adapters implement each: Gemini the
// Model, Redis the Cache and the Quota, Upstream a ProductSource, Fetcher the PageFetcher and
// Media the ImageStore.

// Model answers one call to the generative model, without retrying.
type Model interface {
	Generate(ctx context.Context, call Call) (ModelReply, error)
}

// Cache keeps answers by key: the model's, and the product lookups' (Redis in the service).
type Cache interface {
	Get(ctx context.Context, key string) ([]byte, bool, error)
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
}

// Counter is one daily quota: who is counted, under which key, up to which limit.
type Counter struct {
	Scope string // "user" or "ip"
	Key   string
	Limit int
}

// Quota counts model calls.
type Quota interface {
	// Take counts one call against every counter unless one is already spent, and returns
	// the spent one.
	Take(ctx context.Context, counters []Counter, expireAt time.Time) (*Counter, error)
}

// ProductSource is one product database.
type ProductSource interface {
	Name() string
	// Lookup answers found=false with a nil error when the database does not know the code.
	Lookup(ctx context.Context, code string) (Product, bool, error)
}

// PageFetcher fetches shops' pages and pictures from the internet and nothing else (every
// address checked as it is dialled: adapters.Fetcher).
type PageFetcher interface {
	// CheckURL refuses, before any connection, what can be refused from the link alone.
	CheckURL(raw string) (*url.URL, error)
	// Get fetches u (checked by CheckURL) and reads at most maxBytes of it (0: the configured
	// cap). accept says which media types are wanted.
	Get(ctx context.Context, u *url.URL, maxBytes int64, accept ...string) (Page, error)
}

// ImageStore keeps an imported image as the user's own upload (the media service), so the
// wishlist never hot-links a shop's picture.
type ImageStore interface {
	Store(ctx context.Context, owner caller.Caller, data []byte) (string, error)
}
