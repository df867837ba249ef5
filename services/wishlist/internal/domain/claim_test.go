package domain

import (
	"errors"
	"reflect"
	"testing"
)

func TestClaimable(t *testing.T) {
	for _, tc := range []struct {
		name                          string
		quantity, claimed, mine, want int
		others                        int
		err                           error
	}{
		{"the first unit", 1, 0, 0, 1, 0, nil},
		{"the last unit is taken", 1, 1, 0, 1, 1, ErrNotEnoughLeft},
		{"raising one's own claim to all that is left", 3, 2, 1, 2, 1, nil},
		{"raising past what is left", 3, 2, 1, 3, 1, ErrNotEnoughLeft},
		{"lowering one's own claim", 2, 2, 2, 1, 0, nil},
	} {
		others, err := Claimable(tc.quantity, tc.claimed, tc.mine, tc.want)
		if others != tc.others || !errors.Is(err, tc.err) {
			t.Errorf("%s: got %d, %v; want %d, %v", tc.name, others, err, tc.others, tc.err)
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
