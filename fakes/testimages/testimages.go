// Package testimages builds the images the tests and the benchmark feed to the service:
// photo-like JPEGs of a chosen size, JPEGs carrying EXIF GPS, transparent PNGs, GIFs.
// Everything is generated, so no binary fixture hides what it contains.
package testimages

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
)

// Photo returns a w×h picture with gradients and grain, which compresses like a photograph
// (flat test patterns would compress to almost nothing). grain 0..64 sets the noise.
func Photo(w, h int, grain int, seed uint64) *image.YCbCr {
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	rng := rand.New(rand.NewPCG(seed, 0x5a17a))
	for y := range h {
		for x := range w {
			base := (x*160)/max(w, 1) + (y*60)/max(h, 1) + 20
			n := 0
			if grain > 0 {
				n = rng.IntN(2*grain+1) - grain
			}
			img.Y[y*img.YStride+x] = clamp(base + n)
		}
	}
	for y := range (h + 1) / 2 {
		for x := range (w + 1) / 2 {
			i := y*img.CStride + x
			img.Cb[i] = clamp(100 + (x*80)/max(w/2, 1) + rng.IntN(9) - 4)
			img.Cr[i] = clamp(160 - (y*60)/max(h/2, 1) + rng.IntN(9) - 4)
		}
	}
	return img
}

func clamp(v int) uint8 { return uint8(min(max(v, 0), 255)) }

// JPEG encodes img.
func JPEG(img image.Image, quality int) []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: quality}); err != nil {
		panic(err) // cannot fail on an in-memory buffer with a valid image
	}
	return buf.Bytes()
}

// PhotoJPEG returns a photo-like JPEG of w×h pixels.
func PhotoJPEG(w, h int, seed uint64) []byte { return JPEG(Photo(w, h, 24, seed), 90) }

// PNG encodes img.
func PNG(img image.Image) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// TransparentPNG returns a w×h PNG whose left half is transparent and right half opaque red.
func TransparentPNG(w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := w / 2; x < w; x++ {
			img.SetNRGBA(x, y, color.NRGBA{R: 220, G: 20, B: 30, A: 255})
		}
	}
	return PNG(img)
}

// GIF returns a w×h two-colour GIF.
func GIF(w, h int) []byte {
	pal := color.Palette{color.RGBA{0, 128, 0, 255}, color.RGBA{255, 255, 255, 255}}
	img := image.NewPaletted(image.Rect(0, 0, w, h), pal)
	for y := range h {
		for x := range w {
			if (x/8+y/8)%2 == 0 {
				img.SetColorIndex(x, y, 1)
			}
		}
	}
	var buf bytes.Buffer
	if err := gif.Encode(&buf, img, nil); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// DataURL wraps data in a base64 data: URL claiming mediaType.
func DataURL(mediaType string, data []byte) string {
	return "data:" + mediaType + ";base64," + base64.StdEncoding.EncodeToString(data)
}

// Markers that WithEXIF writes, so tests can prove they are gone.
const (
	CameraMake   = "SantaCam GPS Leaker"
	LatitudeRef  = "N"
	LongitudeRef = "W"
)

// WithEXIF splices an APP1 Exif segment right after the SOI marker of a JPEG. IFD0 holds the
// camera make, the orientation (0 leaves the tag out) and a pointer to a GPS IFD with
// latitude 48°51'24" N, longitude 2°21'3" W. Big-endian ("MM") TIFF.
func WithEXIF(jpegData []byte, orientation int) []byte {
	be := binary.BigEndian
	type entry struct {
		tag, typ uint16
		count    uint32
		value    []byte // inline when ≤ 4 bytes, else stored in the data area
	}
	u16 := func(v uint16) []byte { b := make([]byte, 4); be.PutUint16(b, v); return b }
	u32 := func(v uint32) []byte { b := make([]byte, 4); be.PutUint32(b, v); return b }
	rationals := func(vs ...uint32) []byte {
		var b []byte
		for i := 0; i < len(vs); i += 2 {
			b = be.AppendUint32(b, vs[i])
			b = be.AppendUint32(b, vs[i+1])
		}
		return b
	}
	makeStr := append([]byte(CameraMake), 0)

	// Layout: header(8) | IFD0 | GPS IFD | data area.
	ifd0 := []entry{{0x010F, 2, uint32(len(makeStr)), makeStr}}
	if orientation > 0 {
		ifd0 = append(ifd0, entry{0x0112, 3, 1, u16(uint16(orientation))})
	}
	ifd0 = append(ifd0, entry{0x8825, 4, 1, nil}) // GPS IFD pointer, filled below
	gps := []entry{
		{0x0000, 1, 4, []byte{2, 3, 0, 0}}, // GPSVersionID
		{0x0001, 2, 2, []byte(LatitudeRef + "\x00")},
		{0x0002, 5, 3, rationals(48, 1, 51, 1, 24, 1)},
		{0x0003, 2, 2, []byte(LongitudeRef + "\x00")},
		{0x0004, 5, 3, rationals(2, 1, 21, 1, 3, 1)},
	}
	ifdSize := func(n int) int { return 2 + 12*n + 4 }
	ifd0Off := 8
	gpsOff := ifd0Off + ifdSize(len(ifd0))
	dataOff := gpsOff + ifdSize(len(gps))
	ifd0[len(ifd0)-1].value = u32(uint32(gpsOff))

	var data []byte
	writeIFD := func(entries []entry) []byte {
		b := be.AppendUint16(nil, uint16(len(entries)))
		for _, e := range entries {
			b = be.AppendUint16(b, e.tag)
			b = be.AppendUint16(b, e.typ)
			b = be.AppendUint32(b, e.count)
			if len(e.value) <= 4 {
				v := make([]byte, 4)
				copy(v, e.value)
				b = append(b, v...)
			} else {
				b = be.AppendUint32(b, uint32(dataOff+len(data)))
				data = append(data, e.value...)
				if len(data)%2 == 1 {
					data = append(data, 0)
				}
			}
		}
		return be.AppendUint32(b, 0) // no next IFD
	}
	tiff := []byte("MM\x00\x2a\x00\x00\x00\x08")
	tiff = append(tiff, writeIFD(ifd0)...)
	tiff = append(tiff, writeIFD(gps)...)
	tiff = append(tiff, data...)

	payload := append([]byte("Exif\x00\x00"), tiff...)
	segment := []byte{0xFF, 0xE1}
	segment = be.AppendUint16(segment, uint16(len(payload)+2))
	segment = append(segment, payload...)

	out := make([]byte, 0, len(jpegData)+len(segment))
	out = append(out, jpegData[:2]...)
	out = append(out, segment...)
	return append(out, jpegData[2:]...)
}

// TwoMBJPEG is the benchmark's photo: 3000×2000 pixels (6 MP), about 2 MB at quality 90.
func TwoMBJPEG() []byte { return JPEG(Photo(3000, 2000, 13, 42), 90) }

// MetadataLeft lists the metadata still present in a JPEG: APPn segments other than the
// JFIF APP0 header (EXIF and XMP are APP1, ICC APP2, IPTC APP13), the EXIF header, the TIFF
// header that starts the GPS block, and the camera make WithEXIF writes. Empty means clean.
func MetadataLeft(data []byte) []string {
	var left []string
	for _, needle := range []string{"Exif\x00\x00", CameraMake, "MM\x00\x2a"} {
		if bytes.Contains(data, []byte(needle)) {
			left = append(left, fmt.Sprintf("bytes %q", needle))
		}
	}
	// Walk the markers up to the start of scan; entropy-coded data may contain anything.
	for pos := 2; pos+4 <= len(data) && data[pos] == 0xFF; {
		marker := data[pos+1]
		if marker == 0xDA {
			break
		}
		if marker >= 0xE1 && marker <= 0xEF {
			left = append(left, fmt.Sprintf("APP%d segment", marker-0xE0))
		}
		pos += 2 + int(binary.BigEndian.Uint16(data[pos+2:]))
	}
	return left
}
