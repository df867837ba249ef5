package lifecycle

// How a starting service waits for a backing service that does not answer yet, instead of
// exiting into CrashLoopBackOff: a new pod's first connections can be refused for a moment (a
// NetworkPolicy enforcer has not yet allowed the new pod's address), and a dependency installed
// at the same time, or restarting, takes seconds to come up.

import (
	"context"
	"time"

	"github.com/cenkalti/backoff/v5"
)

// StartupWait is how long Retry keeps trying: inside the chart's startup probe (60 s), so a
// dependency that stays away still fails the pod, with the last error in its log.
var StartupWait = 30 * time.Second

// Retry calls try until it succeeds, fails with an error permanent says no wait can change
// (the dependency answered and refused), StartupWait has passed or ctx ends. It tries again after
// about 100 ms, then less often, at most every 2 s.
func Retry(ctx context.Context, try func() error, permanent func(error) bool) error {
	b := backoff.NewExponentialBackOff()
	b.InitialInterval = 100 * time.Millisecond
	b.MaxInterval = 2 * time.Second
	_, err := backoff.Retry(ctx, func() (struct{}, error) {
		err := try()
		if err != nil && permanent(err) {
			return struct{}{}, backoff.Permanent(err)
		}
		return struct{}{}, err
	}, backoff.WithBackOff(b), backoff.WithMaxElapsedTime(StartupWait))
	return err
}
