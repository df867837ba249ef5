// Package mediaurl signs and checks the addresses of stored photos: a photo is
// served only at /media/<key>?exp=<unix>&sig=<base64url>, where sig is an HMAC-SHA256 of the
// key and the expiry under a secret the signing services share with media. Stored imageUrls
// stay /media/<key>; the services that answer them sign at read time.
//
// Expiries are bucketed to the hour, so one photo read twice within the hour gets the same
// address: list answers keep their ETag and the browser cache keeps hitting. An address is
// valid from 1 to 2 hours after it was issued.
package mediaurl

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/santa-wishlist/santa/pkg/config"
)

// Prefix is the public path of stored photos.
const Prefix = "/media/"

// Bucket is the expiry's granularity; an address lives between Bucket and 2*Bucket.
const Bucket = time.Hour

// MinSecretLength keeps the HMAC key out of guessing range.
const MinSecretLength = 32

// ErrShortSecret is returned for a secret shorter than MinSecretLength bytes.
var ErrShortSecret = errors.New("the media URL secret must be at least 32 bytes")

// Signer signs and verifies photo addresses.
type Signer struct {
	key []byte
}

// NewSigner makes a Signer from the shared secret.
func NewSigner(secret string) (*Signer, error) {
	if len(secret) < MinSecretLength {
		return nil, ErrShortSecret
	}
	return &Signer{key: []byte(secret)}, nil
}

// FromEnv reads MEDIA_URL_SECRET (required).
func FromEnv(env *config.Env) *Signer {
	raw := env.Required("MEDIA_URL_SECRET")
	if raw == "" {
		return nil
	}
	s, err := NewSigner(raw)
	if err != nil {
		env.Problem("MEDIA_URL_SECRET: %v", err)
		return nil
	}
	return s
}

// Expiry is the expiry of addresses issued at now: the end of the hour after the current one.
func Expiry(now time.Time) int64 {
	b := int64(Bucket / time.Second)
	return (now.Unix()/b + 2) * b
}

// Stamp signs addresses with one expiry: one answer's photos share it.
type Stamp struct {
	s   *Signer
	exp int64
	tag string // "&exp=<exp>&sig=" less the sig, kept to build each address
}

// At returns the stamp for addresses issued at now.
func (s *Signer) At(now time.Time) Stamp {
	exp := Expiry(now)
	return Stamp{s: s, exp: exp, tag: "?exp=" + strconv.FormatInt(exp, 10) + "&sig="}
}

// Sign returns url with its signature when it is one of our stored photos (/media/<key>);
// anything else (an external link, a data: URL, "") is returned as it is. A query already on
// the address (an older signature) is replaced.
func (st Stamp) Sign(url string) string {
	key, ok := Key(url)
	if !ok {
		return url
	}
	return Prefix + key + st.tag + st.s.sig(key, st.exp)
}

// SignPtr is Sign for an optional address.
func (st Stamp) SignPtr(url *string) *string {
	if url == nil {
		return nil
	}
	signed := st.Sign(*url)
	return &signed
}

// Key returns the object key of one of our photo addresses, without any query or fragment.
func Key(url string) (string, bool) {
	key, ok := strings.CutPrefix(url, Prefix)
	if !ok {
		return "", false
	}
	if i := strings.IndexAny(key, "?#"); i >= 0 {
		key = key[:i]
	}
	return key, key != ""
}

// Unsigned returns the stored form of an address: a photo address without its query (what a
// client sends back is what it was given, signed); anything else unchanged.
func Unsigned(url string) string {
	if key, ok := Key(url); ok {
		return Prefix + key
	}
	return url
}

// Verify checks a request for key with the query's exp and sig at now. It returns how long
// the address stays valid, and false for a missing, malformed, tampered, foreign or expired
// signature, or one that claims to live longer than any address this package issues.
func (s *Signer) Verify(key, exp, sig string, now time.Time) (time.Duration, bool) {
	e, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || sig == "" {
		return 0, false
	}
	left := time.Unix(e, 0).Sub(now)
	if left <= 0 || left > 2*Bucket {
		return 0, false
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.mac(key, e)) {
		return 0, false
	}
	return left, true
}

func (s *Signer) sig(key string, exp int64) string {
	return base64.RawURLEncoding.EncodeToString(s.mac(key, exp))
}

// mac is HMAC-SHA256 over "key|exp"; keys never hold "|", so no two inputs collide.
func (s *Signer) mac(key string, exp int64) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(key))
	m.Write([]byte{'|'})
	m.Write(strconv.AppendInt(nil, exp, 10))
	return m.Sum(nil)
}
