package firebaseauth

import (
	"crypto/sha256"
	"github.com/santa-wishlist/santa/pkg/auth"
	"sync"
	"time"
)

// tokenCache remembers verified tokens for a short while. A signed-in phone sends the same
// token with every request for up to an hour; verifying it once a minute instead of every time
// saves the signature check (and, against the Auth emulator, an HTTP round trip per request,
// since the SDK then also looks the user up). Revocation is not checked by VerifyIDToken
// either, so the cache weakens nothing; it never outlives the token's own expiry.
type tokenCache struct {
	mu      sync.Mutex
	entries map[[32]byte]cachedUser
	ttl     time.Duration
	max     int
}

type cachedUser struct {
	user    auth.User
	expires time.Time
}

func newTokenCache(ttl time.Duration, max int) *tokenCache {
	return &tokenCache{entries: make(map[[32]byte]cachedUser), ttl: ttl, max: max}
}

func (c *tokenCache) get(token string, now time.Time) (auth.User, bool) {
	key := sha256.Sum256([]byte(token))
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || now.After(e.expires) {
		return auth.User{}, false
	}
	return e.user, true
}

func (c *tokenCache) put(token string, u auth.User, tokenExpiry, now time.Time) {
	expires := now.Add(c.ttl)
	if tokenExpiry.Before(expires) {
		expires = tokenExpiry
	}
	key := sha256.Sum256([]byte(token))
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= c.max {
		// Drop the expired first; if still full, drop an arbitrary one (map order is random).
		for k, e := range c.entries {
			if now.After(e.expires) {
				delete(c.entries, k)
			}
		}
		for k := range c.entries {
			if len(c.entries) < c.max {
				break
			}
			delete(c.entries, k)
		}
	}
	c.entries[key] = cachedUser{user: u, expires: expires}
}
