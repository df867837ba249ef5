package domain_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// Every kind is written in every language, placeholders filled, the names escaped in HTML, and
// the body's unsubscribe link is the app's page (which asks first), not the one-click address.
func TestNoticeEmailsInEveryLanguage(t *testing.T) {
	notice := func(event string, data any) domain.Notice {
		raw, _ := json.Marshal(data)
		return domain.Notice{EventID: "e-" + event, Event: event, Data: raw}
	}
	notices := []domain.Notice{
		notice(domain.EventSecretSanta, domain.SecretSantaData{FamilyID: "f1", FamilyName: "<Smiths>"}),
		notice(domain.EventFamilyMemberJoined, domain.MemberJoinedData{FamilyName: "<Smiths>", DisplayName: "Cleo"}),
		notice(domain.EventClaimRemoved, domain.ClaimRemovedData{ItemName: "Kite", OwnerName: "Kid"}),
		notice(domain.EventSharedListChanged, domain.SharedListData{ListID: "l1"}),
		notice(domain.EventReminderDrawSoon, map[string]string{"familyId": "f1", "familyName": "<Smiths>"}),
		notice(domain.EventReminderShopping, map[string]string{}),
		notice(domain.EventReminderListEmpty, map[string]string{}),
		notice(domain.EventWishlistCount, domain.CountData{Count: 1}), // never emailed
	}
	english := map[string]bool{}
	for _, lang := range domain.Languages {
		e, ok, err := domain.NoticeEmail(domain.NoticeMail{To: "a@example.com", Language: lang, PublicURL: "https://s.test",
			UnsubscribeURL: "https://s.test/api/unsubscribe/tok", Notices: notices, Digest: true})
		if err != nil || !ok {
			t.Fatalf("%s: %v %v", lang, ok, err)
		}
		lines := strings.Split(strings.TrimSpace(e.Text), "\n")
		if strings.Contains(e.Text, "{") || strings.Count(e.Text, "\n- ") != 7 || e.Unsubscribe != "https://s.test/api/unsubscribe/tok" ||
			!strings.Contains(e.Text, "https://s.test/unsubscribe/tok") || !strings.Contains(e.Text, "https://s.test/family/f1/secret-santa") {
			t.Fatalf("%s:\n%s", lang, e.Text)
		}
		if strings.Contains(e.HTML, "<Smiths>") || !strings.Contains(e.HTML, "&lt;Smiths&gt;") || !strings.Contains(e.HTML, `lang="`+lang+`"`) {
			t.Fatalf("%s html:\n%s", lang, e.HTML)
		}
		for _, l := range lines {
			if lang == "en" {
				english[l] = true
			} else if english[l] && strings.HasPrefix(l, "- ") {
				t.Errorf("%s: %q is the English text", lang, l)
			}
		}
	}
	single, ok, _ := domain.NoticeEmail(domain.NoticeMail{Language: "es", PublicURL: "https://s.test", Notices: notices[:1]})
	if !ok || single.Subject != "Tu amigo invisible ya está listo" {
		t.Fatalf("single: %+v", single)
	}
	if _, ok, _ := domain.NoticeEmail(domain.NoticeMail{Language: "en", Notices: notices[7:]}); ok {
		t.Fatal("a count notice made an email")
	}
}

func TestCheckPreferences(t *testing.T) {
	if err := domain.CheckPreferences([]domain.Preference{{Kind: domain.KindListChanged, Channel: domain.ChannelEmail}}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []domain.Preference{{Kind: "list.changd", Channel: "email"}, {Kind: domain.KindListChanged, Channel: "fax"}} {
		if err := domain.CheckPreferences([]domain.Preference{bad}); err == nil {
			t.Fatalf("%+v accepted", bad)
		}
	}
}
