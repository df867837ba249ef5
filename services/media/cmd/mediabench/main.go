// Command mediabench measures the image path the wishlist uses: N photo-like 2 MB JPEG
// data URLs decoded, checked, re-encoded, thumbnailed and stored in MinIO through the app
// layer, one after the other. It prints p50 and p99 and removes what it stored.
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
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/services/media/internal/adapters"
	"github.com/santa-wishlist/santa/services/media/internal/app"
	"github.com/santa-wishlist/santa/services/media/internal/domain"
	"github.com/santa-wishlist/santa/services/media/internal/testimages"
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
	if err := store.EnsureBucket(ctx); err != nil {
		fail(err)
	}
	defer func() {
		if err := store.DropBucket(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "cleanup:", err)
		}
	}()
	svc := app.New(store, domain.Rules{MaxBytes: 8 << 20}, app.NewMetrics(prometheus.NewRegistry()),
		slog.New(slog.DiscardHandler), runtime.GOMAXPROCS(0))

	photo := testimages.TwoMBJPEG()
	dataURL := testimages.DataURL("image/jpeg", photo)
	storeOne := func() (app.Stored, time.Duration) {
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
	for range *n {
		_, d := storeOne()
		took = append(took, d)
	}
	slices.Sort(took)
	pct := func(p float64) time.Duration { return took[min(len(took)-1, int(p*float64(len(took))))] }
	fmt.Printf("n=%d p50=%s p99=%s min=%s max=%s\n", len(took),
		pct(0.50).Round(time.Millisecond), pct(0.99).Round(time.Millisecond),
		took[0].Round(time.Millisecond), took[len(took)-1].Round(time.Millisecond))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mediabench:", err)
	os.Exit(1)
}
