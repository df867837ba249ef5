package domain

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// List rules.
const (
	DefaultListName = "My Wishlist"
	MaxListsPerUser = 20
	MaxListName     = 60
	MsgListName     = "List name must be 1 to 60 characters."
	MsgRevealAt     = "Please give the reveal date as a date and time, such as 2026-12-26T00:00:00Z."
	MsgRevealFuture = "The reveal date must be in the future."
	// MaxFamilyIDs is the most families a user belongs to.
	MaxFamilyIDs = 10
	MsgFamilyIDs = "familyIds must be a list of family ids, at most 10."
	// MsgNotYourFamily is the one answer for a family that does not exist, that the caller
	// is not in, or that they left: nobody learns which families exist.
	MsgNotYourFamily = "You can only share a list with a family you belong to."
)

// List is one of a user's wishlists.
type List struct {
	ID        string    `json:"id"`
	UserID    string    `json:"-"`
	Name      string    `json:"name"`
	IsDefault bool      `json:"isDefault"`
	ItemCount int       `json:"itemCount"`
	RevealAt  time.Time `json:"revealAt"`
	Share     *Share    `json:"share"`
	FamilyIDs []string  `json:"familyIds"`
	OwnerName string    `json:"-"`
	// Recipient is who the list is for; Role what the caller is on it; Managers who keep a
	// list for someone else (none for the owner's own list).
	Recipient Recipient `json:"recipient"`
	Role      string    `json:"role"`
	Managers  []Manager `json:"managers"`
}

// Share is a list's link. Token is the secret; URL the web page that opens it.
type Share struct {
	Token string `json:"token"`
	URL   string `json:"url"`
}

// ShareURL is the web page of a share token.
func ShareURL(token string) string { return "/l/" + token }

// ListDraft is POST /api/lists and PATCH /api/lists/{id}.
type ListDraft struct {
	Name     *string `json:"name"`
	RevealAt *string `json:"revealAt"` // RFC 3339, read by Reveal
	// FamilyIDs absent leaves the sharing as it is; [] stops sharing with every family.
	FamilyIDs *[]string `json:"familyIds"`
	// Recipient on POST says who a new list is for (absent: the caller); on PATCH it hands a
	// list for a person over to that person's account.
	Recipient *RecipientDraft `json:"recipient"`
}

// Families reads the families the draft shares the list with (nil: unchanged), without
// duplicates, in the order given.
func (d ListDraft) Families() ([]string, error) {
	if d.FamilyIDs == nil {
		return nil, nil
	}
	ids := []string{}
	seen := map[string]bool{}
	for _, id := range *d.FamilyIDs {
		id = strings.ToLower(strings.TrimSpace(id))
		if !IsUUID(id) {
			return nil, FieldError("familyIds", MsgFamilyIDs)
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if len(ids) > MaxFamilyIDs {
		return nil, FieldError("familyIds", MsgFamilyIDs)
	}
	return ids, nil
}

// ErrNotYourFamily refuses sharing a list with a family the owner does not belong to.
var ErrNotYourFamily = FieldError("familyIds", MsgNotYourFamily)

// Reveal reads the reveal date, if the draft has one. It must lie in the future: a date in
// the past would only serve to reveal claims early (each claim keeps the date in force when
// it was made, so it would not even do that).
func (d ListDraft) Reveal(now time.Time) (*time.Time, error) {
	if d.RevealAt == nil {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(*d.RevealAt))
	if err != nil {
		return nil, FieldError("revealAt", MsgRevealAt)
	}
	if !t.After(now) {
		return nil, FieldError("revealAt", MsgRevealFuture)
	}
	t = t.UTC()
	return &t, nil
}

// ErrTooManyLists, ErrDefaultList and ErrListNotFound are the list rules' refusals.
var (
	ErrTooManyLists = fmt.Errorf("you have %d lists already; delete one to make another", MaxListsPerUser)
	ErrDefaultList  = errors.New("your default list cannot be deleted")
	ErrListNotFound = errors.New("list not found")
)

// RoomForList says whether a user who has n lists (the default one included) may make one
// more; asked under the user's lock, like RoomForItem.
func RoomForList(n int) error {
	if n >= MaxListsPerUser {
		return ErrTooManyLists
	}
	return nil
}

// Deletable says whether a list may be deleted: every list but the default one, where items
// saved without a list go.
func Deletable(isDefault bool) error {
	if isDefault {
		return ErrDefaultList
	}
	return nil
}

// ValidName trims and checks a list name.
func ValidName(name *string) (string, error) {
	n := strings.TrimSpace(deref(name))
	if c := utf8.RuneCountInString(n); c < 1 || c > MaxListName || strings.ContainsRune(n, 0) {
		return "", FieldError("name", MsgListName)
	}
	return n, nil
}

// DefaultRevealAt is 26 December (UTC) of the coming Christmas: this year's until Boxing Day
// begins, then next year's.
func DefaultRevealAt(now time.Time) time.Time {
	now = now.UTC()
	day := time.Date(now.Year(), 12, 26, 0, 0, 0, 0, time.UTC)
	if !now.Before(day) {
		day = day.AddDate(1, 0, 0)
	}
	return day
}
