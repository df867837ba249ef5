package domain

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestReadPrice(t *testing.T) {
	cases := []struct {
		text  string
		minor int64
		cur   string
		ok    bool
	}{
		{"$29.99", 2999, "USD", true},
		{"24,90 €", 2490, "EUR", true},
		{"EUR 1.299,00", 129900, "EUR", true},
		{"1,299.00 USD", 129900, "USD", true},
		{"£15", 1500, "GBP", true},
		{"¥1,500", 1500, "JPY", true},
		{"CA$ 40", 4000, "CAD", true},
		{"about 30", 3000, "", true},
		{"19.5", 1950, "", true},
		{"free", 0, "", false},
		{"", 0, "", false},
		{"€0", 0, "EUR", false},
	}
	for _, c := range cases {
		minor, cur, ok := ReadPrice(c.text)
		if minor != c.minor || cur != c.cur || ok != c.ok {
			t.Errorf("ReadPrice(%q) = %d %q %v, want %d %q %v", c.text, minor, cur, ok, c.minor, c.cur, c.ok)
		}
	}
}

func TestParseAmount(t *testing.T) {
	good := map[string]int64{`"25.00"`: 2500, `"25"`: 2500, `"0.01"`: 1, `"25.5"`: 2550, `"10000000.00"`: 1_000_000_000}
	for raw, want := range good {
		got, err := ParseAmount(json.RawMessage(raw), "EUR", "amount")
		if err != nil || got != want {
			t.Errorf("ParseAmount(%s) = %d, %v; want %d", raw, got, err, want)
		}
	}
	bad := []string{`"0"`, `"0.00"`, `"-5"`, `"abc"`, `"1.234"`, `25`, `25.5`, `null`, ``, `"1e3"`, `" 5"`, `"NaN"`, `"10000000.01"`, `"+5"`}
	for _, raw := range bad {
		_, err := ParseAmount(json.RawMessage(raw), "EUR", "amount")
		var v *ValidationError
		if !errors.As(err, &v) || v.Fields["amount"] == "" {
			t.Errorf("ParseAmount(%s) = %v, want a fields.amount error", raw, err)
		}
	}
	if _, err := ParseAmount(json.RawMessage(`"25.5"`), "JPY", "amount"); err == nil {
		t.Error("JPY has no decimals: 25.5 must be refused")
	}
	if got, err := ParseAmount(json.RawMessage(`"2500"`), "JPY", "amount"); err != nil || got != 2500 {
		t.Errorf("JPY 2500 = %d, %v", got, err)
	}
}

func TestFormatMinor(t *testing.T) {
	for minor, want := range map[int64]string{2500: "25.00", 1: "0.01", 129900: "1299.00"} {
		if got := FormatMinor(minor, "EUR"); got != want {
			t.Errorf("FormatMinor(%d) = %q, want %q", minor, got, want)
		}
	}
	if got := FormatMinor(2500, "JPY"); got != "2500" {
		t.Errorf("JPY = %q", got)
	}
}
