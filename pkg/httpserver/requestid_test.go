package httpserver

import (
	"regexp"
	"strings"
	"testing"
)

// TestSafeRequestIDIsTheRule holds the loop equal to the rule it replaced, a regexp, on ids
// at and past each edge: length, every ASCII byte, and bytes of multi-byte runes.
func TestSafeRequestIDIsTheRule(t *testing.T) {
	rule := regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)
	ids := []string{"", "a", "req-123", "550e8400-e29b-41d4-a716-446655440000", strings.Repeat("x", 64),
		strings.Repeat("x", 65), "a b", "a\nb", "ä", "abcé", "a/b", "a:b", "A.Z_0-9"}
	for b := 0; b < 256; b++ {
		ids = append(ids, string([]byte{byte(b)}), "id"+string([]byte{byte(b)}))
	}
	for _, id := range ids {
		if got, want := safeRequestID(id), rule.MatchString(id); got != want {
			t.Errorf("safeRequestID(%q) = %v, the rule says %v", id, got, want)
		}
	}
}
