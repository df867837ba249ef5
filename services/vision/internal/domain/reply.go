// Package domain holds the vision rules: what a model reply means, the spec's defaults and
// error messages (docs/spec.md), the prompts, and which images are accepted; and the product
// lookup's (lookup.go): barcodes, categories, a shop page's product, the product databases'
// answers. It does no I/O: what the use cases call out to is declared in stores.go.
package domain

import (
	"encoding/json"
	"regexp"
	"strings"
)

// ModelReply is what the model answered, reduced to what the spec reads (docs/spec.md,
// section 7): the first candidate's first part text.
type ModelReply struct {
	// Candidates is how many candidates the answer held (0 when the model answered nothing,
	// for example because the prompt was blocked).
	Candidates int
	// Text is the first candidate's first part text; HasText says whether there was one.
	Text    string
	HasText bool
}

// The parser looks at no more than this much text: a reply limited to 800 output tokens is a
// few kilobytes, and the bound keeps the brace scan cheap on any input.
const (
	maxScannedText    = 32 << 10
	maxObjectAttempts = 64
)

// FirstJSONObject finds the first JSON object in text and decodes it. The model is asked for
// bare JSON but often wraps it in ```json fences or prose, so the text is scanned for a '{',
// its matching '}' is found with a brace count that skips braces inside strings, and the
// span is decoded. A span that is not valid JSON (prose such as "{see below}") is skipped
// and the scan moves to the next '{'.
func FirstJSONObject(text string) (map[string]any, bool) {
	if len(text) > maxScannedText {
		text = text[:maxScannedText]
	}
	attempts := 0
	for start := 0; start < len(text); start++ {
		if text[start] != '{' {
			continue
		}
		if attempts++; attempts > maxObjectAttempts {
			return nil, false
		}
		end, ok := matchingBrace(text, start)
		if !ok {
			continue
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(text[start:end+1]), &obj); err == nil && obj != nil {
			return obj, true
		}
	}
	return nil, false
}

// matchingBrace returns the index of the '}' that closes the '{' at start, treating text
// inside double-quoted strings (with backslash escapes) as opaque.
func matchingBrace(text string, start int) (int, bool) {
	depth := 0
	inString, escaped := false, false
	for i := start; i < len(text); i++ {
		c := text[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i, true
			}
		}
	}
	return 0, false
}

// Field names the pattern fallback looks for, with the spellings models use in prose.
var fieldPatterns = map[string][]string{
	"name":        {"name", "item name", "gift name", "product name", "title"},
	"description": {"description", "desc"},
	"price":       {"price", "estimated price", "estimatedPrice", "approximate price", "approximatePrice", "cost"},
}

var (
	dollarAmount = regexp.MustCompile(`\$\s?\d[\d,]*(?:\.\d{1,2})?`)
	// quotedField and lineField are built per key; they are cached here.
	quotedFieldRe = map[string]*regexp.Regexp{}
	lineFieldRe   = map[string]*regexp.Regexp{}
)

func init() {
	for _, names := range fieldPatterns {
		for _, n := range names {
			q := regexp.QuoteMeta(n)
			// "name": "Red Bike"   or   'name': 'Red Bike'
			quotedFieldRe[n] = regexp.MustCompile(`(?i)["']?\b` + q + `\b["']?\s*[:=]\s*"((?:[^"\\\n]|\\.)*)"`)
			// name: Red Bike   or   **Name:** Red Bike   or   - Price - $12.99
			lineFieldRe[n] = regexp.MustCompile(`(?im)^[\s>*#\-•]*(?:\d+\.\s*)?\**\b` + q + `\b\**\s*[:=]\s*\**\s*(.+?)\s*$`)
		}
	}
}

// ExtractFields pulls name, description and price out of a reply that is not JSON, as the
// spec's gift flow does. Keys that are not found are absent from the result.
func ExtractFields(text string) map[string]string {
	if len(text) > maxScannedText {
		text = text[:maxScannedText]
	}
	out := map[string]string{}
	for field, names := range fieldPatterns {
		if v, ok := findField(text, names); ok {
			out[field] = v
		}
	}
	if _, ok := out["price"]; !ok {
		if m := dollarAmount.FindString(text); m != "" {
			out["price"] = strings.ReplaceAll(m, " ", "")
		}
	}
	return out
}

func findField(text string, names []string) (string, bool) {
	for _, n := range names {
		if m := quotedFieldRe[n].FindStringSubmatch(text); m != nil {
			var s string
			if err := json.Unmarshal([]byte(`"`+m[1]+`"`), &s); err != nil {
				s = m[1]
			}
			if s = strings.TrimSpace(s); s != "" {
				return s, true
			}
		}
	}
	for _, n := range names {
		if m := lineFieldRe[n].FindStringSubmatch(text); m != nil {
			s := strings.Trim(strings.TrimSpace(m[1]), `"',*`)
			if s = strings.TrimSpace(s); s != "" {
				return s, true
			}
		}
	}
	return "", false
}
