package domain_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

func TestLanguageKeepsTheSupportedBase(t *testing.T) {
	for in, want := range map[string]string{"de": "de", "de-AT": "de", "FR_ca": "fr", "es": "es", "": "en", "pt-BR": "en", "english": "en"} {
		if got := domain.Language(in); got != want {
			t.Errorf("Language(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReminderNoticesAndTheirPushesInEachLanguage(t *testing.T) {
	draw, _ := events.NewEnvelope(events.TypeReminderDrawSoon, "ann", events.DrawSoonData{FamilyID: uuid.NewString(), FamilyName: "Smiths", DrawOn: "2026-12-01", DaysLeft: 1})
	notices, err := domain.NoticesFromEvent(draw)
	if err != nil || len(notices) != 1 || notices[0].UserID != "ann" || notices[0].EventID != draw.ID {
		t.Fatalf("notices %+v, %v", notices, err)
	}
	for lang, want := range map[string]string{"en": "Secret Santa draw tomorrow", "de": "Wichteln: morgen wird gezogen",
		"fr": "Tirage du Père Noël secret demain", "es": "Sorteo del amigo invisible mañana", "it": "Secret Santa draw tomorrow"} {
		p, ok := domain.PushOf(notices[0], lang)
		if !ok || p.Message.Title != want || p.Message.Body == "" {
			t.Errorf("%s: %+v", lang, p.Message)
		}
	}
	exchange, _ := events.NewEnvelope(events.TypeReminderExchangeSoon, "dan", events.ExchangeSoonData{FamilyID: uuid.NewString(), FamilyName: "Smiths",
		ExchangeOn: "2026-12-24", Place: "Grandma's", DaysLeft: 0})
	notices, err = domain.NoticesFromEvent(exchange)
	if err != nil || len(notices) != 1 || notices[0].UserID != "dan" || notices[0].Event != domain.EventReminderExchangeSoon {
		t.Fatalf("exchange notices %+v, %v", notices, err)
	}
	for lang, want := range map[string][2]string{"en": {"Secret Santa exchange today", "Smiths: presents are swapped at Grandma's."},
		"de": {"Wichteln: heute ist Bescherung", "Smiths: Die Geschenke werden hier getauscht: Grandma's."},
		"fr": {"Échange du Père Noël secret aujourd'hui", "Smiths : les cadeaux sont échangés à Grandma's."},
		"es": {"Intercambio del amigo invisible hoy", "Smiths: los regalos se intercambian en Grandma's."}} {
		p, ok := domain.PushOf(notices[0], lang)
		if !ok || p.Message.Title != want[0] || p.Message.Body != want[1] {
			t.Errorf("exchange %s: %+v", lang, p.Message)
		}
	}
	if kind, ok := domain.KindOf(notices[0]); !ok || kind != domain.KindReminderExchangeSoon {
		t.Fatalf("exchange kind %q", kind)
	}
	shop, _ := events.NewEnvelope(events.TypeReminderShopping, "carl", events.ShoppingData{RevealAt: time.Now(), DaysLeft: 7, NotPurchased: 1})
	notices, _ = domain.NoticesFromEvent(shop)
	var d domain.ReminderData
	_ = json.Unmarshal(notices[0].Data, &d)
	if d.Title != "Christmas in 7 days" || d.Message != "1 gift on your shopping list is not marked purchased" || d.ListID != "" {
		t.Fatalf("shopping notice %s", notices[0].Data)
	}
	// A reminder without what it is about cannot become a notice: it is poison, not retried.
	bad, _ := events.NewEnvelope(events.TypeReminderListEmpty, "ema", map[string]any{"daysLeft": 3})
	if _, err := domain.NoticesFromEvent(bad); err == nil {
		t.Fatal("a list_empty reminder without a list made a notice")
	}
}
