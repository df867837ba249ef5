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

// The invitation in each language of the app: its words, the link's last day as the language
// writes it, and the names escaped in the HTML in every one (a family called "<b>" stays text).
func TestInvitationEmailInEveryLanguage(t *testing.T) {
	cases := []struct{ lang, subject, date, join string }{
		{"en", `Ann invited you to join <b>&Co on Santa Wishlist`, "30 November 2026", "Join the family"},
		{"de", `Ann lädt dich in die Familie <b>&Co bei Santa Wishlist ein`, "30. November 2026", "Der Familie beitreten"},
		{"fr-CA", `Ann vous invite à rejoindre <b>&Co sur Santa Wishlist`, "30 novembre 2026", "Rejoindre la famille"},
		{"es", `Ann te invita a unirte a <b>&Co en Santa Wishlist`, "30 de noviembre de 2026", "Unirse a la familia"},
		{"pt", `Ann invited you to join <b>&Co on Santa Wishlist`, "30 November 2026", "Join the family"},
	}
	for _, c := range cases {
		e, err := domain.InvitationEmail(domain.Invitation{To: "ben@example.com", FamilyName: "<b>&Co", InvitedBy: "Ann",
			Link: "https://santa.example/join/abc", ExpiresAt: time.Date(2026, 11, 30, 23, 0, 0, 0, time.UTC), Language: c.lang}, "")
		if err != nil {
			t.Fatal(err)
		}
		if e.Subject != c.subject {
			t.Errorf("%s: subject %q, want %q", c.lang, e.Subject, c.subject)
		}
		for _, want := range []string{c.date, c.join, "<b>&Co", "https://santa.example/join/abc"} {
			if !strings.Contains(e.Text, want) {
				t.Errorf("%s: text lacks %q:\n%s", c.lang, want, e.Text)
			}
		}
		for _, want := range []string{c.date, c.join + "</a>", "<strong>&lt;b&gt;&amp;Co</strong>", "<strong>Ann</strong>"} {
			if !strings.Contains(e.HTML, want) {
				t.Errorf("%s: html lacks %q:\n%s", c.lang, want, e.HTML)
			}
		}
		if strings.Contains(e.HTML, "<b>") {
			t.Errorf("%s: the family's name is markup in the html:\n%s", c.lang, e.HTML)
		}
	}
}
