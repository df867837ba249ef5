package service_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
	"github.com/santa-wishlist/santa/services/notification/internal/service"
)

// mailed is a notification service that emails notices through a private Mailpit to users of
// the Auth emulator, with the test's clock.
type mailed struct {
	dbURL, natsURL string
	mailpit        *testenv.MailpitServer
	clock          *testenv.Clock
	b              broker
	tweaks         []func(*service.Config)
}

const publicURL = "https://santa.test"

func newMailed(t *testing.T, tweak ...func(*service.Config)) *mailed {
	t.Helper()
	_, dbURL := testenv.Postgres(t)
	nats := testenv.StartNATS(t)
	return &mailed{dbURL: dbURL, natsURL: nats.URL(), mailpit: testenv.StartMailpit(t), clock: testenv.NewClock(time.Now()),
		b: newBroker(t, nats.URL()), tweaks: tweak}
}

// replica starts one more replica of the service.
func (m *mailed) replica(t *testing.T) *instance {
	t.Helper()
	return start(t, m.dbURL, m.natsURL, append([]func(*service.Config){func(c *service.Config) {
		c.SMTPURL, c.MailFrom, c.PublicURL = m.mailpit.SMTPURL(), "Santa Wishlist <no-reply@santa.test>", publicURL
		c.EmailBackOff = []time.Duration{100 * time.Millisecond, 100 * time.Millisecond}
		c.FirebaseProjectID, c.AllowAuthEmulator = testenv.FirebaseProject, true
		c.DigestWindow, c.EmailSendEvery, c.Clock = time.Hour, 20*time.Millisecond, m.clock.Now
	}}, m.tweaks...)...)
}

// user signs a new user up in the Auth emulator: the service looks the address up there.
func user(t *testing.T, name string) testenv.Session {
	t.Helper()
	return testenv.SignUp(t, fmt.Sprintf("%s-%s@example.com", name, testenv.RandomHex(4)), "secret123", "")
}

func (m *mailed) publish(t *testing.T, typ, uid string, data map[string]any) events.Envelope {
	t.Helper()
	env, err := events.NewEnvelope(typ, uid, data)
	if err != nil {
		t.Fatal(err)
	}
	m.b.publish(env)
	return env
}

// settled waits until every notice is queued.
func (m *mailed) settled() { m.b.consumerSettledNamed(service.NoticeEmailConsumerName, 15*time.Second) }

// queued waits until PostgreSQL holds want email notices of the kind (a domain.Event...) for the user ("": for
// anyone), before a test moves the clock past a digest window. The consumer's counts can
// read "settled" a moment before a busy replica's last notice is committed, and a notice
// queued after its digest went belongs in the next one.
func (m *mailed) queued(t *testing.T, uid, event string, want int) {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), m.dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	testenv.Eventually(t, 15*time.Second, func() error {
		var n int
		if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM email_items
			WHERE event = $1 AND ($2 = '' OR user_id = $2)`, event, uid).Scan(&n); err != nil {
			return err
		}
		if n != want {
			return fmt.Errorf("%d %s notices queued, want %d", n, event, want)
		}
		return nil
	})
}

// inbox waits until the address has want messages and returns them, newest first.
func (m *mailed) inbox(t *testing.T, address string, want int) []testenv.MailpitMessage {
	t.Helper()
	var got []testenv.MailpitMessage
	testenv.Eventually(t, 15*time.Second, func() (err error) {
		got, err = m.mailpit.To(address)
		if err == nil && len(got) != want {
			err = fmt.Errorf("%s has %d messages, want %d", address, len(got), want)
		}
		return err
	})
	return got
}

// stays checks that the address still has exactly want messages after the senders had many
// chances to send more.
func (m *mailed) stays(t *testing.T, address string, want int) {
	t.Helper()
	time.Sleep(400 * time.Millisecond) // 20 ticks of every sender
	if got, err := m.mailpit.To(address); err != nil || len(got) != want {
		t.Fatalf("%s has %d messages (%v), want %d", address, len(got), err, want)
	}
}

func listChanged(listID string, viewers ...string) map[string]any {
	return map[string]any{"listId": listID, "viewers": viewers, "cause": "item.updated"}
}

func drawn(participants ...string) map[string]any {
	return map[string]any{"familyId": uuid.NewString(), "familyName": "The Smiths", "drawnAt": time.Now().UTC(), "participants": participants}
}

// setPrefs stores the user's choices through the route the settings screen uses.
func setPrefs(t *testing.T, base, uid string, body map[string]any) {
	t.Helper()
	r := as(t, base, uid, streamOpts{}).Do("PUT", "/api/notifications/preferences", bytes.NewReader(mustJSON(t, body)))
	if r.Status != 200 {
		t.Fatalf("put preferences: %d %s", r.Status, r.Body)
	}
}

// Five changes to two lists within the digest window make one email, sent when the window
// ends (the test's clock), in the user's language, with the one-click headers; nothing more
// comes after.
func TestDigestCollectsChangesIntoOneEmail(t *testing.T) {
	m := newMailed(t)
	svc := m.replica(t)
	ann := user(t, "ann")
	setPrefs(t, svc.base, ann.UID, map[string]any{"language": "de"})
	listA, listB := uuid.NewString(), uuid.NewString()
	for i := 0; i < 3; i++ {
		m.publish(t, events.TypeListChanged, "owner", listChanged(listA, ann.UID))
	}
	for i := 0; i < 2; i++ {
		m.publish(t, events.TypeListChanged, "owner", listChanged(listB, ann.UID))
	}
	m.settled()
	m.queued(t, ann.UID, domain.EventSharedListChanged, 5)
	m.stays(t, ann.Email, 0) // the window is still open
	m.clock.Advance(59 * time.Minute)
	m.stays(t, ann.Email, 0)
	m.clock.Advance(2 * time.Minute)
	msgs := m.inbox(t, ann.Email, 1)
	if msgs[0].Subject != "Neues aus deiner Familie bei Santa Wishlist" {
		t.Fatalf("subject %q", msgs[0].Subject)
	}
	body, err := m.mailpit.Message(msgs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body.Text, "hat sich geändert (3-mal)") || !strings.Contains(body.Text, "hat sich geändert (2-mal)") {
		t.Fatalf("text:\n%s", body.Text)
	}
	headers, err := m.mailpit.Headers(msgs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	unsub := headers["List-Unsubscribe"]
	if len(unsub) != 1 || !strings.HasPrefix(unsub[0], "<"+publicURL+"/api/unsubscribe/") || !strings.HasSuffix(unsub[0], ">") ||
		strings.Join(headers["List-Unsubscribe-Post"], "") != "List-Unsubscribe=One-Click" {
		t.Fatalf("headers %v", headers)
	}
	// The same list changed again: a new window, a new digest, and the first is not sent again.
	m.publish(t, events.TypeListChanged, "owner", listChanged(listA, ann.UID))
	m.settled()
	m.queued(t, ann.UID, domain.EventSharedListChanged, 6)
	m.stays(t, ann.Email, 1)
	m.clock.Advance(61 * time.Minute)
	m.inbox(t, ann.Email, 2)
	m.stays(t, ann.Email, 2)
}

// Two replicas send the due digests of many users at the same moment: each user gets one
// email, never two (FOR UPDATE SKIP LOCKED), and a redelivered event adds nothing.
func TestTwoReplicasSendEachDigestOnce(t *testing.T) {
	m := newMailed(t)
	m.replica(t)
	m.replica(t)
	var users []testenv.Session
	for i := 0; i < 6; i++ {
		users = append(users, user(t, fmt.Sprintf("u%d", i)))
	}
	list := uuid.NewString()
	for i := 0; i < 4; i++ {
		viewers := []string{}
		for _, u := range users {
			viewers = append(viewers, u.UID)
		}
		env := m.publish(t, events.TypeListChanged, "owner", listChanged(list, viewers...))
		if i == 0 { // the relay published it again, past JetStream's duplicate window
			m.b.publishRaw(events.TypeListChanged, mustJSON(t, env))
		}
	}
	m.settled()
	m.queued(t, "", domain.EventSharedListChanged, 4*len(users))
	m.clock.Advance(time.Hour + time.Second)
	for _, u := range users {
		msgs := m.inbox(t, u.Email, 1)
		body, err := m.mailpit.Message(msgs[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(body.Text, "changed (4 times)") {
			t.Fatalf("%s's digest:\n%s", u.Email, body.Text)
		}
	}
	for _, u := range users {
		m.stays(t, u.Email, 1)
	}
}

// A replica stops in the middle of a digest window; the notices it queued are in PostgreSQL,
// and the next replica sends them with the later ones as one email, once. A Secret Santa draw
// goes at once, not at the end of the window.
func TestRestartInTheMiddleSendsEverythingOnce(t *testing.T) {
	m := newMailed(t)
	first := m.replica(t)
	ben := user(t, "ben")
	list := uuid.NewString()
	for i := 0; i < 3; i++ {
		m.publish(t, events.TypeListChanged, "owner", listChanged(list, ben.UID))
	}
	m.settled()
	m.queued(t, ben.UID, domain.EventSharedListChanged, 3) // before the replica stops: they are its
	first.stop()
	m.clock.Advance(30 * time.Minute)
	for i := 0; i < 2; i++ {
		m.publish(t, events.TypeListChanged, "owner", listChanged(list, ben.UID))
	}
	m.replica(t)
	m.publish(t, events.TypeSecretSantaDrawn, "admin", drawn(ben.UID, "someone-else"))
	m.settled()
	m.queued(t, ben.UID, domain.EventSharedListChanged, 5)
	msgs := m.inbox(t, ben.Email, 1) // the draw, at once
	if msgs[0].Subject != "Your Secret Santa match is ready" {
		t.Fatalf("subject %q", msgs[0].Subject)
	}
	m.clock.Advance(31 * time.Minute) // the first notice's window ends
	msgs = m.inbox(t, ben.Email, 2)
	body, err := m.mailpit.Message(msgs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if msgs[0].Subject != "News from your family on Santa Wishlist" || !strings.Contains(body.Text, "changed (5 times)") {
		t.Fatalf("digest %q:\n%s", msgs[0].Subject, body.Text)
	}
	m.clock.Advance(2 * time.Hour)
	m.stays(t, ben.Email, 2)
}

// Preferences off: no email and no push of that kind, while another user with the defaults
// gets both (so the silence is the preference's doing).
func TestPreferencesOffMeanNoEmailAndNoPush(t *testing.T) {
	p := startPushedWith(t)
	cleo, dan := user(t, "cleo"), user(t, "dan")
	cleoPhone, danPhone := p.device(t, cleo.UID), p.device(t, dan.UID)
	setPrefs(t, p.svc.base, cleo.UID, map[string]any{"preferences": []map[string]any{
		{"kind": "secretsanta.drawn", "channel": "email", "enabled": false},
		{"kind": "secretsanta.drawn", "channel": "push", "enabled": false},
	}})
	p.publish(t, events.TypeSecretSantaDrawn, "admin", drawn(cleo.UID, dan.UID))
	p.settled()
	p.m.settled()
	p.m.inbox(t, dan.Email, 1)
	if got, _ := p.ps.inbox(danPhone); len(got) != 1 {
		t.Fatalf("dan's phone: %+v", got)
	}
	p.m.stays(t, cleo.Email, 0)
	if _, posts := p.ps.inbox(cleoPhone); posts != 0 {
		t.Fatalf("cleo's phone was pushed %d times", posts)
	}
	// Only that kind is off: a removed claim still reaches cleo's phone (and her digest).
	p.publish(t, events.TypeItemUnclaimed, cleo.UID, map[string]any{"claimerId": cleo.UID, "itemId": uuid.NewString(),
		"itemName": "Kite", "listId": uuid.NewString(), "ownerName": "Kid", "reason": "removed"})
	p.settled()
	if got, _ := p.ps.inbox(cleoPhone); len(got) != 1 || got[0].Message["kind"] != "claim-removed" {
		t.Fatalf("cleo's phone: %+v", got)
	}
}

// pushedMailed is a service that pushes and emails.
type pushedMailed struct {
	pushed
	m *mailed
}

func startPushedWith(t *testing.T) pushedMailed {
	t.Helper()
	m := &mailed{mailpit: testenv.StartMailpit(t), clock: testenv.NewClock(time.Now())}
	p := startPushed(t, func(c *service.Config) {
		c.SMTPURL, c.MailFrom, c.PublicURL = m.mailpit.SMTPURL(), "no-reply@santa.test", publicURL
		c.FirebaseProjectID, c.AllowAuthEmulator = testenv.FirebaseProject, true
		c.DigestWindow, c.EmailSendEvery, c.Clock = time.Hour, 20*time.Millisecond, m.clock.Now
	})
	m.b = p.b
	return pushedMailed{pushed: p, m: m}
}

// oneClick POSTs as a mail provider does for the List-Unsubscribe button (RFC 8058), to the
// header's address on the service under test.
func oneClick(t *testing.T, base, header string) testenv.Response {
	t.Helper()
	u, err := url.Parse(strings.Trim(header, "<>"))
	if err != nil || u.Scheme+"://"+u.Host != publicURL {
		t.Fatalf("List-Unsubscribe %q", header)
	}
	return as(t, base, "", streamOpts{}).Do("POST", u.Path, strings.NewReader("List-Unsubscribe=One-Click"),
		"Content-Type", "application/x-www-form-urlencoded")
}

func unsubscribeHeader(t *testing.T, m *mailed, id string) string {
	t.Helper()
	h, err := m.mailpit.Headers(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(h["List-Unsubscribe"]) != 1 || strings.Join(h["List-Unsubscribe-Post"], "") != "List-Unsubscribe=One-Click" {
		t.Fatalf("headers %v", h)
	}
	return h["List-Unsubscribe"][0]
}

// The mail program's one-click unsubscribe, without signing in: that kind's email goes off
// (the settings say so), the next notice of the kind is not emailed, other kinds still are.
// An unknown token is a 404; opening the link in a browser changes nothing.
func TestOneClickUnsubscribeTurnsTheKindOff(t *testing.T) {
	m := newMailed(t)
	svc := m.replica(t)
	eve, fay := user(t, "eve"), user(t, "fay")
	m.publish(t, events.TypeSecretSantaDrawn, "admin", drawn(eve.UID))
	msgs := m.inbox(t, eve.Email, 1)
	header := unsubscribeHeader(t, m, msgs[0].ID)
	token := header[strings.LastIndex(header, "/")+1 : len(header)-1]

	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	opened := as(t, svc.base, "", streamOpts{client: noRedirect}).Do("GET", "/api/unsubscribe/"+token, nil, "Accept", "text/html")
	if opened.Status != 303 || opened.Header.Get("Location") != "/unsubscribe/"+token {
		t.Fatalf("opened in a browser: %d %v", opened.Status, opened.Header)
	}
	described := as(t, svc.base, "", streamOpts{}).Do("GET", "/api/unsubscribe/"+token, nil)
	if described.Status != 200 || string(described.Body) != `{"kinds":["secretsanta.drawn"]}` {
		t.Fatalf("described: %d %s", described.Status, described.Body)
	}
	if r := as(t, svc.base, "", streamOpts{}).Do("POST", "/api/unsubscribe/"+token, strings.NewReader("hello")); r.Status != 400 {
		t.Fatalf("a POST without the one-click body: %d", r.Status)
	}
	if r := oneClick(t, svc.base, "<"+publicURL+"/api/unsubscribe/"+strings.Repeat("x", 43)+">"); r.Status != 404 {
		t.Fatalf("unknown token: %d %s", r.Status, r.Body)
	}
	for i := 0; i < 2; i++ { // twice: the same answer
		if r := oneClick(t, svc.base, header); r.Status != 200 || string(r.Body) != `{"kinds":["secretsanta.drawn"]}` {
			t.Fatalf("one-click: %d %s", r.Status, r.Body)
		}
	}
	var settings struct {
		Preferences []struct {
			Kind, Channel string
			Enabled       bool
		}
	}
	as(t, svc.base, eve.UID, streamOpts{}).Do("GET", "/api/notifications/preferences", nil).Decode(t, &settings)
	for _, p := range settings.Preferences {
		if p.Kind == "secretsanta.drawn" && p.Channel == "email" && p.Enabled {
			t.Fatalf("still on after unsubscribing: %+v", settings)
		}
	}
	m.publish(t, events.TypeSecretSantaDrawn, "admin", drawn(eve.UID, fay.UID))
	m.settled()
	m.inbox(t, fay.Email, 1) // the draw was emailed to the one still subscribed ...
	m.stays(t, eve.Email, 1) // ... and not to eve
	// Another kind still reaches eve.
	m.publish(t, events.TypeListChanged, "owner", listChanged(uuid.NewString(), eve.UID))
	m.settled()
	m.queued(t, eve.UID, domain.EventSharedListChanged, 1)
	m.clock.Advance(2 * time.Hour)
	m.inbox(t, eve.Email, 2)
}

// The invitation carries the headers too; its one-click stops invitations to that address (in
// any case of letters), without touching the invitation itself; other addresses still get theirs.
func TestInvitationUnsubscribeSuppressesTheAddress(t *testing.T) {
	m := newMailed(t)
	svc := m.replica(t)
	m.b.publish(invitedEvent(t, "gus@example.com", "tok1"))
	msgs := m.inbox(t, "gus@example.com", 1)
	header := unsubscribeHeader(t, m, msgs[0].ID)
	if r := oneClick(t, svc.base, header); r.Status != 200 || string(r.Body) != `{"invitations":true}` {
		t.Fatalf("one-click: %d %s", r.Status, r.Body)
	}
	m.b.publish(invitedEvent(t, "Gus@Example.com", "tok2"))
	m.b.publish(invitedEvent(t, "hal@example.com", "tok3"))
	m.inbox(t, "hal@example.com", 1)
	m.b.consumerSettledNamed(service.EmailConsumerName, 10*time.Second)
	m.stays(t, "gus@example.com", 1)
}

// The promise, by email: the owner wants every email, the family claims, marks bought,
// releases and is told of removals, and the digests go out. The family's arrive; the owner's
// inbox stays empty until the draw, which proves it works.
func TestNoEmailCausedByAClaimReachesTheOwner(t *testing.T) {
	m := newMailed(t)
	svc := m.replica(t)
	kid, aunt, uncle := user(t, "kid"), user(t, "aunt"), user(t, "uncle")
	var all []map[string]any
	for _, k := range []string{"secretsanta.drawn", "family.member_joined", "claim.removed", "list.changed"} {
		all = append(all, map[string]any{"kind": k, "channel": "email", "enabled": true})
	}
	setPrefs(t, svc.base, kid.UID, map[string]any{"preferences": all})
	listID, itemID := uuid.NewString(), uuid.NewString()
	claim := map[string]any{"claimerId": aunt.UID, "itemId": itemID, "itemName": "Red bicycle", "listId": listID,
		"listName": "My Wishlist", "ownerId": kid.UID, "ownerName": "Kid", "quantity": 1, "purchased": false}
	m.publish(t, events.TypeItemClaimed, aunt.UID, claim)
	m.publish(t, events.TypeListChanged, aunt.UID, map[string]any{"listId": listID, "viewers": []string{aunt.UID, uncle.UID}, "cause": "item.claimed"})
	claim["purchased"] = true
	m.publish(t, events.TypeItemClaimed, aunt.UID, claim)
	released := map[string]any{}
	for k, v := range claim {
		released[k] = v
	}
	released["claimerId"], released["reason"] = uncle.UID, "released"
	m.publish(t, events.TypeItemUnclaimed, uncle.UID, released)
	m.publish(t, events.TypeListChanged, uncle.UID, map[string]any{"listId": listID, "viewers": []string{aunt.UID}, "cause": "item.unclaimed"})
	claim["reason"] = "removed"
	m.publish(t, events.TypeItemUnclaimed, aunt.UID, claim)
	m.settled()
	m.clock.Advance(2 * time.Hour)
	msgs := m.inbox(t, aunt.Email, 1)
	body, err := m.mailpit.Message(msgs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body.Text, "Red bicycle was removed from Kid's list") || !strings.Contains(body.Text, "changed (2 times)") {
		t.Fatalf("aunt's digest:\n%s", body.Text)
	}
	m.inbox(t, uncle.Email, 1)
	m.stays(t, kid.Email, 0)
	m.publish(t, events.TypeSecretSantaDrawn, "admin", drawn(kid.UID, aunt.UID))
	m.inbox(t, kid.Email, 1)
}

// The settings routes: defaults, a change, and refusals that name what is known.
func TestPreferenceRoutes(t *testing.T) {
	m := newMailed(t)
	svc := m.replica(t)
	c := as(t, svc.base, "ivy", streamOpts{})
	var s struct {
		Language    string
		Preferences []struct {
			Kind, Channel   string
			Enabled, Digest bool
		}
	}
	c.Do("GET", "/api/notifications/preferences", nil).Decode(t, &s)
	if s.Language != "en" || len(s.Preferences) != 22 {
		t.Fatalf("defaults: %+v", s)
	}
	find := func(kind, channel string) (bool, bool) {
		for _, p := range s.Preferences {
			if p.Kind == kind && p.Channel == channel {
				return p.Enabled, p.Digest
			}
		}
		t.Fatalf("no %s/%s in %+v", kind, channel, s)
		return false, false
	}
	if on, digest := find("list.changed", "email"); !on || !digest {
		t.Fatal("list changes are emailed in the digest by default")
	}
	if on, digest := find("reminder.draw_soon", "email"); !on || digest {
		t.Fatal("the draw reminder is emailed at once by default")
	}
	if on, _ := find("family.member_joined", "email"); on {
		t.Fatal("who joined is not emailed by default")
	}
	r := c.Do("PUT", "/api/notifications/preferences", bytes.NewReader(mustJSON(t, map[string]any{"language": "fr",
		"preferences": []map[string]any{{"kind": "list.changed", "channel": "push", "enabled": false}}})))
	r.Decode(t, &s)
	if on, _ := find("list.changed", "push"); r.Status != 200 || on || s.Language != "fr" {
		t.Fatalf("after the change: %d %+v", r.Status, s)
	}
	c.Do("GET", "/api/notifications/preferences", nil).Decode(t, &s)
	if on, _ := find("list.changed", "push"); on || s.Language != "fr" {
		t.Fatalf("read back: %+v", s)
	}
	var other struct{ Language string }
	as(t, svc.base, "jon", streamOpts{}).Do("GET", "/api/notifications/preferences", nil).Decode(t, &other)
	if other.Language != "en" {
		t.Fatal("another user's settings changed")
	}
	for body, want := range map[string]string{
		`{"preferences":[{"kind":"claim.made","channel":"email","enabled":true}]}`: `Unknown notification kind \"claim.made\"`,
		`{"preferences":[{"kind":"list.changed","channel":"sms","enabled":true}]}`: `Unknown notification channel \"sms\"`,
		`{"language":"xx"}`: `Unknown language \"xx\"`,
	} {
		r := c.Do("PUT", "/api/notifications/preferences", strings.NewReader(body))
		if r.Status != 422 || !strings.Contains(string(r.Body), want) {
			t.Fatalf("%s: %d %s", body, r.Status, r.Body)
		}
	}
	if r := as(t, svc.base, "", streamOpts{}).Do("GET", "/api/notifications/preferences", nil); r.Status != 401 {
		t.Fatalf("signed out: %d", r.Status)
	}
}

// A reminder is emailed at once (not held for the digest), under its own kind: turning that
// kind's email off stops the next one, while the push preference is left alone.
func TestARemindersEmailFollowsItsKind(t *testing.T) {
	m := newMailed(t)
	svc := m.replica(t)
	carl := user(t, "carl")
	reveal := time.Now().UTC().Add(7 * 24 * time.Hour)
	m.publish(t, events.TypeReminderShopping, carl.UID, map[string]any{"revealAt": reveal, "daysLeft": 7, "notPurchased": 2})
	m.settled()
	msgs := m.inbox(t, carl.Email, 1)
	body, err := m.mailpit.Message(msgs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	// The push's words: how many days, and how many gifts are not bought yet.
	if msgs[0].Subject != "Christmas in 7 days" || !strings.Contains(body.Text, "2 gifts on your shopping list are not marked purchased") {
		t.Fatalf("subject %q:\n%s", msgs[0].Subject, body.Text)
	}
	setPrefs(t, svc.base, carl.UID, map[string]any{"preferences": []map[string]any{
		{"kind": "reminder.shopping", "channel": "email", "enabled": false}}})
	m.publish(t, events.TypeReminderShopping, carl.UID, map[string]any{"revealAt": reveal.Add(24 * time.Hour), "daysLeft": 7, "notPurchased": 1})
	m.settled()
	m.clock.Advance(2 * time.Hour) // past any digest window too
	m.stays(t, carl.Email, 1)
}
