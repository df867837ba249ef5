// Package testenv connects tests to the real services they run against: PostgreSQL, Redis,
// NATS JetStream and the Firebase Auth emulator. Addresses come from TEST_* variables with the
// local defaults `make test` uses; nothing here is an in-memory stand-in.
package testenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

func env(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

// RandomHex returns n random bytes as hex, for unique names.
func RandomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// UniqueEmail returns an address no other test run uses.
func UniqueEmail(prefix string) string {
	return strings.ToLower(prefix) + "-" + RandomHex(6) + "@example.com"
}

// Eventually polls check until it returns nil or the timeout passes, then fails the test
// with the last error.
func Eventually(t testing.TB, timeout time.Duration, check func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var err error
	for {
		if err = check(); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %s: %v", timeout, err)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// Context returns a context cancelled when the test ends.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return ctx
}

// Clock is a clock the test moves by hand (a service's reminders run on it: no waiting for
// days). Its Now is safe to call from other goroutines.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock starts a clock at now.
func NewClock(now time.Time) *Clock { return &Clock{now: now} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to now.
func (c *Clock) Set(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = now
}

// Advance moves the clock d ahead (a digest window of an hour passes in one call).
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
