package reminderstest

import (
	"context"
	"sync"
	"testing"

	"github.com/santa-wishlist/santa/pkg/reminders"
)

// ScanTogether runs scans scans at once, spread over the replicas in turn (as their loops
// would overlap), and answers how many reminders they sent in all; a failed scan fails t.
func ScanTogether(t testing.TB, scans int, replicas ...*reminders.Scheduler) int {
	t.Helper()
	var wg sync.WaitGroup
	sent, errs := make([]int, scans), make([]error, scans)
	for i := range scans {
		s := replicas[i%len(replicas)]
		wg.Add(1)
		go func() { defer wg.Done(); sent[i], errs[i] = s.RunOnce(context.Background()) }()
	}
	wg.Wait()
	total := 0
	for i := range sent {
		if errs[i] != nil {
			t.Fatalf("scan: %v", errs[i])
		}
		total += sent[i]
	}
	return total
}
