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
	env, err := events.NewEnvelope(events.TypeFamilyInvited, "ann", map[string]any{
		"familyId": uuid.NewString(), "familyName": "The Smiths", "invitedBy": "Ann", "email": email,
		"url": "/join/" + token, "expiresAt": time.Now().Add(7 * 24 * time.Hour).UTC()})
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
