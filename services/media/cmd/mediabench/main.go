// Command mediabench measures the image path the wishlist uses: N photo-like 2 MB JPEG
// data URLs decoded, checked, re-encoded, thumbnailed and stored in MinIO through the app
// layer, one after the other. It prints p50 and p99 (in all, and of the MinIO writes alone)
// and removes what it stored.
//
//	MINIO_ENDPOINT=127.0.0.1:9000 MINIO_ACCESS_KEY=santa MINIO_SECRET_KEY=santa-secret-key \
//	  go run ./cmd/mediabench -n 20
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/fakes/testimages"
	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/services/media/internal/adapters"
	"github.com/santa-wishlist/santa/services/media/internal/app"
	"github.com/santa-wishlist/santa/services/media/internal/domain"
)

func main() {
	n := flag.Int("n", 20, "images to store")
	flag.Parse()
	env := config.New()
	random := make([]byte, 4)
	_, _ = rand.Read(random)
	cfg := adapters.MinIOConfig{
		Endpoint:  env.Required("MINIO_ENDPOINT"),
		AccessKey: env.Required("MINIO_ACCESS_KEY"),
		SecretKey: env.Required("MINIO_SECRET_KEY"),
		UseSSL:    env.Bool("MINIO_USE_SSL", false),
		Bucket:    "media-bench-" + hex.EncodeToString(random),
	}
	if err := env.Err(); err != nil {
		fail(err)
	}
	store, err := adapters.NewMinIOStore(cfg)
	if err != nil {
		fail(err)
	}
	ctx := context.Background()
	// 0: no lifecycle rule, the bucket is dropped at the end anyway.
	if err := store.EnsureBucket(ctx, 0); err != nil {
		fail(err)
	}
	defer func() {
		if err := store.DropBucket(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "cleanup:", err)
		}
	}()
	timed := &timedStore{ObjectStore: store}
	svc := app.New(timed, domain.Rules{MaxBytes: 8 << 20}, app.NewMetrics(prometheus.NewRegistry()),
		slog.New(slog.DiscardHandler), app.Limits{})

	photo := testimages.TwoMBJPEG()
	dataURL := testimages.DataURL("image/jpeg", photo)
	storeOne := func() (app.Stored, time.Duration) {
		timed.reset()
		start := time.Now()
		data, err := domain.DecodeDataURL(dataURL, 8<<20)
		if err != nil {
			fail(err)
		}
		out, err := svc.Store(ctx, app.Upload{Data: data, Owner: "bench"})
		if err != nil {
			fail(err)
		}
		return out, time.Since(start)
	}
	first, _ := storeOne() // warm-up: connections, allocator; not counted
	fmt.Printf("input: %d-byte JPEG, %dx%d; stored %d bytes; %d CPUs\n",
		len(photo), first.Width, first.Height, first.Bytes, runtime.GOMAXPROCS(0))

	took := make([]time.Duration, 0, *n)
	writes := make([]time.Duration, 0, *n)
	cpuBefore := cpuTime()
	for range *n {
		_, d := storeOne()
		took = append(took, d)
		writes = append(writes, timed.span())
	}
	cpuPerImage := (cpuTime() - cpuBefore) / time.Duration(*n)
	fmt.Printf("total (data URL → stored): %s\n", summary(took))
	fmt.Printf("of which MinIO writes:     %s\n", summary(writes))
	// Wall times depend on what else runs on the machine; CPU time per image does not.
	fmt.Printf("CPU time of this process per image: %s (user+system; MinIO's own work not included)\n",
		cpuPerImage.Round(time.Millisecond))
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func summary(ds []time.Duration) string {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	pct := func(p float64) time.Duration {
		return ds[min(len(ds)-1, int(p*float64(len(ds))))].Round(time.Millisecond)
	}
	return fmt.Sprintf("n=%d p50=%s p99=%s min=%s max=%s", len(ds), pct(0.50), pct(0.99),
		ds[0].Round(time.Millisecond), ds[len(ds)-1].Round(time.Millisecond))
}

// timedStore records when the first write of a Store call starts and the last one ends
// (the image and its thumbnail are written concurrently).
type timedStore struct {
	domain.ObjectStore
	mu         sync.Mutex
	first, end time.Time
}

func (t *timedStore) reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.first, t.end = time.Time{}, time.Time{}
}

func (t *timedStore) span() time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.end.Sub(t.first)
}

func (t *timedStore) Put(ctx context.Context, key string, data []byte, contentType, owner string) error {
	start := time.Now()
	err := t.ObjectStore.Put(ctx, key, data, contentType, owner)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.first.IsZero() || start.Before(t.first) {
		t.first = start
	}
	t.end = time.Now()
	return err
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mediabench:", err)
	os.Exit(1)
}
