package service_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/notification/internal/service"
)

func invitedEvent(t *testing.T, email, token string) events.Envelope {
	t.Helper()
	return invitedIn(t, "ann", email, token, "")
}

// invitedIn is the family.invited of an invitation by inviter in language ("" for none).
func invitedIn(t *testing.T, inviter, email, token, language string) events.Envelope {
	t.Helper()
	data := map[string]any{
		"familyId": uuid.NewString(), "familyName": "The Smiths", "invitedBy": "Ann", "email": email,
		"url": "/join/" + token, "expiresAt": time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)}
	if language != "" {
		data["language"] = language
	}
	env, err := events.NewEnvelope(events.TypeFamilyInvited, inviter, data)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// An invitation goes out once through a real SMTP server, in text and HTML, with the family,
// who invited and the link; a redelivered event sends nothing more.
func TestInvitationEmailIsSentOnce(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	nats := testenv.StartNATS(t)
	mailpit := testenv.StartMailpit(t)
	b := newBroker(t, nats.URL())
	start(t, dbURL, nats.URL(), func(c *service.Config) {
		c.SMTPURL, c.MailFrom, c.PublicURL = mailpit.SMTPURL(), "Santa Wishlist <no-reply@santa.test>", "https://santa.test"
		c.EmailBackOff = []time.Duration{100 * time.Millisecond, 100 * time.Millisecond}
	})

	env := invitedEvent(t, "ben@example.com", "tok123")
	b.publish(env)
	var msgs []testenv.MailpitMessage
	testenv.Eventually(t, 15*time.Second, func() (err error) {
		msgs, err = mailpit.Messages()
		if err == nil && len(msgs) != 1 {
			err = fmt.Errorf("%d messages", len(msgs))
		}
		return err
	})
	if msgs[0].Subject != "Ann invited you to join The Smiths on Santa Wishlist" || msgs[0].To[0].Address != "ben@example.com" ||
		msgs[0].MessageID != env.ID+"@santa-wishlist" {
		t.Fatalf("message %+v", msgs[0])
	}
	body, err := mailpit.Message(msgs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body.Text, "https://santa.test/join/tok123") || !strings.Contains(body.HTML, `href="https://santa.test/join/tok123"`) ||
		!strings.Contains(body.HTML, "<strong>The Smiths</strong>") {
		t.Fatalf("bodies:\n%s\n%s", body.Text, body.HTML)
	}

	// The relay published it again (same id, past JetStream's duplicate window): no second email.
	b.publishRaw(events.TypeFamilyInvited, mustJSON(t, env))
	b.consumerSettledNamed(service.EmailConsumerName, 10*time.Second)
	time.Sleep(300 * time.Millisecond)
	if msgs, _ := mailpit.Messages(); len(msgs) != 1 {
		t.Fatalf("%d messages after a redelivery, want 1", len(msgs))
	}
}

// While the SMTP server cannot be reached, the invitation waits and is retried with back-off;
// it arrives once when the server is back.
func TestInvitationEmailIsRetried(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	nats := testenv.StartNATS(t)
	mailpit := testenv.StartMailpit(t)
	line := testenv.StartTCPProxy(t, mailpit.SMTPAddr)
	b := newBroker(t, nats.URL())
	start(t, dbURL, nats.URL(), func(c *service.Config) {
		c.SMTPURL, c.MailFrom, c.PublicURL = "smtp://"+line.Addr(), "no-reply@santa.test", "https://santa.test"
		c.EmailBackOff = []time.Duration{200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond, 2 * time.Second}
	})
	line.Cut()
	b.publish(invitedEvent(t, "cleo@example.com", "tok456"))
	time.Sleep(700 * time.Millisecond) // at least two failed attempts
	if msgs, _ := mailpit.Messages(); len(msgs) != 0 {
		t.Fatalf("%d messages through a cut line", len(msgs))
	}
	line.Restore()
	testenv.Eventually(t, 15*time.Second, func() error {
		msgs, err := mailpit.Messages()
		if err == nil && (len(msgs) != 1 || msgs[0].To[0].Address != "cleo@example.com") {
			err = fmt.Errorf("%d messages", len(msgs))
		}
		return err
	})
}

// An invitation is written in the inviter's language, through the real SMTP server: the app's
// language the event carries (German; "fr-CA" is French), else the inviter's notification
// settings' (Spanish), else English; with the family's name, who invited, the link and its last
// day as the language writes it.
func TestInvitationEmailIsInTheInvitersLanguage(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	nats := testenv.StartNATS(t)
	mailpit := testenv.StartMailpit(t)
	b := newBroker(t, nats.URL())
	svc := start(t, dbURL, nats.URL(), func(c *service.Config) {
		c.SMTPURL, c.MailFrom, c.PublicURL = mailpit.SMTPURL(), "no-reply@santa.test", "https://santa.test"
	})
	setPrefs(t, svc.base, "rosa", map[string]any{"language": "es"})

	b.publish(invitedIn(t, "ann", "de@example.com", "tokDE", "de"))
	b.publish(invitedIn(t, "ann", "fr@example.com", "tokFR", "fr-CA"))
	b.publish(invitedIn(t, "rosa", "es@example.com", "tokES", ""))
	b.publish(invitedIn(t, "ann", "en@example.com", "tokEN", ""))
	b.publish(invitedIn(t, "ann", "pt@example.com", "tokPT", "pt-BR"))
	var msgs []testenv.MailpitMessage
	testenv.Eventually(t, 20*time.Second, func() (err error) {
		msgs, err = mailpit.Messages()
		if err == nil && len(msgs) != 5 {
			err = fmt.Errorf("%d messages", len(msgs))
		}
		return err
	})
	want := map[string]struct{ subject, text, html string }{
		"de@example.com": {"Ann lädt dich in die Familie The Smiths bei Santa Wishlist ein",
			"Ann hat dich eingeladen, der Familie „The Smiths“ bei Santa Wishlist beizutreten.\n\nFamilien sehen ihre Wunschlisten an einem Ort, damit niemand dasselbe Geschenk zweimal kauft, und können Wichtelnamen ziehen.\n\nDer Familie beitreten:\nhttps://santa.test/join/tokDE\n\nDer Link gilt bis zum 3. Dezember 2026.",
			`<html lang="de">`},
		"fr@example.com": {"Ann vous invite à rejoindre The Smiths sur Santa Wishlist",
			"Le lien est valable jusqu'au 3 décembre 2026.", `Rejoindre la famille</a>`},
		"es@example.com": {"Ann te invita a unirte a The Smiths en Santa Wishlist",
			"El enlace funciona hasta el 3 de diciembre de 2026.", `<strong>Ann</strong> te ha invitado a unirte a la familia «<strong>The Smiths</strong>»`},
		"en@example.com": {"Ann invited you to join The Smiths on Santa Wishlist",
			"Ann invited you to join \"The Smiths\" on Santa Wishlist.\n\nFamilies see each other's wishlists in one place, so nobody buys the same present twice, and can draw Secret Santa names.\n\nJoin the family:\nhttps://santa.test/join/tokEN\n\nThe link works until 3 December 2026.",
			`<strong>Ann</strong> invited you to join &#34;<strong>The Smiths</strong>&#34; on Santa Wishlist.`},
		"pt@example.com": {"Ann invited you to join The Smiths on Santa Wishlist", "The link works until 3 December 2026.", `<html lang="en">`},
	}
	for _, m := range msgs {
		to := m.To[0].Address
		w, ok := want[to]
		if !ok || m.Subject != w.subject {
			t.Errorf("to %s: subject %q, want %q", to, m.Subject, w.subject)
			continue
		}
		body, err := mailpit.Message(m.ID)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ReplaceAll(body.Text, "\r\n", "\n") // as sent over SMTP
		if !strings.Contains(text, w.text) || !strings.Contains(body.HTML, w.html) {
			t.Errorf("to %s, bodies lack %q / %q:\n%s\n%s", to, w.text, w.html, body.Text, body.HTML)
		}
	}
}
