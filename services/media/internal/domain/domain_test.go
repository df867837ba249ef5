package domain_test

import (
	"bytes"
	"errors"
	"hash/crc32"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"strings"
	"testing"

	"github.com/santa-wishlist/santa/fakes/testimages"
	"github.com/santa-wishlist/santa/services/media/internal/domain"
)

const mib = 1 << 20

var rules = domain.Rules{MaxBytes: 8 * mib, MaxPixels: domain.DefaultMaxPixels}

func TestSniffRecognisesFormatsByContentOnly(t *testing.T) {
	webp := mustRead(t, "testdata/photo-480x360-lossy.webp")
	cases := []struct {
		name string
		data []byte
		want domain.ImageType
		err  error
	}{
		{"jpeg", testimages.PhotoJPEG(16, 16, 1), domain.JPEG, nil},
		{"png", testimages.TransparentPNG(8, 8), domain.PNG, nil},
		{"gif", testimages.GIF(8, 8), domain.GIF, nil},
		{"webp", webp, domain.WebP, nil},
		{"svg", []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>`), "", domain.ErrUnsupportedType},
		{"text", []byte("just some text pretending to be a photo"), "", domain.ErrUnsupportedType},
		{"riff but not webp", []byte("RIFF\x00\x00\x00\x00WAVEfmt "), "", domain.ErrUnsupportedType},
		{"empty", nil, "", domain.ErrEmpty},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := domain.Sniff(tc.data)
			if !errors.Is(err, tc.err) || got != tc.want {
				t.Fatalf("Sniff = %q, %v; want %q, %v", got, err, tc.want, tc.err)
			}
		})
	}
}

func TestObjectKeysAreUnguessableAndValid(t *testing.T) {
	random := [16]byte{0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	img, thumb := domain.ObjectKeys("", random, "jpg")
	if img != "items/unattached/deadbeef0102030405060708090a0b0c.jpg" ||
		thumb != "items/unattached/deadbeef0102030405060708090a0b0c_thumb.jpg" {
		t.Fatalf("unattached keys = %q, %q", img, thumb)
	}
	item := "0b7c3a8e-5d1f-4f6a-9c2b-7e8d9f0a1b2c"
	img, thumb = domain.ObjectKeys(item, random, "png")
	if !strings.HasPrefix(img, domain.ItemPrefix(item)) || !strings.HasSuffix(img, ".png") {
		t.Fatalf("item key = %q", img)
	}
	for _, k := range []string{img, thumb} {
		if !domain.ValidKey(k) {
			t.Errorf("ValidKey(%q) = false", k)
		}
	}
	for _, k := range []string{"", "items/", "items/unattached/", "items/unattached/x.jpg",
		"items/../secret/deadbeef0102030405060708090a0b0c.jpg",
		"items/unattached/deadbeef0102030405060708090a0b0c.svg",
		"items/unattached/DEADBEEF0102030405060708090a0b0c.jpg",
		"other/unattached/deadbeef0102030405060708090a0b0c.jpg"} {
		if domain.ValidKey(k) {
			t.Errorf("ValidKey(%q) = true", k)
		}
	}
}

func TestNormalizeItemID(t *testing.T) {
	got, err := domain.NormalizeItemID(" 0B7C3A8E-5D1F-4F6A-9C2B-7E8D9F0A1B2C ")
	if err != nil || got != "0b7c3a8e-5d1f-4f6a-9c2b-7e8d9f0a1b2c" {
		t.Fatalf("got %q, %v", got, err)
	}
	if got, err := domain.NormalizeItemID(""); err != nil || got != "" {
		t.Fatalf("empty: got %q, %v", got, err)
	}
	for _, bad := range []string{"../x", "unattached", "42"} {
		if _, err := domain.NormalizeItemID(bad); !errors.Is(err, domain.ErrInvalidItemID) {
			t.Errorf("NormalizeItemID(%q) err = %v", bad, err)
		}
	}
}

func TestKeysForImageURL(t *testing.T) {
	base := "items/unattached/deadbeef0102030405060708090a0b0c"
	cases := map[string][]string{
		"/media/" + base + ".jpg":          {base + ".jpg", base + "_thumb.jpg"},
		"/media/" + base + ".png?v=2":      {base + ".png", base + "_thumb.jpg"},
		"/media/" + base + "_thumb.jpg":    {base + "_thumb.jpg", base + ".jpg", base + ".png"},
		"https://example.com/a.jpg":        nil,
		"data:image/png;base64,AAAA":       nil,
		"":                                 nil,
		"/media/items/unattached/":         nil,
		"/media/items/../../etc/passwd.jg": nil,
	}
	for url, want := range cases {
		got := domain.KeysForImageURL(url)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("KeysForImageURL(%q) = %v, want %v", url, got, want)
		}
	}
}

func TestDecodeDataURL(t *testing.T) {
	png := testimages.TransparentPNG(4, 4)
	got, err := domain.DecodeDataURL(testimages.DataURL("image/png", png), mib)
	if err != nil || !bytes.Equal(got, png) {
		t.Fatalf("padded base64: %v", err)
	}
	unpadded := strings.TrimRight(testimages.DataURL("image/png", png), "=")
	if got, err := domain.DecodeDataURL("DATA:"+unpadded[5:], mib); err != nil || !bytes.Equal(got, png) {
		t.Fatalf("unpadded, upper-case scheme: %v", err)
	}
	svg, err := domain.DecodeDataURL("data:image/svg+xml,%3Csvg%20xmlns%3D%22x%22%2F%3E", mib)
	if err != nil || string(svg) != `<svg xmlns="x"/>` {
		t.Fatalf("percent-encoded: %q, %v", svg, err)
	}
	for _, bad := range []string{"", "http://x/y.png", "data:image/png;base64", "data:image/png;base64,***"} {
		if _, err := domain.DecodeDataURL(bad, mib); !errors.Is(err, domain.ErrInvalidDataURL) {
			t.Errorf("DecodeDataURL(%q) err = %v", bad, err)
		}
	}
	if _, err := domain.DecodeDataURL(testimages.DataURL("image/png", make([]byte, 2000)), 1000); !errors.Is(err, domain.ErrTooLarge) {
		t.Errorf("oversized err = %v", err)
	}
}

func TestProcessStripsEXIFAndGPSFromJPEG(t *testing.T) {
	original := testimages.WithEXIF(testimages.PhotoJPEG(640, 480, 2), 0)
	if left := testimages.MetadataLeft(original); len(left) < 4 {
		t.Fatalf("the fixture should show its EXIF, GPS block and APP1 segment, found %v", left)
	}
	out, err := domain.Process(original, rules)
	if err != nil {
		t.Fatal(err)
	}
	if out.Image.ContentType != "image/jpeg" || out.Image.Ext != "jpg" {
		t.Fatalf("stored as %s", out.Image.ContentType)
	}
	for _, f := range []domain.Encoded{out.Image, out.Thumb} {
		assertNoMetadata(t, f.Data)
	}
	if out.Image.Width != 640 || out.Image.Height != 480 {
		t.Fatalf("size %dx%d", out.Image.Width, out.Image.Height)
	}
}

func TestProcessTurnsPhotosUprightFromEXIFOrientation(t *testing.T) {
	// A 60×40 landscape sensor image with orientation 6 ("rotate 90° clockwise") is a
	// 40×60 portrait photo. Mark the sensor's top-left corner to check where it lands.
	sensor := image.NewRGBA(image.Rect(0, 0, 60, 40))
	for y := range 40 {
		for x := range 60 {
			sensor.Pix[y*sensor.Stride+x*4+3] = 255
			if x < 12 && y < 12 {
				sensor.Pix[y*sensor.Stride+x*4] = 255 // red corner
			}
		}
	}
	out, err := domain.Process(testimages.WithEXIF(testimages.JPEG(sensor, 95), 6), rules)
	if err != nil {
		t.Fatal(err)
	}
	if out.Image.Width != 40 || out.Image.Height != 60 {
		t.Fatalf("size %dx%d, want 40x60", out.Image.Width, out.Image.Height)
	}
	img, err := jpeg.Decode(bytes.NewReader(out.Image.Data))
	if err != nil {
		t.Fatal(err)
	}
	// Rotated clockwise, the sensor's top-left corner becomes the top-right corner.
	if r, _, _, _ := img.At(34, 5).RGBA(); r>>8 < 200 {
		t.Errorf("top-right is not red (r=%d): orientation not applied", r>>8)
	}
	if r, _, _, _ := img.At(5, 5).RGBA(); r>>8 > 60 {
		t.Errorf("top-left is red (r=%d): rotated the wrong way", r>>8)
	}
}

func TestProcessKeepsPNGTransparency(t *testing.T) {
	out, err := domain.Process(testimages.TransparentPNG(800, 600), rules)
	if err != nil {
		t.Fatal(err)
	}
	if out.Image.ContentType != "image/png" {
		t.Fatalf("content type %s", out.Image.ContentType)
	}
	img, err := png.Decode(bytes.NewReader(out.Image.Data))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, a := img.At(10, 10).RGBA(); a != 0 {
		t.Errorf("transparent pixel has alpha %d", a)
	}
	thumb, err := jpeg.Decode(bytes.NewReader(out.Thumb.Data))
	if err != nil {
		t.Fatal(err)
	}
	if b := thumb.Bounds(); b.Dx() != 320 || b.Dy() != 240 {
		t.Fatalf("thumbnail %v", b)
	}
	// Transparent areas become white in the JPEG thumbnail, not black.
	if r, g, bl, _ := thumb.At(20, 120).RGBA(); r>>8 < 240 || g>>8 < 240 || bl>>8 < 240 {
		t.Errorf("transparent area is not white in the thumbnail: %d %d %d", r>>8, g>>8, bl>>8)
	}
}

func TestProcessWebP(t *testing.T) {
	out, err := domain.Process(mustRead(t, "testdata/photo-480x360-lossy.webp"), rules)
	if err != nil {
		t.Fatal(err)
	}
	if out.Source != domain.WebP || out.Image.ContentType != "image/jpeg" || out.Image.Width != 480 || out.Image.Height != 360 {
		t.Fatalf("opaque webp → %+v %s %dx%d", out.Source, out.Image.ContentType, out.Image.Width, out.Image.Height)
	}
	out, err = domain.Process(mustRead(t, "testdata/half-transparent-64x48-lossless.webp"), rules)
	if err != nil {
		t.Fatal(err)
	}
	if out.Image.ContentType != "image/png" {
		t.Fatalf("transparent webp stored as %s", out.Image.ContentType)
	}
}

func TestProcessGIFBecomesPNG(t *testing.T) {
	out, err := domain.Process(testimages.GIF(100, 50), rules)
	if err != nil {
		t.Fatal(err)
	}
	if out.Image.ContentType != "image/png" || out.Thumb.Width != 100 || out.Thumb.Height != 50 {
		t.Fatalf("gif → %s, thumb %dx%d", out.Image.ContentType, out.Thumb.Width, out.Thumb.Height)
	}
}

func TestProcessRefusesBadInput(t *testing.T) {
	small := domain.Rules{MaxBytes: 1000, MaxPixels: 1_000_000}
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"too many bytes", testimages.PhotoJPEG(200, 200, 3), domain.ErrTooLarge},
		{"text named .jpg", []byte("hello, I am not a picture"), domain.ErrUnsupportedType},
		{"svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), domain.ErrUnsupportedType},
		{"truncated jpeg", []byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 'J', 'F'}, domain.ErrCorruptImage},
		{"decompression bomb", pngClaiming(t, 100_000, 100_000), domain.ErrTooManyPixels},
		{"empty", []byte{}, domain.ErrEmpty},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := domain.Process(tc.data, small); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestThumbnailSize(t *testing.T) {
	cases := [][4]int{{4000, 3000, 320, 240}, {3000, 4000, 240, 320}, {320, 10, 320, 10}, {100, 80, 100, 80}, {10000, 10, 320, 1}}
	for _, c := range cases {
		if w, h := domain.ThumbnailSize(c[0], c[1]); w != c[2] || h != c[3] {
			t.Errorf("ThumbnailSize(%d,%d) = %d,%d want %d,%d", c[0], c[1], w, h, c[2], c[3])
		}
	}
}

func assertNoMetadata(t *testing.T, data []byte) {
	t.Helper()
	if left := testimages.MetadataLeft(data); len(left) > 0 {
		t.Errorf("metadata left in the output: %v", left)
	}
}

// pngClaiming returns a tiny PNG whose header announces w×h pixels.
func pngClaiming(t *testing.T, w, h uint32) []byte {
	t.Helper()
	data := testimages.TransparentPNG(1, 1)
	// IHDR: 8-byte signature, 4 length, "IHDR", then width and height, then CRC after 13 bytes.
	ihdr := data[12 : 12+4+13]
	put := func(b []byte, v uint32) { b[0], b[1], b[2], b[3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v) }
	put(ihdr[4:8], w)
	put(ihdr[8:12], h)
	put(data[12+4+13:], crc32.ChecksumIEEE(ihdr))
	return data
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
