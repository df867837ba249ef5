package app

import (
	"fmt"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateError refuses an upload over the user's rate; RetryAfter says when one more is allowed.
type RateError struct{ RetryAfter time.Duration }

func (e *RateError) Error() string {
	return fmt.Sprintf("%v: retry after %s", ErrUploadRate, e.RetryAfter)
}

func (e *RateError) Unwrap() error { return ErrUploadRate }

// userRates is a token bucket per user. It lives in this process: each media replica counts
// on its own, which bounds the decoding work a user can put on any one replica (what the
// limit protects); the gateway's shared per-user limit bounds requests overall.
type userRates struct {
	mu      sync.Mutex
	every   rate.Limit
	burst   int
	users   map[string]*rate.Limiter
	swept   time.Time
	enabled bool
}

func newUserRates(perMinute float64, burst int) *userRates {
	return &userRates{every: rate.Limit(perMinute / 60), burst: max(burst, 1),
		users: map[string]*rate.Limiter{}, enabled: perMinute > 0}
}

// allow takes one upload from the user's bucket, or says how long until one is available.
func (r *userRates) allow(user string, now time.Time) (time.Duration, bool) {
	if !r.enabled {
		return 0, true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	// Forget users whose bucket is full again, once a minute, so the map stays small.
	if now.Sub(r.swept) > time.Minute {
		for u, l := range r.users {
			if l.TokensAt(now) >= float64(r.burst) {
				delete(r.users, u)
			}
		}
		r.swept = now
	}
	l, ok := r.users[user]
	if !ok {
		l = rate.NewLimiter(r.every, r.burst)
		r.users[user] = l
	}
	res := l.ReserveN(now, 1)
	if wait := res.DelayFrom(now); wait > 0 {
		res.CancelAt(now)
		return wait, false
	}
	return 0, true
}
