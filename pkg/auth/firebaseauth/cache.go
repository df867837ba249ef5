package firebaseauth

import (
	"crypto/sha256"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/santa-wishlist/santa/pkg/auth"
)

// tokenCache remembers verified tokens for a short while. A signed-in phone sends the same
// token with every request for up to an hour; verifying it once a minute instead of every time
// saves the signature check (and, against the Auth emulator, an HTTP round trip per request,
// since the SDK then also looks the user up). Revocation is not checked by VerifyIDToken
// either, so the cache weakens nothing; it never outlives the token's own expiry. Past max
// entries the least recently used goes (the same library as the identity assertions' caches).
type tokenCache struct {
	entries *lru.Cache[[32]byte, cachedUser]
	ttl     time.Duration
}

type cachedUser struct {
	user    auth.User
	expires time.Time
}

func newTokenCache(ttl time.Duration, max int) *tokenCache {
	c, _ := lru.New[[32]byte, cachedUser](max) // errors only for max <= 0
	return &tokenCache{entries: c, ttl: ttl}
}

func (c *tokenCache) get(token string, now time.Time) (auth.User, bool) {
	e, ok := c.entries.Get(sha256.Sum256([]byte(token)))
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
	c.entries.Add(sha256.Sum256([]byte(token)), cachedUser{user: u, expires: expires})
}
