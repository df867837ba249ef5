//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

type notificationSettings struct {
	Language    string
	Preferences []struct {
		Kind, Channel   string
		Enabled, Digest bool
	}
}

func (s notificationSettings) enabled(t *testing.T, kind, channel string) bool {
	t.Helper()
	for _, p := range s.Preferences {
		if p.Kind == kind && p.Channel == channel {
			return p.Enabled
		}
	}
	t.Fatalf("no %s/%s in %+v", kind, channel, s)
	return false
}

// The settings through the gateway: defaults, a change read back, refusals that name what is
// known, nothing of one user's settings seen or changed by another, and none signed out.
func TestNotificationPreferences(t *testing.T) {
	ann := newNamedUser(t, "ann", "Ann")
	ben := newNamedUser(t, "ben", "Ben")
	visitor := &client{t: t, base: baseURL(t)}
	var s notificationSettings
	ann.must(http.StatusOK, "GET", "/api/notifications/preferences", nil, &s)
	if s.Language != "en" || len(s.Preferences) != 22 || !s.enabled(t, "list.changed", "email") || s.enabled(t, "family.member_joined", "email") {
		t.Fatalf("defaults %+v", s)
	}
	ann.must(http.StatusOK, "PUT", "/api/notifications/preferences", map[string]any{"language": "de",
		"preferences": []map[string]any{{"kind": "list.changed", "channel": "email", "enabled": false},
			{"kind": "reminder.shopping", "channel": "push", "enabled": false}}}, &s)
	if s.Language != "de" || s.enabled(t, "list.changed", "email") || s.enabled(t, "reminder.shopping", "push") || !s.enabled(t, "list.changed", "push") {
		t.Fatalf("after the change %+v", s)
	}
	ann.must(http.StatusOK, "GET", "/api/notifications/preferences", nil, &s)
	if s.Language != "de" || s.enabled(t, "list.changed", "email") {
		t.Fatalf("read back %+v", s)
	}
	var bens notificationSettings
	ben.must(http.StatusOK, "GET", "/api/notifications/preferences", nil, &bens)
	if bens.Language != "en" || !bens.enabled(t, "list.changed", "email") {
		t.Fatalf("ann's change reached ben's settings: %+v", bens)
	}
	for body, want := range map[string]string{
		`{"preferences":[{"kind":"item.claimed","channel":"email","enabled":true}]}`: `Unknown notification kind`,
		`{"preferences":[{"kind":"list.changed","channel":"sms","enabled":true}]}`:   `Unknown notification channel`,
	} {
		code, b, _ := ann.do("PUT", "/api/notifications/preferences", []byte(body))
		if code != http.StatusUnprocessableEntity || !strings.Contains(string(b), want) {
			t.Fatalf("%s: %d %s", body, code, b)
		}
	}
	visitor.must(http.StatusUnauthorized, "GET", "/api/notifications/preferences", nil, nil)
	visitor.must(http.StatusUnauthorized, "PUT", "/api/notifications/preferences", map[string]any{"language": "fr"}, nil)
}

// mailHeaders reads a message's headers from the stack's Mailpit.
func mailHeaders(t *testing.T, id string) map[string][]string {
	t.Helper()
	resp, err := http.Get(mailpitURL() + "/api/v1/message/" + id + "/headers")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	h := map[string][]string{}
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		t.Fatal(err)
	}
	return h
}

// waitMail waits until address has a message with the subject and returns it.
func waitMail(t *testing.T, address, subject string) mailpitMessage {
	t.Helper()
	var found mailpitMessage
	testenv.Eventually(t, 30*time.Second, func() error {
		for _, m := range mailsTo(t, address) {
			if m.Subject == subject {
				found = m
				return nil
			}
		}
		return fmt.Errorf("no %q to %s", subject, address)
	})
	return found
}

// unsubscribePath checks the one-click headers (RFC 8058) and returns the address's path.
func unsubscribePath(t *testing.T, id string) string {
	t.Helper()
	h := mailHeaders(t, id)
	if len(h["List-Unsubscribe"]) != 1 || strings.Join(h["List-Unsubscribe-Post"], "") != "List-Unsubscribe=One-Click" {
		t.Fatalf("headers %v", h)
	}
	u, err := url.Parse(strings.Trim(h["List-Unsubscribe"][0], "<>"))
	if err != nil || !strings.HasPrefix(u.Path, "/api/unsubscribe/") {
		t.Fatalf("List-Unsubscribe %q", h["List-Unsubscribe"][0])
	}
	return u.Path
}

// oneClick POSTs as a mail provider does: no sign-in, the one-click body.
func oneClick(t *testing.T, path string) (int, string) {
	t.Helper()
	r := (&client{t: t, base: baseURL(t)}).api().Do("POST", path, strings.NewReader("List-Unsubscribe=One-Click"),
		"Content-Type", "application/x-www-form-urlencoded")
	return r.Status, string(r.Body)
}

// Every email carries the one-click headers, and the mail provider's POST, through the
// gateway and signed in as nobody, does what the token says: the invitation's stops
// invitations to the address, the Secret Santa email's turns that kind's email off in the
// user's settings. Unknown tokens are 404s; a browser opening the address is sent to the app.
func TestOneClickUnsubscribeThroughTheGateway(t *testing.T) {
	ann := newNamedUser(t, "ann", "Ann")
	benEmail := testenv.UniqueEmail("ben")
	benSession := testenv.SignUp(t, benEmail, "secret123", "Ben")
	ben := &client{t: t, base: baseURL(t), token: benSession.IDToken}
	cleo := newNamedUser(t, "cleo", "Cleo")
	var fam struct {
		ID     string
		Invite struct{ Token string }
	}
	ann.must(http.StatusCreated, "POST", "/api/families", map[string]string{"name": "The Smiths"}, &fam)
	ann.must(http.StatusCreated, "POST", "/api/families/"+fam.ID+"/invites", map[string]string{"email": benEmail}, nil)
	invitation := waitMail(t, benEmail, "Ann invited you to join The Smiths on Santa Wishlist")
	invitePath := unsubscribePath(t, invitation.ID)

	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequest("GET", baseURL(t)+invitePath, nil)
	req.Header.Set("Accept", "text/html")
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != strings.Replace(invitePath, "/api", "", 1) {
		t.Fatalf("a browser opening the link: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if code, body := oneClick(t, invitePath); code != http.StatusOK || body != `{"invitations":true}` {
		t.Fatalf("one-click on the invitation: %d %s", code, body)
	}
	// The invitation itself still works: ben joins with the family's link.
	ben.must(http.StatusOK, "POST", "/api/invites/"+fam.Invite.Token+"/accept", nil, nil)
	cleo.must(http.StatusOK, "POST", "/api/invites/"+fam.Invite.Token+"/accept", nil, nil)
	ann.must(http.StatusCreated, "POST", "/api/families/"+fam.ID+"/secret-santa", map[string]any{"budget": "€20"}, nil)

	drawnMail := waitMail(t, benEmail, "Your Secret Santa match is ready")
	drawnPath := unsubscribePath(t, drawnMail.ID)
	var what struct{ Kinds []string }
	(&client{t: t, base: baseURL(t)}).must(http.StatusOK, "GET", drawnPath, nil, &what)
	if len(what.Kinds) != 1 || what.Kinds[0] != "secretsanta.drawn" {
		t.Fatalf("the token stands for %+v", what)
	}
	var s notificationSettings
	ben.must(http.StatusOK, "GET", "/api/notifications/preferences", nil, &s)
	if !s.enabled(t, "secretsanta.drawn", "email") {
		t.Fatal("reading what the link stops turned it off")
	}
	if code, body := oneClick(t, drawnPath); code != http.StatusOK || body != `{"kinds":["secretsanta.drawn"]}` {
		t.Fatalf("one-click on the draw email: %d %s", code, body)
	}
	ben.must(http.StatusOK, "GET", "/api/notifications/preferences", nil, &s)
	if s.enabled(t, "secretsanta.drawn", "email") || !s.enabled(t, "secretsanta.drawn", "push") || !s.enabled(t, "list.changed", "email") {
		t.Fatalf("after one-click: %+v", s)
	}
	// Unknown tokens, signed in or not, are 404s; so is the body of anything but a one-click.
	if code, _ := oneClick(t, "/api/unsubscribe/"+strings.Repeat("A", 43)); code != http.StatusNotFound {
		t.Fatalf("unknown token: %d", code)
	}
	cleo.must(http.StatusNotFound, "GET", "/api/unsubscribe/"+strings.Repeat("B", 43), nil, nil)
	cleo.must(http.StatusNotFound, "GET", "/api/unsubscribe/short", nil, nil)
}
