package domain_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

func TestTheDefaultRevealDateIsTheComingBoxingDay(t *testing.T) {
	for _, c := range []struct{ now, want string }{
		{"2026-01-01T00:00:00Z", "2026-12-26T00:00:00Z"},
		{"2026-12-25T23:59:59Z", "2026-12-26T00:00:00Z"},
		{"2026-12-26T00:00:00Z", "2027-12-26T00:00:00Z"},
		{"2026-12-31T12:00:00Z", "2027-12-26T00:00:00Z"},
	} {
		now, _ := time.Parse(time.RFC3339, c.now)
		if got := domain.DefaultRevealAt(now).Format(time.RFC3339); got != c.want {
			t.Errorf("at %s: %s, want %s", c.now, got, c.want)
		}
	}
}

func TestAnEditKeepsWhatItDoesNotSend(t *testing.T) {
	price, cat := "$5", "Toys"
	saved := domain.Item{ID: "i", UserID: "u", Name: "Kite", Description: "A kite with a long tail", Price: &price,
		Category: &cat, Features: []string{"red"}, SearchQuery: "kite", ShoppingURL: domain.ShoppingURL("kite"),
		ListID: "00000000-0000-4000-8000-000000000001", Priority: 2, Quantity: 1, AIGenerated: true}
	notes, q := "the big one", 3
	got, err := domain.Draft{Notes: &notes, Quantity: &q}.Edit(saved)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "Kite" || *got.Price != "$5" || got.Notes != notes || got.Quantity != 3 || got.Priority != 2 ||
		got.ListID != saved.ListID || !got.AIGenerated || got.ID != "i" || got.UserID != "u" || len(got.Features) != 1 {
		t.Fatalf("edited: %+v", got)
	}
	var cleared domain.Draft
	if err := cleared.Price.UnmarshalJSON([]byte("null")); err != nil {
		t.Fatal(err)
	}
	if got, _ := cleared.Edit(saved); got.Price != nil {
		t.Fatalf("price null did not clear it: %v", *got.Price)
	}
	empty := ""
	if _, err := (domain.Draft{ListID: &empty}).Edit(saved); err == nil {
		t.Fatal("an empty listId was accepted")
	}
}

func TestFamilyIDsAreUUIDsWithoutDuplicatesAtMostTen(t *testing.T) {
	ids := func(s ...string) *[]string { return &s }
	a, b := "8c4e5d0e-7c39-4c1b-9a53-4e1f0f3b9a11", "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed"
	if got, err := (domain.ListDraft{}).Families(); got != nil || err != nil {
		t.Fatalf("absent: %v %v (want nil: unchanged)", got, err)
	}
	if got, err := (domain.ListDraft{FamilyIDs: ids()}).Families(); got == nil || len(got) != 0 || err != nil {
		t.Fatalf("[]: %v %v (want empty: shared with none)", got, err)
	}
	got, err := domain.ListDraft{FamilyIDs: ids(a, " "+b+" ", a, "8C4E5D0E-7C39-4C1B-9A53-4E1F0F3B9A11")}.Families()
	if err != nil || len(got) != 2 || got[0] != a || got[1] != b {
		t.Fatalf("duplicates: %v %v", got, err)
	}
	eleven := make([]string, 11)
	for i := range eleven {
		eleven[i] = fmt.Sprintf("8c4e5d0e-7c39-4c1b-9a53-4e1f0f3b9a%02d", i)
	}
	for _, bad := range [][]string{{"nope"}, {a, ""}, eleven} {
		if _, err := (domain.ListDraft{FamilyIDs: &bad}).Families(); err == nil || err.Error() != domain.MsgFamilyIDs {
			t.Errorf("%v: %v, want %q", bad, err, domain.MsgFamilyIDs)
		}
	}
}

func TestARevealDateMustLieInTheFuture(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in, msg string
	}{
		{"2000-01-01T00:00:00Z", domain.MsgRevealFuture},
		{"2026-11-25T12:00:00Z", domain.MsgRevealFuture}, // now is not the future
		{"2026-11-25T12:00:01Z", ""},
		{"2026-12-26T00:00:00+01:00", ""},
		{"tomorrow", domain.MsgRevealAt},
	} {
		in := tc.in
		at, err := domain.ListDraft{RevealAt: &in}.Reveal(now)
		msg := ""
		var fe *domain.ValidationError
		if errors.As(err, &fe) {
			msg = fe.Fields["revealAt"]
		} else if err != nil {
			msg = err.Error()
		}
		if msg != tc.msg {
			t.Errorf("%s: %q, want %q", tc.in, msg, tc.msg)
		}
		if tc.msg == "" && (at == nil || at.Location() != time.UTC) {
			t.Errorf("%s: %v, want the date in UTC", tc.in, at)
		}
	}
}

// The caps and the default list's protection, at their edges.
func TestCapsAndTheDefaultList(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  error
		want error
	}{
		{"an item below the cap", domain.RoomForItem(domain.MaxItemsPerUser - 1), nil},
		{"an item at the cap", domain.RoomForItem(domain.MaxItemsPerUser), domain.ErrWishlistFull},
		{"a list below the cap", domain.RoomForList(domain.MaxListsPerUser - 1), nil},
		{"a list at the cap", domain.RoomForList(domain.MaxListsPerUser), domain.ErrTooManyLists},
		{"another list", domain.Deletable(false), nil},
		{"the default list", domain.Deletable(true), domain.ErrDefaultList},
	} {
		if !errors.Is(tc.got, tc.want) || (tc.want == nil) != (tc.got == nil) {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}
