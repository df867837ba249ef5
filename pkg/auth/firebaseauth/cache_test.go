package firebaseauth

import (
	"github.com/santa-wishlist/santa/pkg/auth"
	"testing"
	"time"
)

func TestTokenCacheNeverOutlivesTheTokenOrItsTTL(t *testing.T) {
	c := newTokenCache(time.Minute, 2)
	now := time.Now()
	c.put("a", auth.User{UID: "a"}, now.Add(time.Hour), now)
	c.put("short", auth.User{UID: "s"}, now.Add(10*time.Second), now)
	if u, ok := c.get("a", now.Add(30*time.Second)); !ok || u.UID != "a" {
		t.Fatal("fresh entry missing")
	}
	if _, ok := c.get("a", now.Add(61*time.Second)); ok {
		t.Fatal("entry outlived the cache TTL")
	}
	if _, ok := c.get("short", now.Add(11*time.Second)); ok {
		t.Fatal("entry outlived its token")
	}
	c.put("b", auth.User{UID: "b"}, now.Add(time.Hour), now)
	c.put("c", auth.User{UID: "c"}, now.Add(time.Hour), now)
	if n := c.entries.Len(); n > 2 {
		t.Fatalf("cache grew past its bound: %d", n)
	}
	if _, ok := c.get("unknown", now); ok {
		t.Fatal("unknown token found")
	}
}
