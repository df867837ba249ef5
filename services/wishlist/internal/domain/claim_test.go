package domain

import (
	"errors"
	"reflect"
	"testing"
)

func TestClaim(t *testing.T) {
	for _, tc := range []struct {
		name                          string
		quantity, claimed, mine, want int
		purchased                     bool
		res                           ClaimResult
		err                           error
	}{
		{"the first unit", 1, 0, 0, 1, false, ClaimResult{Claimed: 1, Mine: 1}, nil},
		{"the last unit is taken", 1, 1, 0, 1, false, ClaimResult{}, ErrNotEnoughLeft},
		{"raising one's own claim to all that is left", 3, 2, 1, 2, true, ClaimResult{Claimed: 3, Mine: 2, Purchased: true}, nil},
		{"raising past what is left", 3, 2, 1, 3, false, ClaimResult{}, ErrNotEnoughLeft},
		{"lowering one's own claim", 2, 2, 2, 1, false, ClaimResult{Claimed: 1, Mine: 1}, nil},
		{"others hold some, the rest is claimed", 5, 3, 0, 2, false, ClaimResult{Claimed: 5, Mine: 2}, nil},
		{"marking purchased without changing units", 2, 1, 1, 1, true, ClaimResult{Claimed: 1, Mine: 1, Purchased: true}, nil},
	} {
		res, err := Claim(tc.quantity, tc.claimed, tc.mine, tc.want, tc.purchased)
		if res != tc.res || !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
			t.Errorf("%s: got %+v, %v; want %+v, %v", tc.name, res, err, tc.res, tc.err)
		}
	}
}

func TestOwnListAndViewers(t *testing.T) {
	if err := CheckClaimer("ann", "ann"); err != ErrOwnList {
		t.Errorf("the owner claiming on their own list: %v", err)
	}
	if err := CheckClaimer("ann", "bob"); err != nil {
		t.Errorf("someone else claiming: %v", err)
	}
	for _, tc := range []struct{ owner, viewer, want string }{
		{"ann", "", ViewerAnonymous},
		{"ann", "ann", ViewerOwner},
		{"ann", "bob", ViewerMember},
	} {
		if got := ViewerOf(tc.owner, tc.viewer); got != tc.want {
			t.Errorf("ViewerOf(%q, %q) = %q, want %q", tc.owner, tc.viewer, got, tc.want)
		}
	}
}

func TestClaimLinkAndPhoto(t *testing.T) {
	p := func(s string) *string { return &s }
	for _, tc := range []struct {
		name         string
		via, current *string
		image        *string
		link, photo  *string
	}{
		{"the same link", p("tok"), p("tok"), p("/media/a.jpg"), p("tok"), p("/media/a.jpg")},
		{"the link was rotated", p("tok"), p("new"), p("/media/a.jpg"), nil, nil},
		{"the link was revoked", p("tok"), nil, p("/media/a.jpg"), nil, nil},
		{"the list is gone", p("tok"), nil, p("https://shop.example/a.jpg"), nil, p("https://shop.example/a.jpg")},
		{"a claim from before links were kept", nil, p("tok"), nil, nil, nil},
	} {
		link := ClaimLink(tc.via, tc.current)
		photo := ClaimPhoto(tc.image, link)
		if !reflect.DeepEqual(link, tc.link) || !reflect.DeepEqual(photo, tc.photo) {
			t.Errorf("%s: link %v, photo %v", tc.name, link, photo)
		}
	}
}

func TestClaimsToDropReleasesTheNewestUntilTheClaimsFit(t *testing.T) {
	for _, tc := range []struct {
		quantity int
		held     []int // newest first
		want     []int
	}{
		{3, []int{1, 1, 1}, nil},
		{2, []int{1, 1, 1}, []int{0}},
		{1, []int{2, 1}, []int{0}},
		{1, []int{1, 2}, []int{0, 1}},
		{5, nil, nil},
	} {
		if got := ClaimsToDrop(tc.quantity, tc.held); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("quantity %d, held %v: dropped %v, want %v", tc.quantity, tc.held, got, tc.want)
		}
	}
}
