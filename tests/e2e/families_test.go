//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

// mailpitURL is the stack's Mailpit API (deploy/local/stack.sh starts it).
func mailpitURL() string {
	if u := os.Getenv("SANTA_MAILPIT_URL"); u != "" {
		return u
	}
	return "http://127.0.0.1:8025"
}

type mailpitMessage struct {
	ID      string
	Subject string
	To      []struct{ Address string }
}

// mailsTo lists the messages the stack's Mailpit holds for one address (other tests' mail
// goes to other addresses).
func mailsTo(t *testing.T, address string) []mailpitMessage {
	t.Helper()
	resp, err := http.Get(mailpitURL() + "/api/v1/messages?limit=500")
	if err != nil {
		t.Fatalf("mailpit: %v", err)
	}
	defer resp.Body.Close()
	var list struct{ Messages []mailpitMessage }
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	var out []mailpitMessage
	for _, m := range list.Messages {
		for _, to := range m.To {
			if strings.EqualFold(to.Address, address) {
				out = append(out, m)
			}
		}
	}
	return out
}

var joinLink = regexp.MustCompile(`https?://[^\s"]+/join/([A-Za-z0-9_-]{22,})`)

// The family story through the gateway: an admin invites by email; the email arrives once
// through the real SMTP server and its link joins the family; the admin hears of it live; a
// draw gives each person their own match only, and a secret-santa notice.
func TestFamilyInvitationByEmailAndSecretSanta(t *testing.T) {
	ann := newNamedUser(t, "ann", "Ann")
	benEmail := testenv.UniqueEmail("ben")
	benSession := testenv.SignUp(t, benEmail, "secret123", "Ben")
	ben := &client{t: t, base: baseURL(t), token: benSession.IDToken}
	cleo := newNamedUser(t, "cleo", "Cleo")
	mallory := newNamedUser(t, "mallory", "Mallory")
	visitor := &client{t: t, base: baseURL(t)}
	annLive, benLive := ann.stream(t), ben.stream(t)
	expect(t, annLive, "hello", "count")
	expect(t, benLive, "hello", "count")

	var fam struct {
		ID     string
		Invite struct{ Token string }
	}
	ann.must(http.StatusCreated, "POST", "/api/families", map[string]string{"name": "The Smiths"}, &fam)
	ann.must(http.StatusCreated, "POST", "/api/families/"+fam.ID+"/invites", map[string]string{"email": benEmail}, nil)

	var mails []mailpitMessage
	testenv.Eventually(t, 20*time.Second, func() error {
		if mails = mailsTo(t, benEmail); len(mails) != 1 {
			return fmt.Errorf("%d emails to %s", len(mails), benEmail)
		}
		return nil
	})
	if mails[0].Subject != "Ann invited you to join The Smiths on Santa Wishlist" {
		t.Fatalf("subject %q", mails[0].Subject)
	}
	resp, err := http.Get(mailpitURL() + "/api/v1/message/" + mails[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	var body struct{ Text, HTML string }
	_ = json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	link := joinLink.FindStringSubmatch(body.Text)
	if link == nil || !strings.Contains(body.HTML, link[0]) {
		t.Fatalf("no join link in the email:\n%s", body.Text)
	}
	token := link[1]

	var info struct{ FamilyName, InvitedBy string }
	visitor.must(http.StatusOK, "GET", "/api/invites/"+token, nil, &info)
	if info.FamilyName != "The Smiths" || info.InvitedBy != "Ann" {
		t.Fatalf("invite info %+v", info)
	}
	ben.must(http.StatusOK, "POST", "/api/invites/"+token+"/accept", nil, nil)
	expect(t, annLive, "family-member-joined", "Ben joined The Smiths")
	cleo.must(http.StatusOK, "POST", "/api/invites/"+fam.Invite.Token+"/accept", nil, nil)

	mallory.must(http.StatusNotFound, "GET", "/api/families/"+fam.ID, nil, nil)
	ben.must(http.StatusForbidden, "POST", "/api/families/"+fam.ID+"/secret-santa", map[string]any{}, nil)
	ann.must(http.StatusCreated, "POST", "/api/families/"+fam.ID+"/secret-santa", map[string]any{"budget": "€30"}, nil)
	expect(t, benLive, "secret-santa", "Your Secret Santa match is ready")

	receivers := map[string]bool{}
	for name, c := range map[string]*client{"Ann": ann, "Ben": ben, "Cleo": cleo} {
		var m struct {
			Budget   string
			Assignee struct{ DisplayName string }
		}
		raw := c.must(http.StatusOK, "GET", "/api/families/"+fam.ID+"/secret-santa", nil, &m)
		if m.Assignee.DisplayName == name || m.Budget != "€30" {
			t.Fatalf("%s's match: %s", name, raw)
		}
		receivers[m.Assignee.DisplayName] = true
	}
	if len(receivers) != 3 {
		t.Fatalf("not everyone receives: %v", receivers)
	}
	mallory.must(http.StatusNotFound, "GET", "/api/families/"+fam.ID+"/secret-santa", nil, nil)
	if n := len(mailsTo(t, benEmail)); n != 1 {
		t.Fatalf("%d emails to %s, want 1", n, benEmail)
	}
}
