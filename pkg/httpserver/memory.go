package httpserver

import (
	"context"
	"runtime/debug"
	"sync/atomic"
	"time"
)

// idleRelease hands the memory a burst of requests left behind back to the system once
// requests pause. Go does this on its own, but only after its periodic collection (every two
// minutes) and its scavenger catch up; until then a pod that served a burst of photo uploads
// or list requests keeps tens of megabytes it no longer uses, and a cluster sizes its memory
// requests by that. One forced collection per pause costs a millisecond or two.
type idleRelease struct {
	idle     time.Duration
	last     atomic.Int64  // when the latest request started, Unix nanoseconds
	ended    *atomic.Int64 // when the latest live stream ended (streamsEnded)
	released atomic.Int64  // the value of last when memory was last released
	free     func()        // debug.FreeOSMemory, replaceable in tests
}

func newIdleRelease(idle time.Duration) *idleRelease {
	return &idleRelease{idle: idle, free: debug.FreeOSMemory, ended: &streamsEnded}
}

// streamsEnded is when a live stream of this process last ended, Unix nanoseconds. Streams
// closing free what they held (thousands at once when the devices of a storm go away), but
// they are not requests: without this the memory they held stayed with the process.
var streamsEnded atomic.Int64

// seen records a request; cheap enough for every request (one atomic store).
func (r *idleRelease) seen(t time.Time) { r.last.Store(t.UnixNano()) }

// check releases memory if requests came, or streams ended, since the last release and none
// for idle.
func (r *idleRelease) check(now time.Time) bool {
	last := max(r.last.Load(), r.ended.Load())
	if last == 0 || last == r.released.Load() || now.UnixNano()-last < r.idle.Nanoseconds() {
		return false
	}
	r.free()
	r.released.Store(last)
	return true
}

// run checks a few times per idle period until ctx ends. idle 0 turns it off.
func (r *idleRelease) run(ctx context.Context) {
	if r.idle <= 0 {
		return
	}
	tick := time.NewTicker(max(r.idle/4, 100*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			r.check(now)
		}
	}
}
