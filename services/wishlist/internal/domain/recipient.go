package domain

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// Who a list is for (docs/family.md: lists for someone else).
const (
	// RecipientSelf: the owner's own wishes (every list before lists for someone else).
	RecipientSelf = "self"
	// RecipientPerson: someone without an account (a child, a pet, a grandparent without a phone).
	RecipientPerson = "person"
	// RecipientMember: a person with an account who shares a family with the managers.
	RecipientMember = "member"
)

// A caller's role on a list: what they may do there and what they are shown.
const (
	// RoleOwner keeps their own list (recipient self) and is its recipient.
	RoleOwner = "owner"
	// RoleManager keeps a list for someone else and is one of its givers.
	RoleManager = "manager"
	// RoleRecipient is the member a list is for: they see it as an owner sees their own list.
	RoleRecipient = "recipient"
)

// Limits and messages of lists for someone else.
const (
	MaxRecipientName = 40
	// MaxCoManagers is how many managers a list has besides its creator.
	MaxCoManagers     = 4
	MaxManagers       = MaxCoManagers + 1
	MaxSuggestions    = 50
	MsgRecipient      = `Please say who the list is for: {"kind": "self"}, {"kind": "person", "name": "…"} or {"kind": "member", "uid": "…"}.`
	MsgRecipientName  = "The name of the person the list is for must be 1 to 40 characters."
	MsgRecipientUID   = "You can only make a list for someone who shares a family with you."
	MsgHandOver       = "Only a list for a person without an account can be handed over, to a member who shares a family with you."
	MsgRecipientFixed = "Who a list is for can only change by handing a list for a person over to their account."
)

// Refusals of lists for someone else.
var (
	ErrLastManager           = errors.New("the last manager cannot leave a list; add another manager first, or delete the list")
	ErrTooManyManagers       = errors.New("a list has at most 4 co-managers")
	ErrRecipientCannotManage = errors.New("the person a list is for cannot keep it: they would see what is claimed")
	ErrSelfListManagers      = errors.New("this is your own list: it has no co-managers")
	ErrManagersOnly          = errors.New("only the list's managers can change this")
	ErrTooManySuggestions    = errors.New("this list has 50 suggestions already")
)

// Recipient is who a list is for, as every list answer shows it.
type Recipient struct {
	Kind        string `json:"kind"`
	Name        string `json:"name,omitempty"`
	UID         string `json:"uid,omitempty"`
	DisplayName string `json:"displayName,omitempty"`
}

// RecipientDraft is `recipient` in POST /api/lists and PATCH /api/lists/{id}.
type RecipientDraft struct {
	Kind *string `json:"kind"`
	Name *string `json:"name"`
	UID  *string `json:"uid"`
}

// Validate reads a recipient: its kind, a person's name, a member's uid (whether the member
// shares a family with the caller is the store's to check).
func (d *RecipientDraft) Validate(callerUID string) (Recipient, error) {
	if d == nil {
		return Recipient{Kind: RecipientSelf}, nil
	}
	switch strings.TrimSpace(deref(d.Kind)) {
	case RecipientSelf:
		return Recipient{Kind: RecipientSelf}, nil
	case RecipientPerson:
		name := strings.TrimSpace(deref(d.Name))
		if n := utf8.RuneCountInString(name); n < 1 || n > MaxRecipientName || strings.ContainsRune(name, 0) {
			return Recipient{}, FieldError("recipient", MsgRecipientName)
		}
		return Recipient{Kind: RecipientPerson, Name: name}, nil
	case RecipientMember:
		uid := strings.TrimSpace(deref(d.UID))
		if uid == "" || len(uid) > 128 {
			return Recipient{}, FieldError("recipient", MsgRecipientUID)
		}
		if uid == callerUID { // they would keep their own list and see its claims
			return Recipient{}, ErrRecipientCannotManage
		}
		return Recipient{Kind: RecipientMember, UID: uid}, nil
	}
	return Recipient{}, FieldError("recipient", MsgRecipient)
}

// DefaultListNameFor names a list for someone else whose name was left out.
func DefaultListNameFor(recipientName string) string {
	name := recipientName + "'s wishlist"
	if utf8.RuneCountInString(name) > MaxListName {
		name = string([]rune(name)[:MaxListName])
	}
	return name
}

// Access is a caller's role on a list, and the account that holds what is asked about (the
// list's, or for an item the item's: a suggestion belongs to its suggester).
type Access struct {
	ListID, Holder, Role string
	Recipient            Recipient
}

// Manager is one of the people who keep a list for someone else.
type Manager struct {
	UID         string `json:"uid"`
	DisplayName string `json:"displayName"`
}

// CanAddManager says whether a list for recipient with managers may take uid as a manager.
func CanAddManager(r Recipient, managers []Manager, uid string) error {
	switch {
	case r.Kind == RecipientSelf:
		return ErrSelfListManagers
	case r.Kind == RecipientMember && r.UID == uid:
		return ErrRecipientCannotManage
	}
	for _, m := range managers {
		if m.UID == uid {
			return nil // already one: adding again changes nothing
		}
	}
	if len(managers) >= MaxManagers {
		return ErrTooManyManagers
	}
	return nil
}

// CanRemoveManager says whether uid may leave the managers: never the last one.
func CanRemoveManager(managers []Manager, uid string) error {
	found := false
	for _, m := range managers {
		found = found || m.UID == uid
	}
	if !found {
		return ErrListNotFound
	}
	if len(managers) == 1 {
		return ErrLastManager
	}
	return nil
}

// Keeps says whether role may change a list's settings (name, sharing, reveal date,
// managers, deleting it): its owner or a manager, never the member it is for.
func Keeps(role string) error {
	if role == RoleOwner || role == RoleManager {
		return nil
	}
	return ErrManagersOnly
}

// SeesClaims says whether role is a giver on the list: a manager sees who claimed what; the
// owner and the member recipient see only revealed claims.
func SeesClaims(role string) bool { return role == RoleManager }

// CanHandOver says whether a list for r may be handed to the member uid.
func CanHandOver(r Recipient, uid string) error {
	if r.Kind != RecipientPerson || uid == "" {
		return FieldError("recipient", MsgHandOver)
	}
	return nil
}

// SuggestionDraft fills in what a suggestion may leave out: a description (the item rules
// ask for ten characters; a relative's idea is often a name alone).
func SuggestionDraft(d Draft) Draft {
	d.ListID, d.ImageURL, d.Category, d.AIGenerated, d.SentToSanta = nil, nil, nil, nil, nil
	if strings.TrimSpace(deref(d.Description)) == "" {
		desc := "Gift idea: " + strings.TrimSpace(deref(d.Name))
		d.Description = &desc
	}
	return d
}
