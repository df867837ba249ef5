package app

import (
	"errors"

	"github.com/santa-wishlist/santa/pkg/apperror"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// ErrImagesUnavailable means an inline image arrived but no media service is configured.
var ErrImagesUnavailable = errors.New("photos cannot be stored right now")

// ErrBadEvent is an event whose data can never be applied (no family id or member).
var ErrBadEvent = errors.New("event data lacks a family id or a member")

// ErrorOf classifies any error the application returns.
func ErrorOf(err error) *apperror.Error {
	var invalid *domain.ValidationError
	if errors.As(err, &invalid) {
		return &apperror.Error{Kind: apperror.KindInvalid, Code: "validation_failed", Message: invalid.Error(), Fields: invalid.Fields, Err: err}
	}
	return apperror.Classify(err, sentinels)
}

// sentinels are the rules' errors with their kinds and codes.
var sentinels = []apperror.Sentinel{
	{Err: domain.ErrNotFound, Kind: apperror.KindNotFound, Code: "not_found"},
	{Err: domain.ErrListNotFound, Kind: apperror.KindNotFound, Code: "not_found"},
	{Err: domain.ErrShareNotFound, Kind: apperror.KindNotFound, Code: "share_not_found"},
	{Err: domain.ErrWishlistFull, Kind: apperror.KindConflict, Code: "wishlist_full"},
	{Err: domain.ErrTooManyLists, Kind: apperror.KindConflict, Code: "too_many_lists"},
	{Err: domain.ErrDefaultList, Kind: apperror.KindConflict, Code: "default_list"},
	{Err: domain.ErrNotEnoughLeft, Kind: apperror.KindConflict, Code: "not_enough_left"},
	{Err: domain.ErrOwnList, Kind: apperror.KindForbidden, Code: "own_list"},
	{Err: domain.ErrLastManager, Kind: apperror.KindConflict, Code: "last_manager"},
	{Err: domain.ErrTooManyManagers, Kind: apperror.KindConflict, Code: "too_many_managers"},
	{Err: domain.ErrRecipientCannotManage, Kind: apperror.KindConflict, Code: "recipient_cannot_manage"},
	{Err: domain.ErrSelfListManagers, Kind: apperror.KindConflict, Code: "own_list"},
	{Err: domain.ErrManagersOnly, Kind: apperror.KindForbidden, Code: "managers_only"},
	{Err: domain.ErrTooManySuggestions, Kind: apperror.KindConflict, Code: "too_many_suggestions"},
	{Err: domain.ErrGroupGiftExists, Kind: apperror.KindConflict, Code: "group_gift_exists"},
	{Err: domain.ErrGroupGiftNotFound, Kind: apperror.KindNotFound, Code: "group_gift_not_found"},
	{Err: domain.ErrGroupGiftHasPledges, Kind: apperror.KindConflict, Code: "group_gift_has_pledges"},
	{Err: domain.ErrNotOrganizer, Kind: apperror.KindForbidden, Code: "not_organizer"},
	{Err: domain.ErrNothingRevealed, Kind: apperror.KindConflict, Code: "nothing_revealed"},
	{Err: domain.ErrAlreadyThanked, Kind: apperror.KindConflict, Code: "already_thanked"},
	{Err: domain.ErrRecipientThanks, Kind: apperror.KindForbidden, Code: "recipient_thanks"},
	// Not logged as a failure: no media service is configured, which the operator chose.
	{Err: ErrImagesUnavailable, Kind: apperror.KindUnavailable, Code: "media_unavailable",
		Message: ErrImagesUnavailable.Error() + ". Please try again shortly"},
}
