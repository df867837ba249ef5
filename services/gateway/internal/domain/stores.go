// Package domain declares what the gateway's ports need of its stores: the rate limiter (its
// limits and verdicts) and the idempotency store (the answers it keeps). The adapters implement
// both in Redis; service wires them into the routes.
package domain

import (
	"context"
	"errors"
	"time"
)

// RateLimiter counts requests per window, shared by every gateway replica (adapters.RateLimiter).
type RateLimiter interface {
	// Allow counts the request against every limit (a refused request counts too, so hammering
	// does not help) and says whether it may pass. It never waits on Redis.
	Allow(now time.Time, limits ...Limit) Verdict
}

// Limit is one counter to check: a scope ("ip", "user"), who, and how many per window.
type Limit struct {
	Scope string
	Key   string
	Max   int64
}

// Verdict says whether a request may pass and, if not, when to come back.
type Verdict struct {
	Allowed    bool
	Scope      string // the limit that refused
	RetryAfter time.Duration
}

// IdempotencyStore remembers the answer to a POST by its Idempotency-Key
// (adapters.IdempotencyStore).
type IdempotencyStore interface {
	// Begin claims the key for user. It returns (nil, nil) when this request is the first and
	// must run; the stored answer when one exists; ErrInProgress when the first is still
	// running; ErrTooManyKeys when the user has claimed too many keys lately.
	Begin(ctx context.Context, user, key string) (*StoredResponse, error)
	// Finish keeps the answer for replay: whole when small, as status and hash when large.
	Finish(ctx context.Context, key string, resp StoredResponse) error
	// Abandon releases the key so the client may retry (the first attempt failed on our side).
	Abandon(ctx context.Context, key string) error
}

// ErrTooManyKeys means the user claimed MaxKeysPerUser keys within KeepFor.
var ErrTooManyKeys = errors.New("too many Idempotency-Keys for this user")

// StoredResponse is a finished answer kept for replay.
type StoredResponse struct {
	Status      int    `json:"status"`
	ContentType string `json:"contentType"`
	Body        []byte `json:"body"`
	// RequestHash is the SHA-256 of the request body the answer belongs to: a key reused
	// for a different body is refused instead of replaying an answer to another request.
	RequestHash []byte `json:"requestHash,omitempty"`
	// BodyHash replaces Body for an answer over MaxStoredBody: the SHA-256 of what was sent.
	BodyHash []byte `json:"bodyHash,omitempty"`
}

// ErrInProgress means the first request with this key has not finished yet.
var ErrInProgress = errors.New("a request with this Idempotency-Key is still in progress")
