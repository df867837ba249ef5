package domain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

func TestInvitationEmail(t *testing.T) {
	e, err := domain.InvitationEmail(domain.Invitation{To: "ben@example.com", FamilyName: "<The Smiths>", InvitedBy: "Ann",
		Link: "https://santa.example/join/abc", ExpiresAt: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}, "https://santa.example/api/unsubscribe/t")
	if err != nil {
		t.Fatal(err)
	}
	if e.Subject != "Ann invited you to join <The Smiths> on Santa Wishlist" || e.To != "ben@example.com" {
		t.Fatalf("%+v", e)
	}
	for _, want := range []string{`"<The Smiths>"`, "https://santa.example/join/abc", "30 November 2026"} {
		if !strings.Contains(e.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, e.Text)
		}
	}
	if !strings.Contains(e.HTML, "&lt;The Smiths&gt;") || strings.Contains(e.HTML, "<The Smiths>") ||
		!strings.Contains(e.HTML, `href="https://santa.example/join/abc"`) {
		t.Errorf("html:\n%s", e.HTML)
	}
}
