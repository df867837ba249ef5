package domain

import (
	"image"

	xdraw "golang.org/x/image/draw"
)

// MaxStoredSide bounds the longer side of a stored image. A wishlist photo is seen on a phone
// (a 3× screen is about 1200 pixels wide), so a 12 MP camera original only costs encoding
// time, storage and the family's mobile data. Larger images are halved until they fit:
// halving averages whole 2×2 blocks, which is both the cheapest and a clean (alias-free)
// way to shrink, and a 6 MP photo then encodes in a third of the time.
const MaxStoredSide = 2048

// shrinkToStoredSize halves img until its longer side is at most MaxStoredSide.
func shrinkToStoredSize(img image.Image) image.Image {
	for b := img.Bounds(); max(b.Dx(), b.Dy()) > MaxStoredSide; b = img.Bounds() {
		img = halve(img)
	}
	return img
}

// StoredSize is the size an image of w×h pixels is stored at.
func StoredSize(w, h int) (int, int) {
	for max(w, h) > MaxStoredSide {
		w, h = (w+1)/2, (h+1)/2
	}
	return w, h
}

// halve returns img at half its width and height (rounded up).
func halve(img image.Image) image.Image {
	b := img.Bounds()
	w, h := (b.Dx()+1)/2, (b.Dy()+1)/2
	if src, ok := img.(*image.YCbCr); ok && b.Min == (image.Point{}) {
		// Decoded JPEGs (and lossy WebPs) are YCbCr: each plane is halved on its own,
		// keeping the chroma subsampling, with no colour conversion.
		dst := image.NewYCbCr(image.Rect(0, 0, w, h), src.SubsampleRatio)
		halvePlane(dst.Y, dst.YStride, w, h, src.Y, src.YStride, b.Dx(), b.Dy())
		scw, sch := chromaSize(src.SubsampleRatio, b.Dx(), b.Dy())
		dcw, dch := chromaSize(src.SubsampleRatio, w, h)
		halvePlane(dst.Cb, dst.CStride, dcw, dch, src.Cb, src.CStride, scw, sch)
		halvePlane(dst.Cr, dst.CStride, dcw, dch, src.Cr, src.CStride, scw, sch)
		return dst
	}
	// Anything else (PNG, GIF, lossless WebP): exactly 2:1, the bilinear scaler samples
	// between four source pixels, which averages them too.
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	xdraw.ApproxBiLinear.Scale(dst, dst.Rect, img, b, xdraw.Src, nil)
	return dst
}

// halvePlane writes the average of each 2×2 block of src (sw×sh samples) into dst (dw×dh);
// an odd last row or column is averaged with itself.
func halvePlane(dst []byte, dstStride, dw, dh int, src []byte, srcStride, sw, sh int) {
	for y := range dh {
		r0 := src[2*y*srcStride:]
		r1 := src[min(2*y+1, sh-1)*srcStride:]
		out := dst[y*dstStride : y*dstStride+dw]
		for x := range out {
			x0, x1 := 2*x, min(2*x+1, sw-1)
			out[x] = uint8((uint(r0[x0]) + uint(r0[x1]) + uint(r1[x0]) + uint(r1[x1]) + 2) / 4)
		}
	}
}

// chromaSize is the size of the Cb and Cr planes of a w×h image, as image.NewYCbCr lays
// them out.
func chromaSize(ratio image.YCbCrSubsampleRatio, w, h int) (int, int) {
	switch ratio {
	case image.YCbCrSubsampleRatio422:
		return (w + 1) / 2, h
	case image.YCbCrSubsampleRatio420:
		return (w + 1) / 2, (h + 1) / 2
	case image.YCbCrSubsampleRatio440:
		return w, (h + 1) / 2
	case image.YCbCrSubsampleRatio411:
		return (w + 3) / 4, h
	case image.YCbCrSubsampleRatio410:
		return (w + 3) / 4, (h + 1) / 2
	}
	return w, h
}
