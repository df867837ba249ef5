package domain

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The two conversations of a Secret Santa participant, named from the caller's side: the one
// with their giftee (whom they know) and the one with their own Santa (whom they never learn).
const (
	WithGiftee = "giftee"
	WithSanta  = "santa"
)

// MaxMessageRunes is a Secret Santa message's longest text.
const MaxMessageRunes = 500

// InputError is input that breaks a rule and is answered 422 (unlike the family's older
// FieldError, which is a 400): a Secret Santa message and the exchange use it.
type InputError struct{ Field, Message string }

func (e *InputError) Error() string { return e.Message }

// CleanMessage checks a message: to whom ("giftee" or "santa") and its text, 1 to 500
// characters once trimmed.
func CleanMessage(to, text string) (string, error) {
	if to != WithGiftee && to != WithSanta {
		return "", &InputError{"to", `A message goes to "giftee" or "santa".`}
	}
	text = strings.TrimSpace(text)
	switch n := utf8.RuneCountInString(text); {
	case n == 0:
		return "", &InputError{"text", "Please write a message."}
	case n > MaxMessageRunes:
		return "", &InputError{"text", fmt.Sprintf("A message can be at most %d characters.", MaxMessageRunes)}
	}
	return text, nil
}
