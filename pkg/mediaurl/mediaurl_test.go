package mediaurl_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/mediaurl"
)

const key = "items/unattached/0123456789abcdef0123456789abcdef.jpg"

func signer(t *testing.T, secret string) *mediaurl.Signer {
	t.Helper()
	s, err := mediaurl.NewSigner(secret)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// parts splits a signed address into its key, exp and sig.
func parts(t *testing.T, signed string) (string, string, string) {
	t.Helper()
	u, err := url.Parse(signed)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(u.Path, mediaurl.Prefix), u.Query().Get("exp"), u.Query().Get("sig")
}

func TestASignedAddressVerifiesUntilItExpires(t *testing.T) {
	s := signer(t, strings.Repeat("s", 32))
	issued := time.Date(2025, 12, 24, 18, 20, 0, 0, time.UTC)
	signed := s.At(issued).Sign("/media/" + key)
	k, exp, sig := parts(t, signed)
	if k != key || exp != "1766606400" { // 20:00 UTC: the end of the hour after 18:xx
		t.Fatalf("signed %q: key %q exp %q", signed, k, exp)
	}
	if left, ok := s.Verify(k, exp, sig, issued); !ok || left != time.Hour+40*time.Minute {
		t.Errorf("at issue: ok %v, left %v; want 1h40m", ok, left)
	}
	if _, ok := s.Verify(k, exp, sig, issued.Add(time.Hour+39*time.Minute)); !ok {
		t.Error("a minute before expiry: refused")
	}
	if _, ok := s.Verify(k, exp, sig, issued.Add(time.Hour+40*time.Minute)); ok {
		t.Error("at expiry: still accepted")
	}
}

func TestAnAddressReadTwiceInTheHourIsTheSame(t *testing.T) {
	s := signer(t, strings.Repeat("s", 32))
	at := time.Date(2025, 12, 24, 18, 0, 0, 0, time.UTC)
	first, later := s.At(at).Sign("/media/"+key), s.At(at.Add(59*time.Minute)).Sign("/media/"+key)
	if first != later {
		t.Errorf("within the hour: %q then %q", first, later)
	}
	if next := s.At(at.Add(time.Hour)).Sign("/media/" + key); next == first {
		t.Error("the next hour gave the same address")
	}
}

// The attacker's side: everything but the address as issued is refused.
func TestForgedAddressesAreRefused(t *testing.T) {
	s := signer(t, strings.Repeat("s", 32))
	now := time.Now()
	k, exp, sig := parts(t, s.At(now).Sign("/media/"+key))
	other := "items/unattached/ffffffffffffffffffffffffffffffff.jpg"
	_, _, otherSig := parts(t, s.At(now).Sign("/media/"+other))
	_, _, foreignSig := parts(t, signer(t, strings.Repeat("x", 32)).At(now).Sign("/media/"+key))
	tampered := []byte(sig)
	tampered[3] ^= 1
	for name, c := range map[string][3]string{
		"no signature":                {k, "", ""},
		"exp without sig":             {k, exp, ""},
		"tampered sig":                {k, exp, string(tampered)},
		"another key's sig":           {k, exp, otherSig},
		"sig for this key, elsewhere": {other, exp, sig},
		"another secret's sig":        {k, exp, foreignSig},
		"later exp":                   {k, "9999999999", sig},
		"exp not a number":            {k, exp + "x", sig},
		"sig not base64url":           {k, exp, sig + "!"},
		"thumbnail of the same key":   {strings.TrimSuffix(k, ".jpg") + "_thumb.jpg", exp, sig},
	} {
		if _, ok := s.Verify(c[0], c[1], c[2], now); ok {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, ok := s.Verify(k, exp, sig, now.Add(3*time.Hour)); ok {
		t.Error("expired: accepted")
	}
}

// A signature made for a far expiry (say by a leaked secret's past owner) is not honoured:
// no address this package issues lives longer than two buckets.
func TestAnExpiryBeyondTwoHoursIsRefused(t *testing.T) {
	s := signer(t, strings.Repeat("s", 32))
	now := time.Now()
	far := s.At(now.Add(5 * time.Hour)).Sign("/media/" + key)
	k, exp, sig := parts(t, far)
	if _, ok := s.Verify(k, exp, sig, now); ok {
		t.Error("an address valid for 6 hours was accepted")
	}
}

func TestOnlyOurPhotoAddressesAreSigned(t *testing.T) {
	st := signer(t, strings.Repeat("s", 32)).At(time.Now())
	for _, u := range []string{"", "https://shop.example/a.jpg", "data:image/png;base64,AAAA", "/media/", "/api/media"} {
		if got := st.Sign(u); got != u {
			t.Errorf("Sign(%q) = %q, want it unchanged", u, got)
		}
	}
	resigned := st.Sign("/media/" + key + "?exp=1&sig=old")
	if resigned != st.Sign("/media/"+key) {
		t.Errorf("an old signature was not replaced: %q", resigned)
	}
	if st.SignPtr(nil) != nil {
		t.Error("SignPtr(nil) is not nil")
	}
}

func TestUnsignedIsTheStoredForm(t *testing.T) {
	st := signer(t, strings.Repeat("s", 32)).At(time.Now())
	if got := mediaurl.Unsigned(st.Sign("/media/" + key)); got != "/media/"+key {
		t.Errorf("Unsigned = %q", got)
	}
	if got := mediaurl.Unsigned("https://shop.example/a.jpg?x=1"); got != "https://shop.example/a.jpg?x=1" {
		t.Errorf("an external link was changed: %q", got)
	}
}

func TestAShortSecretIsRefused(t *testing.T) {
	if _, err := mediaurl.NewSigner("short"); err == nil {
		t.Error("a 5-byte secret was accepted")
	}
}
