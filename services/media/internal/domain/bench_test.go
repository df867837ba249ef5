package domain_test

import (
	"testing"

	"github.com/santa-wishlist/santa/fakes/testimages"
	"github.com/santa-wishlist/santa/services/media/internal/domain"
)

// BenchmarkProcessJPEG2MB measures the CPU part of storing a photo (decode, re-encode,
// thumbnail) without the object store.
func BenchmarkProcessJPEG2MB(b *testing.B) {
	data := testimages.TwoMBJPEG()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := domain.Process(data, rules); err != nil {
			b.Fatal(err)
		}
	}
}
