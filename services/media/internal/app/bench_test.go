package app_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/fakes/testimages"
	"github.com/santa-wishlist/santa/services/media/internal/app"
	"github.com/santa-wishlist/santa/services/media/internal/domain"
	"github.com/santa-wishlist/santa/services/media/internal/storetest"
)

// BenchmarkStoreJPEG2MB is the wishlist's call on a phone photo: a 2 MB JPEG data URL
// decoded, checked, re-encoded, thumbnailed and written to a real MinIO bucket.
func BenchmarkStoreJPEG2MB(b *testing.B) {
	store, _ := storetest.New(b)
	svc := app.New(store, domain.Rules{MaxBytes: 8 << 20}, app.NewMetrics(prometheus.NewRegistry()),
		slog.New(slog.DiscardHandler), app.Limits{})
	photo := testimages.TwoMBJPEG()
	dataURL := testimages.DataURL("image/jpeg", photo)
	b.SetBytes(int64(len(photo)))
	ctx := context.Background()
	for b.Loop() {
		data, err := domain.DecodeDataURL(dataURL, 8<<20)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := svc.Store(ctx, app.Upload{Data: data, Owner: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
}
