package domain_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

const (
	givingItemID = "5b0f6c1e-2d4b-4f8e-9a43-1f5b1b0e6b21"
	givingListID = "5b0f6c1e-2d4b-4f8e-9a43-1f5b1b0e6b22"
)

func givingEvent(t *testing.T, typ, uid, data string) events.Envelope {
	t.Helper()
	env, err := events.NewEnvelope(typ, uid, json.RawMessage(data))
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// A thank-you reaches each giver once (a giver named twice, for a claim and a pledge, gets one),
// and never the one who thanked; it carries the item, who thanked and the message, and
// nothing else the event might carry. Its push and email say it in every language, the
// message as written (escaped in the HTML), a long one shortened on the lock screen only.
func TestAThankYouReachesEachGiverInTheirLanguage(t *testing.T) {
	env := givingEvent(t, events.TypeItemThanked, "grandpa", `{"itemId":"`+givingItemID+`","itemName":"Red scarf","recipientName":"Grandpa",
		"message":"Thank you, it is <b>warm</b>!","givers":["aunt","uncle","aunt"],"at":"2026-12-26T10:00:00Z","recipientUid":"grandpa"}`)
	ns, err := domain.NoticesFromEvent(env)
	if err != nil || len(ns) != 2 || ns[0].UserID != "aunt" || ns[1].UserID != "uncle" || ns[0].EventID == ns[1].EventID {
		t.Fatalf("notices %+v, %v", ns, err)
	}
	n := ns[0]
	if n.Event != domain.EventThankYou || !n.OccurredAt.Equal(env.OccurredAt) ||
		string(n.Data) != `{"itemId":"`+givingItemID+`","itemName":"Red scarf","recipientName":"Grandpa","message":"Thank you, it is \u003cb\u003ewarm\u003c/b\u003e!"}` {
		t.Fatalf("notice %+v %s", n, n.Data)
	}
	if kind, ok := domain.KindOf(n); !ok || kind != domain.KindThankYou {
		t.Fatalf("kind %q", kind)
	}
	again, _ := domain.NoticesFromEvent(env)
	if again[0].EventID != n.EventID {
		t.Fatal("a redelivered event would make a second notice")
	}

	titles := map[string]bool{}
	for _, lang := range domain.Languages {
		p, ok := domain.PushOf(n, lang)
		if !ok || p.Message.Body != "Thank you, it is <b>warm</b>!" || p.Message.URL != "/gifts/given" || p.Message.Kind != "thank-you" ||
			!strings.Contains(p.Message.Title, "Grandpa") || !strings.Contains(p.Message.Title, "Red scarf") || p.Topic == "" || len(p.Topic) > 32 {
			t.Fatalf("%s push %+v", lang, p)
		}
		titles[p.Message.Title] = true
		mail, ok, err := domain.NoticeEmail(domain.NoticeMail{To: "aunt@example.com", Language: lang, PublicURL: "https://santa.test",
			UnsubscribeURL: "https://santa.test/api/unsubscribe/x", Notices: []domain.Notice{n}, Digest: true})
		if err != nil || !ok || !strings.Contains(mail.Text, "Grandpa") || !strings.Contains(mail.Text, "Red scarf") ||
			!strings.Contains(mail.Text, "Thank you, it is <b>warm</b>!") || !strings.Contains(mail.Text, "https://santa.test/gifts/given") {
			t.Fatalf("%s email %+v %v", lang, mail, err)
		}
		if strings.Contains(mail.HTML, "<b>warm") || !strings.Contains(mail.HTML, "&lt;b&gt;warm") {
			t.Fatalf("%s email's HTML does not escape the message:\n%s", lang, mail.HTML)
		}
	}
	if len(titles) != len(domain.Languages) {
		t.Fatalf("push titles %v: one per language expected", titles)
	}
	if p, _ := domain.PushOf(n, "en"); p.Message.Title != "Grandpa thanked you for Red scarf" {
		t.Fatalf("English push %+v", p)
	}
	mail, _, _ := domain.NoticeEmail(domain.NoticeMail{To: "aunt@example.com", Language: "de", PublicURL: "https://santa.test",
		UnsubscribeURL: "https://santa.test/api/unsubscribe/x", Notices: []domain.Notice{n}})
	if mail.Subject != "Grandpa bedankt sich für Red scarf" || !strings.Contains(mail.Text, "Grandpa bedankt sich für Red scarf: „Thank you, it is <b>warm</b>!“") {
		t.Fatalf("a German email of the thank-you alone: %q\n%s", mail.Subject, mail.Text)
	}

	// 500 characters fit in the notice and the email; the push carries the start of them.
	long := strings.Repeat("é", 500)
	env = givingEvent(t, events.TypeItemThanked, "grandpa", `{"itemId":"`+givingItemID+`","itemName":"Red scarf","recipientName":"Grandpa",
		"message":"`+long+`","givers":["aunt"],"at":"2026-12-26T10:00:00Z"}`)
	ns, _ = domain.NoticesFromEvent(env)
	if !strings.Contains(string(ns[0].Data), long) {
		t.Fatal("the notice shortened the message")
	}
	p, _ := domain.PushOf(ns[0], "fr")
	if n := utf8.RuneCountInString(p.Message.Body); n > 240 || n < 200 || !strings.HasSuffix(p.Message.Body, "…") || !utf8.ValidString(p.Message.Body) {
		t.Fatalf("the long push body (%d characters): %q", n, p.Message.Body)
	}

	// The one who thanked hears of it only as a giver (a manager who also gave).
	env = givingEvent(t, events.TypeItemThanked, "mum", `{"itemId":"`+givingItemID+`","itemName":"Kite","recipientName":"Tim","message":"Thanks!",
		"givers":["mum","dad"],"at":"2026-12-26T10:00:00Z"}`)
	if ns, _ := domain.NoticesFromEvent(env); len(ns) != 2 || ns[0].UserID != "mum" || ns[1].UserID != "dad" {
		t.Fatalf("a manager who gave too: %+v", ns)
	}

	for _, data := range []string{`{"itemName":"Kite","message":"Thanks!","givers":["dad"]}`, `{"itemId":"` + givingItemID + `","message":"","givers":["dad"]}`,
		`{"itemId":"` + givingItemID + `","message":"Thanks!","givers":[]}`, `[]`} {
		env.Data = json.RawMessage(data)
		if _, err := domain.NoticesFromEvent(env); !errors.Is(err, domain.ErrMalformed) {
			t.Fatalf("%s: %v", data, err)
		}
	}
}

func pledgeData(action string, completedNow bool, pledgers string) string {
	return `{"itemId":"` + givingItemID + `","itemName":"Bike","listId":"` + givingListID + `","listName":"Tim's list","ownerName":"Tim",
		"action":"` + action + `","amount":"40.00","currency":"EUR","target":"120.00","pledged":"120.00","complete":true,
		"completedNow":` + map[bool]string{true: "true", false: "false"}[completedNow] + `,"pledgers":` + pledgers + `}`
}

// Only the pledge that completes a group gift makes notices, one to each pledger, saying which
// item for whom and nothing of the amounts; every other change of a group gift (started,
// pledged, withdrawn, cancelled, even of a complete one) makes none.
func TestOnlyTheCompletingPledgeTellsThePledgers(t *testing.T) {
	for _, action := range events.PledgeActions {
		if action == events.PledgeRemoved {
			continue // TestARemovedItemTellsEachPledger
		}
		env := givingEvent(t, events.TypeItemPledged, "aunt", pledgeData(action, false, `["aunt","uncle"]`))
		if ns, err := domain.NoticesFromEvent(env); err != nil || len(ns) != 0 {
			t.Fatalf("%s: %+v, %v", action, ns, err)
		}
	}
	env := givingEvent(t, events.TypeItemPledged, "uncle", pledgeData("pledged", true, `["aunt","uncle","cousin"]`))
	ns, err := domain.NoticesFromEvent(env)
	if err != nil || len(ns) != 3 || ns[0].UserID != "aunt" || ns[1].UserID != "uncle" || ns[2].UserID != "cousin" {
		t.Fatalf("notices %+v, %v", ns, err)
	}
	n := ns[0]
	if n.Event != domain.EventGroupGiftComplete ||
		string(n.Data) != `{"itemId":"`+givingItemID+`","itemName":"Bike","listId":"`+givingListID+`","listName":"Tim's list","ownerName":"Tim"}` {
		t.Fatalf("notice %+v %s", n, n.Data)
	}
	if kind, ok := domain.KindOf(n); !ok || kind != domain.KindGroupGiftComplete {
		t.Fatalf("kind %q", kind)
	}
	bodies := map[string]bool{}
	for _, lang := range domain.Languages {
		p, ok := domain.PushOf(n, lang)
		if !ok || !strings.Contains(p.Message.Body, "Bike") || !strings.Contains(p.Message.Body, "Tim") || p.Message.URL != "/claims" ||
			p.Message.Kind != "group-gift-complete" || p.Message.Title == "" || strings.Contains(p.Message.Title+p.Message.Body, "120") {
			t.Fatalf("%s push %+v", lang, p)
		}
		bodies[p.Message.Body] = true
		mail, ok, err := domain.NoticeEmail(domain.NoticeMail{To: "aunt@example.com", Language: lang, PublicURL: "https://santa.test",
			UnsubscribeURL: "https://santa.test/api/unsubscribe/x", Notices: []domain.Notice{n}, Digest: true})
		if err != nil || !ok || !strings.Contains(mail.Text, p.Message.Body) || !strings.Contains(mail.Text, "https://santa.test/claims") {
			t.Fatalf("%s email %+v %v", lang, mail, err)
		}
	}
	if len(bodies) != len(domain.Languages) {
		t.Fatalf("push bodies %v: one per language expected", bodies)
	}
	if p, _ := domain.PushOf(n, "en"); p.Message.Title != "A group gift is complete" || p.Message.Body != "Bike for Tim: the pledges reached the target." {
		t.Fatalf("English push %+v", p)
	}

	for _, data := range []string{`{"itemName":"Bike","completedNow":true,"pledgers":["aunt"]}`, `[]`} {
		env.Data = json.RawMessage(data)
		if _, err := domain.NoticesFromEvent(env); !errors.Is(err, domain.ErrMalformed) {
			t.Fatalf("%s: %v", data, err)
		}
	}
}

// Both kinds are the user's to turn off; thanks are emailed by default, a complete group gift
// only pushed (the shopping list shows it), and both emails wait for the digest.
func TestGivingKindsDefaults(t *testing.T) {
	s := domain.SettingsOf("en", nil)
	want := map[string]bool{"gift.thank_you/push": true, "gift.thank_you/email": true, "groupgift.complete/push": true, "groupgift.complete/email": false}
	for _, p := range s.Preferences {
		key := p.Kind + "/" + p.Channel
		if on, ok := want[key]; ok {
			if p.Enabled != on || p.Digest != (p.Channel == "email") {
				t.Errorf("%s: %+v", key, p)
			}
			delete(want, key)
		}
	}
	if len(want) != 0 || len(s.Preferences) != 22 {
		t.Fatalf("missing %v; %d preferences", want, len(s.Preferences))
	}
}

// A pledge that ended because the owner removed the item tells its pledger (the event's own
// user, nobody else) as a removed claim does, in every language and by email.
func TestARemovedItemTellsEachPledger(t *testing.T) {
	env := givingEvent(t, events.TypeItemPledged, "aunt", pledgeData(events.PledgeRemoved, false, `[]`))
	ns, err := domain.NoticesFromEvent(env)
	if err != nil || len(ns) != 1 || ns[0].UserID != "aunt" || ns[0].Event != domain.EventClaimRemoved {
		t.Fatalf("notices %+v, %v", ns, err)
	}
	var data domain.ClaimRemovedData
	if err := json.Unmarshal(ns[0].Data, &data); err != nil || data.Message != "Bike was removed from Tim's list" || data.ItemID != givingItemID {
		t.Fatalf("data %s (%v)", ns[0].Data, err)
	}
	if strings.Contains(string(ns[0].Data), "40.00") {
		t.Fatalf("the notice tells the amount: %s", ns[0].Data)
	}
	if kind, ok := domain.KindOf(ns[0]); !ok || kind != domain.KindClaimRemoved {
		t.Fatalf("kind %q", kind)
	}
	// Said as a pledge, not as a claim, in every language.
	together := map[string]string{"en": "together", "de": "gemeinsam", "fr": "avec d'autres", "es": "junto con otros"}
	for _, lang := range domain.Languages {
		p, ok := domain.PushOf(ns[0], lang)
		if all := p.Message.Title + " " + p.Message.Body; !ok || !strings.Contains(all, "Bike") || !strings.Contains(all, "Tim") ||
			!strings.Contains(all, together[lang]) {
			t.Fatalf("%s push %+v", lang, p)
		}
		mail, ok, err := domain.NoticeEmail(domain.NoticeMail{To: "aunt@example.com", Language: lang, PublicURL: "https://santa.test",
			UnsubscribeURL: "https://santa.test/api/unsubscribe/x", Notices: ns, Digest: true})
		if err != nil || !ok || !strings.Contains(mail.Text, "Bike") || !strings.Contains(mail.Text, together[lang]) {
			t.Fatalf("%s mail %q (%v)", lang, mail.Text, err)
		}
	}
}
