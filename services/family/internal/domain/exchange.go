package domain

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// The exchange: where and when the presents are swapped, set by an admin.
const (
	MaxPlaceRunes    = 120
	MaxExchangeAhead = 366 * 24 * time.Hour
	ExchangeSoonDays = 3
)

// CleanExchangeOn checks the exchange's date: a calendar day (YYYY-MM-DD), not before today
// (UTC), at most a year ahead. Empty clears it (nil).
func CleanExchangeOn(raw string, now time.Time) (*time.Time, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, nil
	}
	day, err := time.Parse(time.DateOnly, raw)
	if err != nil {
		return nil, &InputError{"exchangeOn", "The exchange date must be a date like 2026-12-24."}
	}
	today := Today(now)
	switch {
	case day.Before(today):
		return nil, &InputError{"exchangeOn", "The exchange date cannot be in the past."}
	case day.Sub(today) > MaxExchangeAhead:
		return nil, &InputError{"exchangeOn", "The exchange date can be at most a year ahead."}
	}
	return &day, nil
}

// CleanPlace checks the exchange's place: free text up to 120 characters.
func CleanPlace(place string) (string, error) {
	place = strings.TrimSpace(place)
	if utf8.RuneCountInString(place) > MaxPlaceRunes {
		return "", &InputError{"place", fmt.Sprintf("The place can be at most %d characters.", MaxPlaceRunes)}
	}
	return place, nil
}

// Today is now's UTC calendar day.
func Today(now time.Time) time.Time {
	now = now.UTC()
	return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
}

// ExchangePassed says whether the exchange day is over (UTC): the circle may be shown from the
// day after, never on the day itself nor before.
func ExchangePassed(exchangeOn *time.Time, now time.Time) bool {
	return exchangeOn != nil && Today(now).After(*exchangeOn)
}
