package domain_test

import (
	"errors"
	"testing"

	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

func TestCheckDigitRules(t *testing.T) {
	good := []struct {
		raw, code, query string
		sym              domain.Symbology
	}{
		{"3017624010701", "3017624010701", "3017624010701", domain.EAN13},
		{"978-0-14-044913-6", "9780140449136", "9780140449136", domain.EAN13},
		{" 885909950805 ", "885909950805", "885909950805", domain.UPCA},
		{"036000291452", "036000291452", "036000291452", domain.UPCA},
		{"96385074", "96385074", "96385074", domain.EAN8},
		{"40170725", "40170725", "40170725", domain.EAN8},
		// UPC-E: its check digit is the one of its UPC-A expansion, which is what we ask for.
		{"01234565", "01234565", "012345000065", domain.UPCE},
		{"04252614", "04252614", "042100005264", domain.UPCE},
	}
	for _, c := range good {
		b, err := domain.ParseBarcode(c.raw)
		if err != nil || b.Code != c.code || b.Query != c.query || b.Symbology != c.sym {
			t.Errorf("ParseBarcode(%q) = %+v, %v; want %s %s (%s)", c.raw, b, err, c.code, c.query, c.sym)
		}
	}
	bad := []struct {
		raw  string
		want error
	}{
		{"3017624010702", domain.ErrCodeCheckDigit}, // EAN-13, last digit off by one
		{"885909950806", domain.ErrCodeCheckDigit},  // UPC-A
		{"96385075", domain.ErrCodeCheckDigit},      // neither EAN-8 nor UPC-E
		{"21234565", domain.ErrCodeCheckDigit},      // UPC-E needs number system 0 or 1
		{"301762401070A", domain.ErrCodeNotDigits},  // letters
		{"12345", domain.ErrCodeLength},             // too short
		{"30176240107011", domain.ErrCodeLength},    // 14 digits
		{"", domain.ErrCodeLength},                  // nothing
		{"３０１７６２４０１０７０１", domain.ErrCodeNotDigits},  // full-width digits are not ASCII digits
	}
	for _, c := range bad {
		if _, err := domain.ParseBarcode(c.raw); !errors.Is(err, c.want) {
			t.Errorf("ParseBarcode(%q) = %v, want %v", c.raw, err, c.want)
		}
	}
}

func TestUPCEExpansionFollowsEachZeroSuppressionRule(t *testing.T) {
	// GS1's table: the last of the six digits says where the zeros went.
	cases := map[string]string{
		"01234505": "01200000345", // 0-2: manufacturer XX d6 0000, product ddd
		"01234535": "01230000045", // 3
		"01234545": "01234000005", // 4
		"01234575": "01234500007", // 5-9
	}
	for upce, body := range cases {
		long, ok := domain.ExpandUPCE(upce)
		if !ok || long[:11] != body {
			t.Errorf("ExpandUPCE(%s) = %s, %v; want %s?", upce, long, ok, body)
		}
	}
	if _, ok := domain.ExpandUPCE("21234565"); ok {
		t.Error("number system 2 is not UPC-E")
	}
}
