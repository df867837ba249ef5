package domain

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestSameEmail(t *testing.T) {
	for _, tc := range []struct {
		invited, account string
		same             bool
	}{
		{"cleo@example.com", "cleo@example.com", true},
		{"Cleo@Example.com", "cleo@example.COM", true},
		{" cleo@example.com", "cleo@example.com ", true},
		{"cleo@example.com", "cleo@example.org", false},
		{"cleo@example.com", "", false},
		{"", "", false},
		{"cleo@example.com", "leo@example.com", false},
	} {
		if got := SameEmail(tc.invited, tc.account); got != tc.same {
			t.Errorf("SameEmail(%q, %q) = %v, want %v", tc.invited, tc.account, got, tc.same)
		}
	}
}

func TestInviteIDNamesTheInvitationWithoutBeingALink(t *testing.T) {
	inv, err := NewInvite(strings.NewReader(strings.Repeat("x", 24)), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	id := InviteID(TokenHash(inv.Token))
	if id == inv.Token || len(id) != 43 {
		t.Fatalf("id %q for token %q", id, inv.Token)
	}
	// Both the token and the id lead to the stored hash; nothing else does.
	for _, ref := range []string{inv.Token, id} {
		found := false
		for _, h := range InviteHashes(ref) {
			found = found || bytes.Equal(h, TokenHash(inv.Token))
		}
		if !found {
			t.Fatalf("%q does not lead to the invitation", ref)
		}
	}
	for _, h := range InviteHashes("something else") {
		if bytes.Equal(h, TokenHash(inv.Token)) {
			t.Fatal("an unrelated reference leads to the invitation")
		}
	}
}
