package app

import (
	"errors"

	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// Kind says what went wrong in terms a port can answer; the HTTP port maps kinds to status
// codes, so no port needs to know a domain or adapter error type.
type Kind int

// The kinds of failure.
const (
	KindUnavailable Kind = iota // something we depend on failed: try again
	KindInvalid                 // the input breaks a rule; Fields say which
	KindNotFound                // does not exist, or is someone else's (the same on purpose)
	KindConflict                // the rules refuse it in the current state
	KindForbidden               // the caller may never do this
	KindTooLarge                // an image over the media service's limit
	KindUnsupported             // an image of a type the media service refuses
)

// Error is an application failure: its kind, a stable code and the words a person reads.
type Error struct {
	Kind    Kind
	Code    string
	Message string
	Fields  map[string]string
	Err     error
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// ErrNotYourImage: the image URL names an upload of someone else's (media says so); the item
// is refused as with any invalid image URL, so nobody can get addresses signed for it.
var ErrNotYourImage = errors.New("image is not the caller's upload")

// ErrImagesUnavailable means an inline image arrived but no media service is configured.
var ErrImagesUnavailable = errors.New("photos cannot be stored right now")

// ErrBadEvent is an event whose data can never be applied (no family id or member).
var ErrBadEvent = errors.New("event data lacks a family id or a member")

// ErrorOf classifies any error the application returns.
func ErrorOf(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var invalid *domain.ValidationError
	if errors.As(err, &invalid) {
		return &Error{Kind: KindInvalid, Code: "validation_failed", Message: invalid.Error(), Fields: invalid.Fields, Err: err}
	}
	for _, k := range []struct {
		err  error
		kind Kind
		code string
	}{
		{domain.ErrNotFound, KindNotFound, "not_found"},
		{domain.ErrListNotFound, KindNotFound, "not_found"},
		{domain.ErrShareNotFound, KindNotFound, "share_not_found"},
		{domain.ErrWishlistFull, KindConflict, "wishlist_full"},
		{domain.ErrTooManyLists, KindConflict, "too_many_lists"},
		{domain.ErrDefaultList, KindConflict, "default_list"},
		{domain.ErrNotEnoughLeft, KindConflict, "not_enough_left"},
		{domain.ErrOwnList, KindForbidden, "own_list"},
		{ErrImagesUnavailable, KindUnavailable, "media_unavailable"},
	} {
		if errors.Is(err, k.err) {
			return &Error{Kind: k.kind, Code: k.code, Message: k.err.Error(), Err: err}
		}
	}
	return &Error{Kind: KindUnavailable, Code: "unavailable", Message: "please try again shortly", Err: err}
}
