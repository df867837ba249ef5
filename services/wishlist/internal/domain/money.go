package domain

import (
	"encoding/json"
	"regexp"
	"strings"
	"unicode"

	"github.com/bojanz/currency"
)

// Money is an exact amount: whole minor units (cents) of an ISO 4217 currency. Amounts travel as
// decimal strings ("25.00") and are held as integers, so nothing between a request and its answer
// is ever a float. The currencies, their digits and their symbols come from bojanz/currency (CLDR
// data), not from tables of ours.
type Money struct {
	Minor    int64
	Currency string
}

// MaxMinor bounds any amount (ten million of a currency's major units, in minor units of two
// digits): no gift costs more, and sums of a list's amounts stay far inside an int64.
const MaxMinor = 1_000_000_000

// Messages of the amount fields.
const (
	MsgAmount         = "Enter an amount like 25.00"
	MsgAmountPositive = "The amount must be more than zero"
	MsgAmountTooLarge = "That amount is too large"
	MsgCurrency       = "Choose a currency (a three-letter code such as EUR)"
)

// plainDecimal is the only shape an amount may have on the wire: digits, and at most one
// fraction part. Signs, exponents, spaces, "NaN" and the like are refused before any parsing.
var plainDecimal = regexp.MustCompile(`^[0-9]{1,12}(\.[0-9]{1,12})?$`)

// ValidCurrency says whether code is an ISO 4217 currency code this product knows.
func ValidCurrency(code string) bool {
	return len(code) == 3 && code == strings.ToUpper(code) && currency.IsValid(code)
}

// ParseAmount reads a request's amount for field: a JSON string with a positive decimal number
// of at most the currency's digits ("25.00", "25", JPY "2500"). A JSON number, text, zero, a
// negative amount or more decimals than the currency has are refused with the field's message.
func ParseAmount(raw json.RawMessage, cur, field string) (int64, error) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return 0, FieldError(field, MsgAmount)
	}
	return parseDecimal(s, cur, field)
}

func parseDecimal(s, cur, field string) (int64, error) {
	digits, ok := currency.GetDigits(cur)
	if !ok {
		return 0, FieldError("currency", MsgCurrency)
	}
	if !plainDecimal.MatchString(s) {
		return 0, FieldError(field, MsgAmount)
	}
	if i := strings.IndexByte(s, '.'); i >= 0 && len(s)-i-1 > int(digits) {
		return 0, FieldError(field, decimalsMessage(digits))
	}
	a, err := currency.NewAmount(s, cur)
	if err != nil {
		return 0, FieldError(field, MsgAmount)
	}
	minor, err := a.Int64() // exact: the fraction has no more digits than the currency
	if err != nil || minor > MaxMinor {
		return 0, FieldError(field, MsgAmountTooLarge)
	}
	if minor <= 0 {
		return 0, FieldError(field, MsgAmountPositive)
	}
	return minor, nil
}

func decimalsMessage(digits uint8) string {
	switch digits {
	case 0:
		return "This currency has no decimals"
	case 1:
		return "At most 1 decimal"
	}
	return "At most " + string(rune('0'+digits)) + " decimals"
}

// Digits is the currency's number of decimal digits (2 for an unknown code).
func Digits(cur string) int16 {
	d, ok := currency.GetDigits(cur)
	if !ok {
		return 2
	}
	return int16(d)
}

// FormatMinor writes minor units of cur as the API's decimal string ("25.00").
func FormatMinor(minor int64, cur string) string {
	a, err := currency.NewAmountFromInt64(minor, cur)
	if err != nil {
		return ""
	}
	return a.Number()
}

// Amount is a Money as the API shows it.
type Amount struct {
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
}

// Show is m as the API shows it.
func (m Money) Show() Amount {
	return Amount{Amount: FormatMinor(m.Minor, m.Currency), Currency: m.Currency}
}

// symbols maps a currency symbol as people write it ("$", "€", "CA$") to its code, from the
// CLDR symbols of a few locales; the first locale to name a symbol keeps it ("$" is the US
// dollar, as English writes it).
var symbols = func() map[string]string {
	out := map[string]string{}
	for _, loc := range []string{"en", "en-GB", "de", "fr", "es", "ja", "zh", "ko", "pl", "sv", "da", "nb", "cs", "hu", "ru", "tr", "hi"} {
		for _, code := range currency.GetCurrencyCodes() {
			sym, ok := currency.GetSymbol(code, currency.NewLocale(loc))
			if _, taken := out[sym]; !ok || taken || sym == code || strings.TrimSpace(sym) == "" {
				continue
			}
			out[sym] = code
		}
	}
	return out
}()

var priceNumber = regexp.MustCompile(`[0-9][0-9.,'’\x{00a0}\x{202f} ]*[0-9]|[0-9]`)

// ReadPrice reads an amount and its currency from a price as people write it ("$29.99",
// "24,90 €", "EUR 1.299,00", "£15"), keeping nothing but what it is sure of: ok is false when no
// number is found. The currency is empty when the text names none. The price text itself stays
// as the user wrote it; this reading is only for sums and group gift targets.
func ReadPrice(text string) (minor int64, cur string, ok bool) {
	loc := priceNumber.FindStringIndex(text)
	if loc == nil {
		return 0, priceCurrency(text), false
	}
	// What is left around the number names the currency: "$", "CA$", "EUR", "€".
	cur = priceCurrency(text[:loc[0]] + " " + text[loc[1]:])
	dec := normalizeNumber(text[loc[0]:loc[1]])
	if dec == "" {
		return 0, cur, false
	}
	parseAs := cur
	if parseAs == "" {
		parseAs = "EUR" // no currency named: read the number with two decimals, and say none
	}
	// A price may carry more decimals than its currency ("¥1,500.00"): Int64 rounds to it.
	a, err := currency.NewAmount(dec, parseAs)
	if err != nil {
		return 0, cur, false
	}
	m, err := a.Int64()
	if err != nil || m <= 0 || m > MaxMinor {
		return 0, cur, false
	}
	return m, cur, true
}

// priceCurrency finds a currency in the words of a price other than its number: an ISO code
// ("EUR") or a symbol ("€", "CA$"), by whole word, or a symbol stuck to nothing else.
func priceCurrency(rest string) string {
	for _, word := range strings.Fields(rest) {
		word = strings.Trim(word, ".,:;()")
		if len(word) == 3 && ValidCurrency(word) {
			return word
		}
		if code, ok := symbols[word]; ok {
			return code
		}
	}
	return ""
}

// normalizeNumber turns "1.299,00", "1,299.00", "24,90", "1 299" into "1299.00", "24.90",
// "1299": the last separator is the decimal one when one or two digits follow it; the others
// group thousands.
func normalizeNumber(num string) string {
	last := strings.LastIndexAny(num, ".,")
	var intPart, frac string
	if last >= 0 {
		after := num[last+1:]
		if n := len(after); n >= 1 && n <= 2 && allDigits(after) {
			intPart, frac = num[:last], after
		} else {
			intPart = num
		}
	} else {
		intPart = num
	}
	intPart = strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return r
		}
		return -1
	}, intPart)
	if intPart == "" {
		return ""
	}
	if frac != "" {
		return intPart + "." + frac
	}
	return intPart
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
