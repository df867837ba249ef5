package domain

import (
	"encoding/json"
	"errors"
	"strings"
	"time"
	"unicode/utf8"
)

// Giving together, budgets and thanks (docs/family.md: giving together, and thanks afterwards).

// Refusals of group gifts and thanks.
var (
	ErrGroupGiftExists     = errors.New("this gift already has a group gift: join it instead")
	ErrGroupGiftNotFound   = errors.New("this gift has no group gift")
	ErrGroupGiftHasPledges = errors.New("others have pledged to this group gift: it cannot be cancelled")
	ErrNotOrganizer        = errors.New("only the giver who started this group gift can cancel it")
	ErrNothingRevealed     = errors.New("there is nothing to thank for on this gift yet")
	ErrAlreadyThanked      = errors.New("you have already thanked everyone who gave this gift")
	ErrRecipientThanks     = errors.New("the person the list is for says thank you themselves")
)

// Messages of the giving fields.
const (
	MsgTarget     = "This gift's price cannot be read as an amount: please say how much the group gift is for"
	MsgThanks     = "A thank-you message is 1 to 500 characters"
	MaxThanks     = 500
	MaxBudgetKey  = 80
	MsgBudgetName = "Please give the person's name (1 to 60 characters)"
	MaxBudgetName = 60
)

// GroupGiftRequest is the body of POST /api/shared/{token}/items/{itemId}/group-gift. The
// amounts stay raw until the gift's currency is known (the price's, or the request's).
type GroupGiftRequest struct {
	Target   json.RawMessage `json:"target"`
	Currency *string         `json:"currency"`
	Amount   json.RawMessage `json:"amount"`
}

// PledgeRequest is the body of PUT /api/shared/{token}/items/{itemId}/pledge.
type PledgeRequest struct {
	Amount json.RawMessage `json:"amount"`
}

// GroupGiftPlan is a group gift about to start: its target and currency, and the organizer's
// own first pledge (0: none).
type GroupGiftPlan struct {
	Target   int64
	Currency string
	Pledge   int64
}

// PlanGroupGift decides a new group gift on an item whose price text is price, of which free
// units are not yet claimed. The currency is the request's, else the price's; the target is
// the request's, else the price times the free units.
func PlanGroupGift(req GroupGiftRequest, price *string, free int) (GroupGiftPlan, error) {
	var priceMinor int64
	var priceCur string
	priceRead := false
	if price != nil {
		priceMinor, priceCur, priceRead = ReadPrice(*price)
	}
	cur := priceCur
	if req.Currency != nil && strings.TrimSpace(*req.Currency) != "" {
		cur = strings.ToUpper(strings.TrimSpace(*req.Currency))
		if !ValidCurrency(cur) {
			return GroupGiftPlan{}, FieldError("currency", MsgCurrency)
		}
	}
	hasTarget := len(req.Target) > 0 && string(req.Target) != "null"
	if cur == "" {
		if !hasTarget && !priceRead {
			return GroupGiftPlan{}, FieldError("target", MsgTarget)
		}
		return GroupGiftPlan{}, FieldError("currency", MsgCurrency)
	}
	plan := GroupGiftPlan{Currency: cur}
	switch {
	case hasTarget:
		t, err := ParseAmount(req.Target, cur, "target")
		if err != nil {
			return GroupGiftPlan{}, err
		}
		plan.Target = t
	case priceRead && (priceCur == "" || priceCur == cur) && priceMinor*int64(free) <= MaxMinor:
		plan.Target = priceMinor * int64(free)
	default:
		return GroupGiftPlan{}, FieldError("target", MsgTarget)
	}
	if len(req.Amount) > 0 && string(req.Amount) != "null" {
		a, err := ParseAmount(req.Amount, cur, "amount")
		if err != nil {
			return GroupGiftPlan{}, err
		}
		plan.Pledge = a
	}
	return plan, nil
}

// GroupGift is a group gift as a giver sees it in the shared view and its own answers.
type GroupGift struct {
	Organizer     Person   `json:"organizer"`
	OrganizerIsMe bool     `json:"organizerIsMe"`
	Target        string   `json:"target"`
	Currency      string   `json:"currency"`
	Pledged       string   `json:"pledged"`
	Remaining     string   `json:"remaining"`
	Complete      bool     `json:"complete"`
	Pledges       []Pledge `json:"pledges"`
}

// Person is someone as others see them.
type Person struct {
	DisplayName string `json:"displayName"`
}

// Pledge is one giver's pledge as the givers see it.
type Pledge struct {
	DisplayName string `json:"displayName"`
	Amount      string `json:"amount"`
	Mine        bool   `json:"mine"`
}

// PledgeTotals decides a group gift after a change: what is pledged, whether it is complete now,
// and whether this change completed it.
func PledgeTotals(target, pledged int64, wasComplete bool) (complete, completedNow bool) {
	complete = pledged >= target
	return complete, complete && !wasComplete
}

// ThanksRequest is the body of POST /api/wishlist/{itemId}/thanks.
type ThanksRequest struct {
	Message *string `json:"message"`
}

// Validate reads the thank-you message.
func (r ThanksRequest) Validate() (string, error) {
	m := strings.TrimSpace(deref(r.Message))
	if n := utf8.RuneCountInString(m); n < 1 || n > MaxThanks || strings.ContainsRune(m, 0) {
		return "", FieldError("message", MsgThanks)
	}
	return m, nil
}

// Thanks is the answer to a thank-you.
type Thanks struct {
	Message string    `json:"message"`
	At      time.Time `json:"at"`
	Thanked int       `json:"thanked"`
}

// BudgetRequest is the body of PUT /api/budgets/{key}.
type BudgetRequest struct {
	Amount      json.RawMessage `json:"amount"`
	Currency    *string         `json:"currency"`
	DisplayName *string         `json:"displayName"`
}

// Budget is a validated budget.
type Budget struct {
	Key, DisplayName string
	Money
}

// Validate reads a budget for the person key names ("u:<uid>" or "l:<listId>").
func (r BudgetRequest) Validate(key string) (Budget, error) {
	if !ValidBudgetKey(key) {
		return Budget{}, ErrNotFound
	}
	cur := strings.ToUpper(strings.TrimSpace(deref(r.Currency)))
	if !ValidCurrency(cur) {
		return Budget{}, FieldError("currency", MsgCurrency)
	}
	amount, err := ParseAmount(r.Amount, cur, "amount")
	if err != nil {
		return Budget{}, err
	}
	name := strings.TrimSpace(deref(r.DisplayName))
	if n := utf8.RuneCountInString(name); n < 1 || n > MaxBudgetName {
		return Budget{}, FieldError("displayName", MsgBudgetName)
	}
	return Budget{Key: key, DisplayName: name, Money: Money{Minor: amount, Currency: cur}}, nil
}

// ValidBudgetKey says whether key names a person as budgets do.
func ValidBudgetKey(key string) bool {
	if len(key) < 3 || len(key) > MaxBudgetKey {
		return false
	}
	switch key[:2] {
	case "u:":
		return !strings.ContainsAny(key[2:], "/ \x00")
	case "l:":
		return IsUUID(key[2:])
	}
	return false
}

// Season is the Christmas a reveal date belongs to: 26 December 2026 and 6 January 2027 are both
// the 2026 season.
func Season(revealAt time.Time) int {
	return revealAt.UTC().AddDate(0, -3, 0).Year()
}

// BudgetRecipient is a person a giver gives to: "u:<uid>" for someone with an account,
// "l:<listId>" for a list kept for someone without one.
type BudgetRecipient struct {
	Key         string `json:"key"`
	DisplayName string `json:"displayName"`
}

// BudgetView is one person on the giver's budget page: their budget, and what the giver has
// claimed and pledged for them this season, per currency (amounts in different currencies are
// never added up: the product has no exchange rates).
type BudgetView struct {
	Recipient BudgetRecipient `json:"recipient"`
	Budget    *Amount         `json:"budget"`
	Totals    []Amount        `json:"totals"`
	// Unpriced counts the claims whose price could not be read as an amount with a currency.
	Unpriced int `json:"unpriced"`
}
