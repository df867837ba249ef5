package ports_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// The event names the service sends and the data each carries, by the spec's schema names.
// hello's data has no Go type: stream.go writes {"count":N} itself.
var liveEvents = map[string]string{
	domain.EventHello:                "HelloData",
	domain.EventWishlistCount:        "WishlistCountData",
	domain.EventSanta:                "SantaData",
	domain.EventSharedListChanged:    "SharedListChangedData",
	domain.EventClaimRemoved:         "ClaimRemovedData",
	domain.EventSecretSanta:          "SecretSantaNoticeData",
	domain.EventSecretSantaMessage:   "SecretSantaMessageNoticeData",
	domain.EventFamilyMemberJoined:   "FamilyMemberJoinedData",
	domain.EventReminderDrawSoon:     "ReminderNoticeData",
	domain.EventReminderShopping:     "ReminderNoticeData",
	domain.EventReminderListEmpty:    "ReminderNoticeData",
	domain.EventReminderExchangeSoon: "ReminderNoticeData",
	domain.EventThankYou:             "ThankYouNoticeData",
	domain.EventGroupGiftComplete:    "GroupGiftCompleteNoticeData",
}

// The live stream's names and data are api/openapi.yaml's LiveEvent, which the web app's types
// are generated from: a name, or a data field, added on one side alone fails here, without a
// running stack.
func TestLiveEventsAreTheSpecs(t *testing.T) {
	spec := testenv.TaggedUnion(t, "LiveEvent", "event", "data")
	// Every name of either side, once each.
	names := slices.Concat(slices.Collect(maps.Keys(spec)), slices.Collect(maps.Keys(liveEvents)))
	slices.Sort(names)
	for _, name := range slices.Compact(names) {
		if spec[name] != liveEvents[name] {
			t.Errorf("event %q: api/openapi.yaml's LiveEvent gives it data %q, the service sends %q (\"\" is none)", name, spec[name], liveEvents[name])
		}
	}
	for schema, data := range map[string]any{
		"WishlistCountData":            domain.CountData{},
		"SantaData":                    domain.SantaData{},
		"SharedListChangedData":        domain.SharedListData{},
		"ClaimRemovedData":             domain.ClaimRemovedData{},
		"SecretSantaNoticeData":        domain.SecretSantaData{},
		"SecretSantaMessageNoticeData": domain.SecretSantaMessageData{},
		"FamilyMemberJoinedData":       domain.MemberJoinedData{},
		"ReminderNoticeData":           domain.ReminderData{},
		"ThankYouNoticeData":           domain.ThankYouData{},
		"GroupGiftCompleteNoticeData":  domain.GroupGiftCompleteData{},
	} {
		testenv.SchemaFieldsMatch(t, schema, data)
	}
}

// A notice of every name, built from its product event as the service builds it, is what the
// spec's Notice allows in GET /api/notifications: each name picks exactly one LiveNotice
// variant, and its data matches that variant's schema (types and formats too).
func TestNoticesAreTheSpecs(t *testing.T) {
	user, other, family, list, item := "u1", "u2", uuid.NewString(), uuid.NewString(), uuid.NewString()
	reveal := time.Date(2026, 12, 26, 0, 0, 0, 0, time.UTC)
	made := []struct {
		typ  string
		data any
	}{
		{events.TypeItemCreated, events.ItemData{ID: item, Name: "Sled", WishlistCount: 3}},
		{events.TypeSantaSent, events.SantaSentData{ID: item, Name: "Sled"}},
		{events.TypeListChanged, events.ListChangedData{ListID: list, Viewers: []string{user}}},
		{events.TypeItemUnclaimed, events.ClaimData{ClaimerID: user, ItemID: item, ItemName: "Sled", ListID: list, OwnerName: "Tim",
			Reason: events.ClaimRemoved}},
		{events.TypeSecretSantaDrawn, events.SecretSantaDrawnData{FamilyID: family, FamilyName: "The Smiths", Participants: []string{user}}},
		{events.TypeSecretSantaMessage, events.SecretSantaMessageData{FamilyID: family, FamilyName: "The Smiths", With: "santa"}},
		{events.TypeFamilyMemberJoined, events.MemberJoinedData{FamilyID: family, FamilyName: "The Smiths", UID: other, DisplayName: "Cleo",
			Admins: []string{user}}},
		{events.TypeReminderDrawSoon, events.DrawSoonData{FamilyID: family, FamilyName: "The Smiths", DrawOn: "2026-12-01", DaysLeft: 2}},
		{events.TypeReminderShopping, events.ShoppingData{RevealAt: reveal, DaysLeft: 7, NotPurchased: 2}},
		{events.TypeReminderListEmpty, events.ListEmptyData{ListID: list, ListName: "Wishes", RevealAt: reveal, DaysLeft: 30}},
		{events.TypeReminderExchangeSoon, events.ExchangeSoonData{FamilyID: family, FamilyName: "The Smiths", ExchangeOn: "2026-12-24",
			Place: "Grandma's", DaysLeft: 1}},
		{events.TypeItemThanked, events.ThanksData{ItemID: item, ItemName: "Sled", RecipientName: "Tim", Message: "Thank you!",
			Givers: []string{user}}},
		{events.TypeItemPledged, events.PledgeData{ItemID: item, ItemName: "Bike", ListID: list, ListName: "Wishes", OwnerName: "Tim",
			CompletedNow: true, Pledgers: []string{user}}},
	}
	spec := testenv.OpenAPI(t)
	sent := map[string]bool{domain.EventHello: true} // hello is never a notice
	for i, m := range made {
		env, err := events.NewEnvelope(m.typ, user, m.data)
		if err != nil {
			t.Fatal(err)
		}
		notices, err := domain.NoticesFromEvent(env)
		if err != nil || len(notices) != 1 {
			t.Fatalf("%s: %d notices, %v", m.typ, len(notices), err)
		}
		n := notices[0]
		n.Seq = int64(i + 1)
		sent[n.Event] = true
		body, err := json.Marshal([]domain.Notice{n})
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest(http.MethodGet, "/api/notifications", nil)
		spec.CheckResponse(t, req, http.StatusOK, http.Header{"Content-Type": {"application/json"}}, body)
	}
	if missing := slices.DeleteFunc(slices.Sorted(maps.Keys(liveEvents)), func(name string) bool { return sent[name] }); len(missing) > 0 {
		t.Errorf("no notice of %v was checked", missing)
	}
}
