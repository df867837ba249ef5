package domain

import "errors"

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

// Claimable decides a claim of want units on an item of quantity units of which claimed are
// held this season by anyone, mine of them by the claimer: it answers the units the others
// hold, or ErrNotEnoughLeft.
func Claimable(quantity, claimed, mine, want int) (others int, err error) {
	others = claimed - mine
	if want > quantity-others {
		return others, ErrNotEnoughLeft
	}
	return others, nil
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
