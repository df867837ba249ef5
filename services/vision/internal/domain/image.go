package domain

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// MaxImageBytes is the largest image accepted for analysis.
const MaxImageBytes = 8 << 20

// The spec's image messages (docs/spec.md, section 5: validation rules) and ours for what it
// does not cover.
var (
	ErrNoImage          = errors.New("Please select an image first")
	ErrNotImage         = errors.New("Please select an image file")
	ErrUnsupportedImage = errors.New("This image type is not supported. Please use a JPEG, PNG or WebP image.")
	ErrImageTooLarge    = fmt.Errorf("The image is too large. Please use an image of at most %d MB.", MaxImageBytes>>20)
	ErrBadDataURL       = errors.New("The image could not be read. Send it as a data URL such as data:image/jpeg;base64,...")
)

// Image is an accepted image with the type read from its bytes.
type Image struct {
	Data     []byte
	MimeType string
}

// NewImage accepts JPEG, PNG and WebP images, judging the type by the bytes and never by the
// name or type the client claimed.
func NewImage(data []byte) (Image, error) {
	if len(data) == 0 {
		return Image{}, ErrNoImage
	}
	if len(data) > MaxImageBytes {
		return Image{}, ErrImageTooLarge
	}
	mime := SniffImageType(data)
	switch mime {
	case "image/jpeg", "image/png", "image/webp":
		return Image{Data: data, MimeType: mime}, nil
	case "":
		return Image{}, ErrNotImage
	default:
		return Image{}, ErrUnsupportedImage
	}
}

// SniffImageType names the image type of data ("image/png"), or "" when it is not an image.
func SniffImageType(data []byte) string {
	// RIFF....WEBP is checked by hand as well, so acceptance does not hinge on the sniffer's
	// table.
	if len(data) >= 12 && bytes.Equal(data[:4], []byte("RIFF")) && bytes.Equal(data[8:12], []byte("WEBP")) {
		return "image/webp"
	}
	// HEIC/HEIF (iPhone photos) is an image the sniffer does not know.
	if len(data) >= 12 && bytes.Equal(data[4:8], []byte("ftyp")) {
		switch string(data[8:12]) {
		case "heic", "heix", "hevc", "heim", "heis", "mif1", "msf1", "avif":
			return "image/heif"
		}
	}
	ct := http.DetectContentType(data)
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	if strings.HasPrefix(ct, "image/") {
		return ct
	}
	return ""
}

// DecodeDataURL reads "data:image/jpeg;base64,...". The declared type is ignored (the bytes
// are sniffed later); the payload must be base64. A bare base64 string is accepted too.
func DecodeDataURL(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, ErrNoImage
	}
	payload := s
	if len(s) >= 5 && strings.EqualFold(s[:5], "data:") { // not ToLower: s is megabytes of base64
		comma := strings.IndexByte(s, ',')
		if comma < 0 {
			return nil, ErrBadDataURL
		}
		meta := strings.ToLower(s[5:comma])
		if !strings.HasSuffix(meta, ";base64") {
			return nil, ErrBadDataURL
		}
		if meta != ";base64" && !strings.HasPrefix(meta, "image/") {
			return nil, ErrNotImage
		}
		payload = s[comma+1:]
	}
	// Base64 text is 4/3 of the bytes; refuse early rather than decode a huge string.
	if base64.StdEncoding.DecodedLen(len(payload)) > MaxImageBytes+3 {
		return nil, ErrImageTooLarge
	}
	payload = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, payload)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if data, err := enc.DecodeString(payload); err == nil {
			if len(data) == 0 {
				return nil, ErrNoImage
			}
			return data, nil
		}
	}
	return nil, ErrBadDataURL
}
