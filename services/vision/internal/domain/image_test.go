package domain

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"
)

func encoded(t *testing.T, format string) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var buf bytes.Buffer
	var err error
	if format == "png" {
		err = png.Encode(&buf, img)
	} else {
		err = jpeg.Encode(&buf, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A minimal lossless WebP header is enough for type detection.
var webpHeader = append([]byte("RIFF\x1a\x00\x00\x00WEBPVP8L"), make([]byte, 16)...)

func TestNewImageSniffsTheBytes(t *testing.T) {
	tests := []struct {
		name     string
		data     []byte
		wantMime string
		wantErr  error
	}{
		{"jpeg", encoded(t, "jpeg"), "image/jpeg", nil},
		{"png", encoded(t, "png"), "image/png", nil},
		{"webp", webpHeader, "image/webp", nil},
		{"gif", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00"), "", ErrUnsupportedImage},
		{"heic", []byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00"), "", ErrUnsupportedImage},
		{"text", []byte("hello, I am not a picture"), "", ErrNotImage},
		{"pdf", []byte("%PDF-1.4\n"), "", ErrNotImage},
		{"empty", nil, "", ErrNoImage},
		{"too large", append(encoded(t, "png"), make([]byte, MaxImageBytes)...), "", ErrImageTooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			img, err := NewImage(tc.data)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if img.MimeType != tc.wantMime {
				t.Fatalf("mime = %q, want %q", img.MimeType, tc.wantMime)
			}
		})
	}
}

func TestDecodeDataURL(t *testing.T) {
	raw := encoded(t, "png")
	b64 := base64.StdEncoding.EncodeToString(raw)
	tests := []struct {
		name    string
		in      string
		wantErr error
	}{
		{"data url", "data:image/png;base64," + b64, nil},
		{"claims jpeg, is png", "data:image/jpeg;base64," + b64, nil},
		{"with line breaks", "data:image/png;base64," + b64[:10] + "\n" + b64[10:], nil},
		{"bare base64", b64, nil},
		{"unpadded", "data:image/png;base64," + base64.RawStdEncoding.EncodeToString(raw), nil},
		{"empty", "  ", ErrNoImage},
		{"empty payload", "data:image/png;base64,", ErrNoImage},
		{"not base64", "data:image/png;base64,@@@@", ErrBadDataURL},
		{"not base64 encoded", "data:image/png," + b64, ErrBadDataURL},
		{"text type", "data:text/plain;base64,aGVsbG8=", ErrNotImage},
		{"no comma", "data:image/png;base64", ErrBadDataURL},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data, err := DecodeDataURL(tc.in)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if err == nil && !bytes.Equal(data, raw) {
				t.Fatal("bytes differ")
			}
		})
	}
}
