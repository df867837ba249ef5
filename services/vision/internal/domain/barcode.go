package domain

import (
	"errors"
	"strings"
)

// Symbology is the barcode family a code was recognised as.
type Symbology string

const (
	EAN13 Symbology = "EAN-13"
	UPCA  Symbology = "UPC-A"
	EAN8  Symbology = "EAN-8"
	UPCE  Symbology = "UPC-E"
)

// Barcode is a code whose check digit is right.
type Barcode struct {
	// Code is the digits as scanned (spaces and hyphens removed).
	Code      string
	Symbology Symbology
	// Query is what the product databases are asked for: the code itself, or for UPC-E its
	// UPC-A expansion (the databases store the long form).
	Query string
}

// Why a code is refused; the messages are shown to the user.
var (
	ErrCodeNotDigits  = errors.New("A barcode is made of digits only.")
	ErrCodeLength     = errors.New("A barcode has 8 (EAN-8, UPC-E), 12 (UPC-A) or 13 (EAN-13) digits.")
	ErrCodeCheckDigit = errors.New("This barcode's check digit is wrong: it was probably misread. Please scan it again.")
)

// ParseBarcode checks a scanned code: digits only, a known length, and a right check digit.
// An 8-digit code may be EAN-8 or UPC-E (number system 0 or 1, its check digit the one of
// its UPC-A expansion).
func ParseBarcode(raw string) (Barcode, error) {
	code := strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, strings.TrimSpace(raw))
	if code == "" {
		return Barcode{}, ErrCodeLength
	}
	for _, r := range code {
		if r < '0' || r > '9' {
			return Barcode{}, ErrCodeNotDigits
		}
	}
	switch len(code) {
	case 13:
		if gtinValid(code) {
			return Barcode{Code: code, Symbology: EAN13, Query: code}, nil
		}
	case 12:
		if gtinValid(code) {
			return Barcode{Code: code, Symbology: UPCA, Query: code}, nil
		}
	case 8:
		// Some 8-digit codes pass both rules. GS1 keeps EAN-8 codes starting with 0 for
		// restricted (in-store) use, so such a code read as UPC-E first; others as EAN-8.
		long, upce := ExpandUPCE(code)
		upce = upce && long[11] == code[7]
		switch {
		case upce && code[0] == '0':
			return Barcode{Code: code, Symbology: UPCE, Query: long}, nil
		case gtinValid(code):
			return Barcode{Code: code, Symbology: EAN8, Query: code}, nil
		case upce:
			return Barcode{Code: code, Symbology: UPCE, Query: long}, nil
		}
	default:
		return Barcode{}, ErrCodeLength
	}
	return Barcode{}, ErrCodeCheckDigit
}

// gtinValid checks the GS1 mod-10 check digit shared by EAN-13, UPC-A and EAN-8: from the
// right, leaving the check digit out, digits weigh 3, 1, 3, 1...
func gtinValid(code string) bool {
	n := len(code)
	return int(code[n-1]-'0') == checkDigit(code[:n-1])
}

func checkDigit(body string) int {
	sum := 0
	for i := len(body) - 1; i >= 0; i-- {
		d := int(body[i] - '0')
		if (len(body)-1-i)%2 == 0 {
			d *= 3
		}
		sum += d
	}
	return (10 - sum%10) % 10
}

// ExpandUPCE writes an 8-digit UPC-E code (number system, six digits, check digit) as the
// UPC-A code it stands for, with the UPC-A check digit computed from the expansion (GS1's
// zero-suppression rules). ok is false unless the number system is 0 or 1.
func ExpandUPCE(code string) (string, bool) {
	if len(code) != 8 || (code[0] != '0' && code[0] != '1') {
		return "", false
	}
	ns, d := code[:1], code[1:7]
	var body string
	switch d[5] {
	case '0', '1', '2':
		body = ns + d[0:2] + d[5:6] + "0000" + d[2:5]
	case '3':
		body = ns + d[0:3] + "00000" + d[3:5]
	case '4':
		body = ns + d[0:4] + "00000" + d[4:5]
	default:
		body = ns + d[0:5] + "0000" + d[5:6]
	}
	return body + string(rune('0'+checkDigit(body))), true
}
