package domain

import (
	"errors"
	"testing"

	"github.com/santa-wishlist/santa/fakes/hostileimages"
	"github.com/santa-wishlist/santa/fakes/testimages"
)

// FuzzProcess feeds the whole pipeline mutated images: it must refuse with one of the
// reasons the API maps to a 4xx, or produce an image within the stored size, and never
// panic or exceed its memory budget (the fuzzer's workers would be killed). `go test` runs
// the seeds; `go test -fuzz FuzzProcess -fuzztime 30s ./internal/domain` explores.
func FuzzProcess(f *testing.F) {
	for _, c := range hostileimages.Corpus() {
		if len(c.Data) < 64<<10 {
			f.Add(c.Data)
		}
	}
	f.Add(testimages.PhotoJPEG(64, 48, 1))
	f.Add(testimages.WithEXIF(testimages.PhotoJPEG(40, 30, 2), 6))
	f.Add(testimages.TransparentPNG(33, 17))
	f.Add(testimages.GIF(20, 10))
	f.Add(hostileimages.PNG16(50, 40))
	f.Add(hostileimages.ManyScanJPEG(64, 64, 3))
	f.Add(hostileimages.ManyFrameGIF(3))
	rules := Rules{MaxBytes: 1 << 20, MaxPixels: 4_000_000, MaxDecodeBytes: 32 << 20}
	refusals := []error{ErrEmpty, ErrTooLarge, ErrUnsupportedType, ErrTooManyPixels, ErrTooMuchMemory, ErrTooComplex, ErrCorruptImage}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := Process(data, rules)
		if err != nil {
			for _, r := range refusals {
				if errors.Is(err, r) {
					return
				}
			}
			t.Fatalf("refused for a reason the API does not map to a 4xx: %v", err)
		}
		if out.Image.Width < 1 || out.Image.Width > MaxStoredSide || out.Image.Height > MaxStoredSide || len(out.Thumb.Data) == 0 {
			t.Fatalf("accepted image out of bounds: %dx%d", out.Image.Width, out.Image.Height)
		}
	})
}
