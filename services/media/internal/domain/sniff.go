package domain

import (
	"bytes"
	"fmt"
)

// ImageType is an image format recognised from its bytes.
type ImageType string

// The accepted input formats.
const (
	JPEG ImageType = "jpeg"
	PNG  ImageType = "png"
	WebP ImageType = "webp"
	GIF  ImageType = "gif"
)

// Sniff names the format of data from its signature bytes. File names, multipart headers and
// data: URL media types are ignored on purpose: a client can claim anything.
func Sniff(data []byte) (ImageType, error) {
	switch {
	case len(data) == 0:
		return "", ErrEmpty
	case len(data) >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF:
		return JPEG, nil
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return PNG, nil
	case bytes.HasPrefix(data, []byte("GIF87a")) || bytes.HasPrefix(data, []byte("GIF89a")):
		return GIF, nil
	case len(data) >= 12 && bytes.Equal(data[0:4], []byte("RIFF")) && bytes.Equal(data[8:12], []byte("WEBP")):
		return WebP, nil
	}
	return "", fmt.Errorf("%w: %s", ErrUnsupportedType, describe(data))
}

// describe gives a short hint of what was sent instead, for logs.
func describe(data []byte) string {
	head := bytes.TrimSpace(data[:min(len(data), 256)])
	lower := bytes.ToLower(head)
	switch {
	case bytes.HasPrefix(lower, []byte("<svg")) || bytes.Contains(lower, []byte("<svg")):
		return "SVG"
	case bytes.HasPrefix(lower, []byte("<")):
		return "markup"
	case bytes.HasPrefix(data, []byte("%PDF")):
		return "PDF"
	case bytes.HasPrefix(data, []byte("BM")):
		return "BMP"
	case len(data) >= 12 && bytes.Equal(data[4:8], []byte("ftyp")):
		return "ISO media (HEIC/AVIF/MP4)"
	}
	return "unrecognised bytes"
}
