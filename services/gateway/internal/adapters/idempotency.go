package adapters

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// IdempotencyStore remembers the answer to a POST by its Idempotency-Key, so a double tap or a
// retried request adds one item and both callers see the same answer.
type IdempotencyStore struct {
	rdb     *redis.Client
	prefix  string
	lockTTL time.Duration
	keepTTL time.Duration
}

// NewIdempotencyStore builds a store whose keys start with prefix.
func NewIdempotencyStore(rdb *redis.Client, prefix string) *IdempotencyStore {
	return &IdempotencyStore{rdb: rdb, prefix: prefix, lockTTL: time.Minute, keepTTL: 24 * time.Hour}
}

// StoredResponse is a finished answer kept for replay.
type StoredResponse struct {
	Status      int    `json:"status"`
	ContentType string `json:"contentType"`
	Body        []byte `json:"body"`
	// RequestHash is the SHA-256 of the request body the answer belongs to: a key reused
	// for a different body is refused instead of replaying an answer to another request.
	RequestHash []byte `json:"requestHash,omitempty"`
}

// ErrInProgress means the first request with this key has not finished yet.
var ErrInProgress = errors.New("a request with this Idempotency-Key is still in progress")

const pendingMarker = "pending"

// Begin claims the key. It returns (nil, nil) when this request is the first and must run;
// the stored answer when one exists; ErrInProgress when the first is still running.
func (s *IdempotencyStore) Begin(ctx context.Context, key string) (*StoredResponse, error) {
	full := s.prefix + ":" + key
	claimed, err := s.rdb.SetNX(ctx, full, pendingMarker, s.lockTTL).Result()
	if err != nil {
		return nil, fmt.Errorf("claim idempotency key: %w", err)
	}
	if claimed {
		return nil, nil
	}
	raw, err := s.rdb.Get(ctx, full).Result()
	if errors.Is(err, redis.Nil) {
		// Expired between the two calls: claim again.
		return s.Begin(ctx, key)
	}
	if err != nil {
		return nil, fmt.Errorf("read idempotency key: %w", err)
	}
	if raw == pendingMarker {
		return nil, ErrInProgress
	}
	var stored StoredResponse
	if err := json.Unmarshal([]byte(raw), &stored); err != nil {
		return nil, fmt.Errorf("decode stored response: %w", err)
	}
	return &stored, nil
}

// Finish keeps the answer for replay.
func (s *IdempotencyStore) Finish(ctx context.Context, key string, resp StoredResponse) error {
	raw, err := json.Marshal(resp)
	if err != nil {
		return err
	}
	return s.rdb.Set(ctx, s.prefix+":"+key, raw, s.keepTTL).Err()
}

// Abandon releases the key so the client may retry (the first attempt failed on our side).
func (s *IdempotencyStore) Abandon(ctx context.Context, key string) error {
	return s.rdb.Del(ctx, s.prefix+":"+key).Err()
}
