package domain

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"
)

// DecodedLenLimit is the longest base64 text worth decoding for a limit of maxBytes: anything
// longer is refused before allocating the decoded copy.
func DecodedLenLimit(maxBytes int64) int64 {
	return int64(base64.StdEncoding.EncodedLen(int(maxBytes)))
}

// DecodeDataURL returns the bytes of a data: URL ("data:image/png;base64,...."). The media
// type written in the URL is ignored: the bytes are sniffed later. Over maxBytes decoded
// bytes it returns ErrTooLarge.
func DecodeDataURL(s string, maxBytes int64) ([]byte, error) {
	s = strings.TrimSpace(s)
	// Schemes are case-insensitive, as browsers treat them.
	if len(s) < 5 || !strings.EqualFold(s[:5], "data:") {
		return nil, fmt.Errorf("%w: it must start with data:", ErrInvalidDataURL)
	}
	rest := s[5:]
	meta, payload, found := strings.Cut(rest, ",")
	if !found {
		return nil, fmt.Errorf("%w: no comma before the data", ErrInvalidDataURL)
	}
	isBase64 := false
	for _, p := range strings.Split(meta, ";")[1:] {
		if strings.EqualFold(strings.TrimSpace(p), "base64") {
			isBase64 = true
		}
	}
	if !isBase64 {
		// Percent-encoded data (how SVGs are usually inlined); decode it so the sniffer can
		// say what it is instead of a vague "bad encoding".
		raw, err := url.PathUnescape(payload)
		if err != nil {
			return nil, fmt.Errorf("%w: bad percent-encoding", ErrInvalidDataURL)
		}
		if int64(len(raw)) > maxBytes {
			return nil, ErrTooLarge
		}
		return []byte(raw), nil
	}
	// Some encoders wrap lines or drop padding. (Checked first: copying megabytes of
	// base64 for nothing costs more than the scan.)
	if strings.ContainsAny(payload, "\n\r \t") {
		payload = stripSpace(payload)
	}
	payload = strings.TrimRight(payload, "=")
	if int64(base64.RawStdEncoding.DecodedLen(len(payload))) > maxBytes {
		return nil, ErrTooLarge
	}
	data, err := base64.RawStdEncoding.DecodeString(payload)
	if err != nil {
		return nil, fmt.Errorf("%w: the base64 data is malformed", ErrInvalidDataURL)
	}
	return data, nil
}

func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\n', '\r', ' ', '\t':
			return -1
		}
		return r
	}, s)
}
