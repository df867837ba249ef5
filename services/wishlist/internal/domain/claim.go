package domain

import (
	"errors"
	"strings"

	"github.com/santa-wishlist/santa/pkg/mediaurl"
)

// Claim refusals.
var (
	ErrShareNotFound = errors.New("this shared list does not exist or its link was revoked")
	ErrNotEnoughLeft = errors.New("not enough of this gift is left to claim")
	ErrOwnList       = errors.New("this is your own list: you cannot claim your own gifts")
)

// ClaimRequest is the body of PUT /api/shared/{token}/items/{itemId}/claim.
type ClaimRequest struct {
	Quantity  *int  `json:"quantity"`
	Purchased *bool `json:"purchased"`
}

// Validate returns the units asked for (1 when the body leaves it out) and the purchased mark.
func (r ClaimRequest) Validate() (int, bool, error) {
	q := 1
	if r.Quantity != nil {
		q = *r.Quantity
	}
	if q < 1 || q > MaxQuantity {
		return 0, false, FieldError("quantity", MsgQuantity)
	}
	return q, r.Purchased != nil && *r.Purchased, nil
}

// ClaimResult is the claim's answer: units claimed by anyone, by the caller, and the mark.
type ClaimResult struct {
	Claimed   int  `json:"claimed"`
	Mine      int  `json:"mine"`
	Purchased bool `json:"purchased"`
}

// CheckClaimer is the own-list rule: a list's owner never claims on it (they would learn what
// is claimed, and spoil their own surprise).
func CheckClaimer(ownerUID, claimerUID string) error {
	if ownerUID == claimerUID {
		return ErrOwnList
	}
	return nil
}

// Claim decides a claim of want units (and the purchased mark) on an item of quantity units
// of which claimed are held this season by anyone, mine of them by the claimer: the claim's
// answer once saved, or ErrNotEnoughLeft when the others leave fewer than want.
func Claim(quantity, claimed, mine, want int, purchased bool) (ClaimResult, error) {
	others := claimed - mine
	if want > quantity-others {
		return ClaimResult{}, ErrNotEnoughLeft
	}
	return ClaimResult{Claimed: others + want, Mine: want, Purchased: purchased}, nil
}

// ClaimsToDrop answers which claims to release, newest first, when an item's quantity is
// lowered below what is claimed: held lists this season's claims newest first, and the
// answer their indexes.
func ClaimsToDrop(quantity int, held []int) []int {
	total := 0
	for _, q := range held {
		total += q
	}
	var drop []int
	for i, q := range held {
		if total <= quantity {
			break
		}
		total -= q
		drop = append(drop, i)
	}
	return drop
}

// Who reads a shared list, and so what they see of its claims.
const (
	// ViewerAnonymous: whoever opens the link signed out (the owner in a private window
	// included) sees the items alone.
	ViewerAnonymous = "anonymous"
	// ViewerOwner sees the items alone: their revealed claims are on their own list.
	ViewerOwner = "owner"
	// ViewerMember, signed in, sees this season's units claimed and their own.
	ViewerMember = "member"
)

// ViewerOf is who viewerUID (empty: signed out) is on ownerUID's shared list.
func ViewerOf(ownerUID, viewerUID string) string {
	switch viewerUID {
	case "":
		return ViewerAnonymous
	case ownerUID:
		return ViewerOwner
	}
	return ViewerMember
}

// ClaimLink is the link a claimer's shopping list gives for a claim made through viaToken:
// that link while the list it was made on still has it (current), else none, so an item the
// owner moved elsewhere or a rotated link never hands over another list's link.
func ClaimLink(viaToken, current *string) *string {
	if viaToken == nil || current == nil || *viaToken != *current {
		return nil
	}
	return viaToken
}

// ClaimPhoto is the photo a claimer's shopping list shows: a stored photo (/media/…) only
// while the claim's link works; the claimer keeps the claim, not a way to the photo.
func ClaimPhoto(imageURL, link *string) *string {
	if link == nil && imageURL != nil && strings.HasPrefix(*imageURL, mediaurl.Prefix) {
		return nil
	}
	return imageURL
}
