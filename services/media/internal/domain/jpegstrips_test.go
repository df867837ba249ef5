package domain

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"testing"

	"github.com/santa-wishlist/santa/fakes/testimages"
)

// The stitched stream must decode to exactly the pixels of a single-stream encode.
func TestStripEncodingMatchesSingleStream(t *testing.T) {
	gray := image.NewGray(image.Rect(0, 0, 517, 611))
	for i := range gray.Pix {
		gray.Pix[i] = uint8(i * 7)
	}
	rgba := image.NewRGBA(image.Rect(0, 0, 333, 700))
	for y := range 700 {
		for x := range 333 {
			rgba.Set(x, y, color.RGBA{uint8(x), uint8(y), uint8(x ^ y), 255})
		}
	}
	offset := testimages.Photo(900, 1000, 10, 3).SubImage(image.Rect(16, 32, 900, 1000))
	cases := map[string]image.Image{
		"ycbcr odd size": testimages.Photo(1001, 777, 10, 1),
		"gray":           gray,
		"rgba":           rgba,
		"offset bounds":  offset,
	}
	for name, img := range cases {
		t.Run(name, func(t *testing.T) {
			single, err := encodeSingle(img, 85)
			if err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{2, 3, 8} {
				striped, err := encodeJPEGStrips(img, 85, workers)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Contains(striped, []byte{0xFF, 0xDD}) {
					t.Fatalf("workers=%d: no restart interval, strips were not used", workers)
				}
				assertSamePixels(t, single, striped)
			}
		})
	}
}

func assertSamePixels(t *testing.T, a, b []byte) {
	t.Helper()
	ia, err := jpeg.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	ib, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("stitched JPEG does not decode: %v", err)
	}
	if ia.Bounds() != ib.Bounds() {
		t.Fatalf("bounds %v vs %v", ia.Bounds(), ib.Bounds())
	}
	r := ia.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if ia.At(x, y) != ib.At(x, y) {
				t.Fatalf("pixel (%d,%d) differs: %v vs %v", x, y, ia.At(x, y), ib.At(x, y))
			}
		}
	}
}
