package service_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/events"
)

// A message from a giftee's Secret Santa reaches the giftee's live stream, stored notices and
// phone as "your Secret Santa", and nothing any of them carries names the Santa (the event
// here even carries the Santa's uid and name beyond its schema, as a buggy producer might);
// nobody else hears of it, and a redelivered event adds nothing. (The email's words, in every
// language, are domain's TestSecretSantaMessageNoticesNeverNameTheSanta; the email path is
// the same as every digest kind's.)
func TestASecretSantaMessageReachesTheGifteeWithoutItsSanta(t *testing.T) {
	p := startPushed(t)
	type person struct{ UID, Email string }
	giftee := person{"giftee-" + uuid.NewString()[:8], ""}
	santa := person{"santa-" + uuid.NewString()[:8], "uncle.bob@example.com"}
	phone := p.device(t, giftee.UID)
	santaPhone := p.device(t, santa.UID)
	live := openStream(t, p.svc.base, giftee.UID, streamOpts{})
	santaLive := openStream(t, p.svc.base, santa.UID, streamOpts{})
	live.hello(t, 0)
	santaLive.hello(t, 0)
	familyID := uuid.NewString()
	env := p.publish(t, events.TypeSecretSantaMessage, giftee.UID, map[string]any{"familyId": familyID, "familyName": "The Smiths",
		"messageId": uuid.NewString(), "with": "santa", "santaUid": santa.UID, "displayName": "Santa " + santa.Email})
	leaks := func(where, s string) {
		t.Helper()
		if strings.Contains(s, santa.UID) || strings.Contains(s, santa.Email) || strings.Contains(s, "uncle") {
			t.Fatalf("%s names the Santa: %s", where, s)
		}
	}
	e := live.next(t)
	d := e.decode(t)
	if e.Event != "secret-santa-message" || d["message"] != "Your Secret Santa sent you a message" || d["familyId"] != familyID ||
		d["with"] != "santa" || len(d) != 4 {
		t.Fatalf("the giftee's live notice: %+v", e)
	}
	raw, _ := json.Marshal(listNotices(t, p.svc.base, giftee.UID))
	leaks("the giftee's notices", string(raw))

	p.settled()
	got, _ := p.ps.inbox(phone)
	if len(got) != 1 || got[0].Message["title"] != "Your Secret Santa sent you a message" || got[0].Message["body"] != "The Smiths" {
		t.Fatalf("the giftee's phone: %+v", got)
	}
	raw, _ = json.Marshal(got)
	leaks("the push", string(raw))

	// A redelivery adds nothing anywhere.
	env.OccurredAt = env.OccurredAt.Add(time.Millisecond)
	p.b.publishRaw(events.TypeSecretSantaMessage, mustJSON(t, env))
	p.settled()
	santaLive.nothing(t, 300*time.Millisecond)
	live.nothing(t, 100*time.Millisecond)
	if got, _ := p.ps.inbox(phone); len(got) != 1 {
		t.Fatalf("the giftee's phone after a redelivery: %+v", got)
	}
	if _, posts := p.ps.inbox(santaPhone); posts != 0 {
		t.Fatalf("the Santa's phone was pushed %d times", posts)
	}
	if n := listNotices(t, p.svc.base, giftee.UID); len(n) != 1 {
		t.Fatalf("the giftee has %d notices, want 1", len(n))
	}
	if n := listNotices(t, p.svc.base, santa.UID); len(n) != 0 {
		t.Fatalf("the Santa has notices: %+v", n)
	}
}
