package domain_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// A message from a giftee's Secret Santa becomes one notice to the giftee, and it, its push and
// its email in every language say "your Secret Santa" and the family, and nothing else: not
// the text, not who wrote it, even when the event carried more than its schema allows.
func TestSecretSantaMessageNoticesNeverNameTheSanta(t *testing.T) {
	// "santaUid" and "displayName" are not in the schema: a producer's mistake must not leak.
	env, err := events.NewEnvelope(events.TypeSecretSantaMessage, "giftee-uid", json.RawMessage(
		`{"familyId":"6f1c1a52-8c7e-4b8e-9a7a-1f1f7b0c9d01","familyName":"Smiths","messageId":"0b7c3a52-8c7e-4b8e-9a7a-1f1f7b0c9d02","with":"santa","santaUid":"uncle-bob","displayName":"Uncle Bob"}`))
	if err != nil {
		t.Fatal(err)
	}
	ns, err := domain.NoticesFromEvent(env)
	if err != nil || len(ns) != 1 {
		t.Fatalf("notices %+v, %v", ns, err)
	}
	n := ns[0]
	if n.UserID != "giftee-uid" || n.EventID != env.ID || n.Event != domain.EventSecretSantaMessage || !n.OccurredAt.Equal(env.OccurredAt) ||
		string(n.Data) != `{"message":"Your Secret Santa sent you a message","familyId":"6f1c1a52-8c7e-4b8e-9a7a-1f1f7b0c9d01","familyName":"Smiths","with":"santa"}` {
		t.Fatalf("notice %+v %s", n, n.Data)
	}
	if kind, ok := domain.KindOf(n); !ok || kind != domain.KindSecretSantaMessage {
		t.Fatalf("kind %q", kind)
	}
	leaks := func(where, s string) {
		t.Helper()
		for _, bad := range []string{"uncle", "Uncle", "Bob", "bob"} {
			if strings.Contains(s, bad) {
				t.Fatalf("%s names the Santa: %s", where, s)
			}
		}
	}
	titles := map[string]bool{}
	for _, lang := range domain.Languages {
		p, ok := domain.PushOf(n, lang)
		if !ok || p.Message.Body != "Smiths" || p.Message.URL != "/family/6f1c1a52-8c7e-4b8e-9a7a-1f1f7b0c9d01/secret-santa?messages=santa" || p.Message.Kind != "secret-santa-message" {
			t.Fatalf("%s push %+v", lang, p)
		}
		titles[p.Message.Title] = true
		raw, _ := json.Marshal(p)
		leaks(lang+" push", string(raw))
		mail, ok, err := domain.NoticeEmail(domain.NoticeMail{To: "g@example.com", Language: lang, PublicURL: "https://santa.test",
			UnsubscribeURL: "https://santa.test/api/unsubscribe/x", Notices: []domain.Notice{n}})
		if err != nil || !ok || !strings.Contains(mail.Text, "Smiths") || !strings.Contains(mail.Text, "https://santa.test/family/6f1c1a52-8c7e-4b8e-9a7a-1f1f7b0c9d01/secret-santa") {
			t.Fatalf("%s email %+v %v", lang, mail, err)
		}
		leaks(lang+" email", mail.Subject+mail.Text+mail.HTML)
		if lang == "en" && mail.Subject != "Your Secret Santa sent you a message" {
			t.Fatalf("subject %q", mail.Subject)
		}
	}
	if len(titles) != len(domain.Languages) {
		t.Fatalf("push titles %v: one per language expected", titles)
	}

	// The giftee's reply reaches the Santa as "your giftee".
	env, _ = events.NewEnvelope(events.TypeSecretSantaMessage, "santa-uid", json.RawMessage(
		`{"familyId":"6f1c1a52-8c7e-4b8e-9a7a-1f1f7b0c9d01","familyName":"Smiths","messageId":"0b7c3a52-8c7e-4b8e-9a7a-1f1f7b0c9d03","with":"giftee"}`))
	ns, err = domain.NoticesFromEvent(env)
	if err != nil || len(ns) != 1 || ns[0].UserID != "santa-uid" || !strings.Contains(string(ns[0].Data), `"message":"Your giftee sent you a message"`) {
		t.Fatalf("the reply's notices %+v, %v", ns, err)
	}
	if p, _ := domain.PushOf(ns[0], "de"); p.Message.Title != "Dein Wichtelkind hat dir geschrieben" {
		t.Fatalf("German push %+v", p)
	}

	for _, data := range []string{`{"familyName":"Smiths","with":"santa"}`, `{"familyId":"6f1c1a52-8c7e-4b8e-9a7a-1f1f7b0c9d01","with":"uncle"}`, `[]`} {
		env.Data = json.RawMessage(data)
		if _, err := domain.NoticesFromEvent(env); !errors.Is(err, domain.ErrMalformed) {
			t.Fatalf("%s: %v", data, err)
		}
	}
}
