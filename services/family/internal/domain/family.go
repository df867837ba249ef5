package domain

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/mail"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// Roles in a family.
const (
	RoleAdmin  = "admin"
	RoleMember = "member"
)

// The family limits.
const (
	MaxMembers         = 50
	MaxFamiliesPerUser = 10
	MaxNameRunes       = 60
	MaxBudgetRunes     = 40
	InviteTTL          = 7 * 24 * time.Hour
	// inviteTokenBytes is 192 random bits: the contract asks for at least 128.
	inviteTokenBytes = 24
)

// Errors the rules answer with; app maps each to a code and a status.
var (
	ErrNotFound        = errors.New("family not found")
	ErrMemberNotFound  = errors.New("member not found")
	ErrInviteNotFound  = errors.New("this invitation does not exist or has expired")
	ErrNotAdmin        = errors.New("only an admin of the family can do this")
	ErrLastAdmin       = errors.New("the last admin cannot leave while others remain: make someone else an admin first")
	ErrFamilyFull      = errors.New("the family already has 50 members")
	ErrTooManyFamilies = errors.New("you can be in up to 10 families")
	ErrNoDraw          = errors.New("there is no Secret Santa draw in this family yet")
	// ErrInviteForSomeoneElse: an email invitation is personal.
	ErrInviteForSomeoneElse = errors.New("this invitation was sent to another email address: sign in with that address to accept it")
)

// Family is one family as a member sees it.
type Family struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Role    string   `json:"role"`
	Members []Member `json:"-"`
}

// Invite is a link that lets anyone who has it join, until it expires.
type Invite struct {
	Token     string    `json:"token"`
	URL       string    `json:"url"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// FieldError is input that breaks a rule, with the field it concerns.
type FieldError struct{ Field, Message string }

func (e *FieldError) Error() string { return e.Message }

// CleanName checks a family's name: 1 to 60 characters once trimmed.
func CleanName(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return "", &FieldError{"name", "Please give the family a name."}
	case n > MaxNameRunes:
		return "", &FieldError{"name", fmt.Sprintf("A family's name can be at most %d characters.", MaxNameRunes)}
	}
	return name, nil
}

// CleanEmail checks an invitation's address and returns it bare ("ann@example.com").
func CleanEmail(email string) (string, error) {
	addr, err := mail.ParseAddress(strings.TrimSpace(email))
	if err != nil || addr.Name != "" || !strings.Contains(addr.Address, ".") {
		return "", &FieldError{"email", "Please enter a valid email address."}
	}
	return addr.Address, nil
}

// languageTag is a BCP 47 language tag as browsers write them: "de", "fr-CA", "zh-Hant-TW".
var languageTag = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$`)

// CleanLanguage checks an invitation's optional language, the inviter's app language in which
// the invitation email is written ("de", "fr-CA"); notification picks the nearest of its
// languages. Empty is none.
func CleanLanguage(tag string) (string, error) {
	tag = strings.TrimSpace(tag)
	if tag != "" && !languageTag.MatchString(tag) {
		return "", &FieldError{"language", "The language must be a language tag such as de or fr-CA."}
	}
	return tag, nil
}

// PreferredLanguage is the first language of an Accept-Language header ("fr-CA,fr;q=0.9" is
// fr-CA), or "" when it names none.
func PreferredLanguage(acceptLanguage string) string {
	first, _, _ := strings.Cut(acceptLanguage, ",")
	first, _, _ = strings.Cut(first, ";")
	tag, err := CleanLanguage(first)
	if err != nil {
		return ""
	}
	return tag
}

// CleanBudget checks a draw's optional budget, free text such as "€30" or "about $25".
func CleanBudget(budget string) (string, error) {
	budget = strings.TrimSpace(budget)
	if utf8.RuneCountInString(budget) > MaxBudgetRunes {
		return "", &FieldError{"budget", fmt.Sprintf("The budget can be at most %d characters.", MaxBudgetRunes)}
	}
	return budget, nil
}

// NewInvite makes a fresh invitation link from random (crypto/rand.Reader in production).
func NewInvite(random io.Reader, now time.Time) (Invite, error) {
	b := make([]byte, inviteTokenBytes)
	if _, err := io.ReadFull(random, b); err != nil {
		return Invite{}, fmt.Errorf("invite token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	return Invite{Token: token, URL: InviteURL(token), ExpiresAt: now.Add(InviteTTL).UTC().Truncate(time.Second)}, nil
}

// InviteURL is the web page that accepts an invitation.
func InviteURL(token string) string { return "/join/" + token }

// TokenHash is what the database keeps of an invitation token, so a copy of the database
// holds no working links.
func TokenHash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// InviteID is an invitation's handle for the admins' list: the URL-safe base64 of the stored
// hash, which names the invitation without being a working link.
func InviteID(tokenHash []byte) string { return base64.RawURLEncoding.EncodeToString(tokenHash) }

// InviteHashes are the stored hashes an admin's reference to an invitation may mean: the hash
// of a token, or the hash an InviteID spells.
func InviteHashes(ref string) [][]byte {
	hashes := [][]byte{TokenHash(ref)}
	if b, err := base64.RawURLEncoding.DecodeString(ref); err == nil && len(b) == sha256.Size {
		hashes = append(hashes, b)
	}
	return hashes
}

// SameEmail says whether an account's email is the address an invitation was sent to. Both
// come from people (the admin typed one, the provider verified the other), so case and
// surrounding spaces do not count; an empty account email matches nothing.
func SameEmail(invited, account string) bool {
	account = strings.TrimSpace(account)
	return account != "" && strings.EqualFold(strings.TrimSpace(invited), account)
}

// Planned draw dates: how far ahead an admin may plan, and when the admins are
// reminded.
const (
	MaxDrawOnAhead = 366 * 24 * time.Hour
	DrawSoonDays   = 3
)

// DateError is a date that breaks a rule; unlike other field errors it is a 422, as a list's
// revealAt is.
type DateError struct{ Field, Message string }

func (e *DateError) Error() string { return e.Message }

// CleanDrawOn checks a planned draw date: a calendar day (YYYY-MM-DD), not before today (UTC)
// and at most a year ahead. Empty clears it (nil).
func CleanDrawOn(raw *string, now time.Time) (*time.Time, error) {
	if raw == nil || strings.TrimSpace(*raw) == "" {
		return nil, nil
	}
	day, err := time.Parse(time.DateOnly, strings.TrimSpace(*raw))
	if err != nil {
		return nil, &DateError{"drawOn", "The draw date must be a date like 2026-12-01."}
	}
	now = now.UTC()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	switch {
	case day.Before(today):
		return nil, &DateError{"drawOn", "The draw date cannot be in the past."}
	case day.Sub(today) > MaxDrawOnAhead:
		return nil, &DateError{"drawOn", "The draw date can be at most a year ahead."}
	}
	return &day, nil
}
