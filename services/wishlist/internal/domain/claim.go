package domain

import "errors"

// Claim refusals (FAMILY.md "Claiming a gift").
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
