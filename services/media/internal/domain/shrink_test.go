package domain

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"

	"github.com/santa-wishlist/santa/fakes/testimages"
)

func TestLargePhotosAreHalvedUntilTheyFit(t *testing.T) {
	for _, tc := range []struct{ w, h, wantW, wantH int }{
		{3000, 2000, 1500, 1000},
		{4032, 3024, 2016, 1512},
		{2048, 1536, 2048, 1536}, // at the limit: untouched
		{8200, 300, 1025, 38},    // halved three times: 4100, 2050 (still over), 1025
	} {
		out, err := Process(testimages.JPEG(testimages.Photo(tc.w, tc.h, 8, 7), 90), Rules{MaxBytes: 64 << 20})
		if err != nil {
			t.Fatal(err)
		}
		if out.Image.Width != tc.wantW || out.Image.Height != tc.wantH {
			t.Fatalf("%dx%d stored as %dx%d, want %dx%d", tc.w, tc.h, out.Image.Width, out.Image.Height, tc.wantW, tc.wantH)
		}
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(out.Image.Data))
		if err != nil || cfg.Width != tc.wantW || cfg.Height != tc.wantH {
			t.Fatalf("%dx%d: the stored file is %dx%d (%v)", tc.w, tc.h, cfg.Width, cfg.Height, err)
		}
		if w, h := StoredSize(tc.w, tc.h); w != tc.wantW || h != tc.wantH {
			t.Fatalf("StoredSize(%d, %d) = %d, %d", tc.w, tc.h, w, h)
		}
	}
}

// Every halved pixel is the average of its 2×2 block, in each plane, for every chroma
// layout, odd sizes included.
func TestHalvingAveragesEachBlockOfEveryPlane(t *testing.T) {
	for _, ratio := range []image.YCbCrSubsampleRatio{
		image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio422, image.YCbCrSubsampleRatio420,
		image.YCbCrSubsampleRatio440, image.YCbCrSubsampleRatio411, image.YCbCrSubsampleRatio410,
	} {
		src := image.NewYCbCr(image.Rect(0, 0, 37, 23), ratio)
		for i := range src.Y {
			src.Y[i] = uint8(i * 7)
		}
		for i := range src.Cb {
			src.Cb[i], src.Cr[i] = uint8(i*3), uint8(255-i*5)
		}
		dst, ok := halve(src).(*image.YCbCr)
		if !ok || dst.Rect != image.Rect(0, 0, 19, 12) || dst.SubsampleRatio != ratio {
			t.Fatalf("%v: got %T %v", ratio, dst, dst.Rect)
		}
		avg := func(plane []byte, stride, w, h, x, y int) uint8 {
			at := func(x, y int) uint { return uint(plane[min(y, h-1)*stride+min(x, w-1)]) }
			return uint8((at(2*x, 2*y) + at(2*x+1, 2*y) + at(2*x, 2*y+1) + at(2*x+1, 2*y+1) + 2) / 4)
		}
		for y := range 12 {
			for x := range 19 {
				if got, want := dst.Y[y*dst.YStride+x], avg(src.Y, src.YStride, 37, 23, x, y); got != want {
					t.Fatalf("%v: Y(%d,%d) = %d, want %d", ratio, x, y, got, want)
				}
			}
		}
		scw, sch := chromaSize(ratio, 37, 23)
		dcw, dch := chromaSize(ratio, 19, 12)
		if len(dst.Cb) < dch*dst.CStride || dst.CStride < dcw {
			t.Fatalf("%v: chroma plane %d/%d too small for %dx%d", ratio, len(dst.Cb), dst.CStride, dcw, dch)
		}
		for y := range dch {
			for x := range dcw {
				if got, want := dst.Cr[y*dst.CStride+x], avg(src.Cr, src.CStride, scw, sch, x, y); got != want {
					t.Fatalf("%v: Cr(%d,%d) = %d, want %d", ratio, x, y, got, want)
				}
			}
		}
	}
}

func TestLargeTransparentPNGsStayTransparentWhenHalved(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 2200, 40))
	for x := range 1100 { // left half opaque red, right half transparent
		for y := range 40 {
			img.SetNRGBA(x, y, color.NRGBA{255, 0, 0, 255})
		}
	}
	out, err := Process(testimages.PNG(img), Rules{MaxBytes: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := png.Decode(bytes.NewReader(out.Image.Data))
	if err != nil || out.Image.ContentType != "image/png" {
		t.Fatalf("%s %v", out.Image.ContentType, err)
	}
	if b := stored.Bounds(); b.Dx() != 1100 || b.Dy() != 20 {
		t.Fatalf("stored %v", b)
	}
	if r, _, _, a := stored.At(100, 10).RGBA(); r>>8 != 255 || a>>8 != 255 {
		t.Fatalf("opaque half: r=%d a=%d", r>>8, a>>8)
	}
	if _, _, _, a := stored.At(1000, 10).RGBA(); a != 0 {
		t.Fatalf("transparent half has alpha %d", a>>8)
	}
}
