package domain

import (
	"slices"
	"testing"
)

// Every notice that is pushed or emailed has a kind the user can turn off: a notice event
// without one would reach people who said no (the reminders' notice events are named
// "reminder-draw-soon", their kinds "reminder.draw_soon").
func TestEveryPushedNoticeHasAKindTheUserControls(t *testing.T) {
	for _, event := range []string{EventSecretSanta, EventFamilyMemberJoined, EventClaimRemoved, EventSharedListChanged,
		EventReminderDrawSoon, EventReminderShopping, EventReminderListEmpty, EventSecretSantaMessage, EventThankYou, EventGroupGiftComplete} {
		kind, ok := KindOf(Notice{Event: event})
		if !ok || !slices.Contains(KindNames(), kind) {
			t.Errorf("notice %q: kind %q, %v; want one of %v", event, kind, ok, KindNames())
		}
	}
	want := map[string]string{EventReminderDrawSoon: KindReminderDrawSoon, EventReminderShopping: KindReminderShopping,
		EventReminderListEmpty: KindReminderListEmpty}
	for event, kind := range want {
		if got, _ := KindOf(Notice{Event: event}); got != kind {
			t.Errorf("notice %q is kind %q, want %q", event, got, kind)
		}
	}
	if _, ok := KindOf(Notice{Event: EventWishlistCount}); ok {
		t.Error("the wishlist count is a live update, not a notice anyone is pushed or emailed")
	}
}
