package domain

import (
	"fmt"
	"slices"
	"strings"
)

// The channels a notice can reach a user by besides the open app.
const (
	ChannelPush  = "push"
	ChannelEmail = "email"
)

// Channels are every channel, in the order the settings show them.
var Channels = []string{ChannelPush, ChannelEmail}

// The kinds of notices a user can turn on and off per channel.
const (
	KindSecretSantaDrawn = "secretsanta.drawn"
	// KindSecretSantaMessage: someone wrote in one of the user's Secret Santa conversations.
	KindSecretSantaMessage = "secretsanta.message"
	KindMemberJoined       = "family.member_joined"
	KindClaimRemoved       = "claim.removed"
	KindListChanged        = "list.changed"
	// KindThankYou: the recipient of a revealed gift thanked the user for it.
	KindThankYou = "gift.thank_you"
	// KindGroupGiftComplete: a group gift the user pledged to reached its target.
	KindGroupGiftComplete = "groupgift.complete"
	// The reminders (pkg/reminders' scans in wishlist and family); KindOf maps their notices here.
	KindReminderDrawSoon     = "reminder.draw_soon"
	KindReminderShopping     = "reminder.shopping"
	KindReminderListEmpty    = "reminder.list_empty"
	KindReminderExchangeSoon = "reminder.exchange_soon"
)

// Kind is one kind of notice: its defaults per channel, and whether its emails wait for the
// user's digest (a list that changes ten times makes one email) or go at once.
type Kind struct {
	Name   string
	Push   bool // on unless the user turned it off
	Email  bool
	Digest bool
}

// Kinds are every kind, in the order the settings show them.
var Kinds = []Kind{
	{Name: KindSecretSantaDrawn, Push: true, Email: true},
	{Name: KindSecretSantaMessage, Push: true, Email: true, Digest: true},
	{Name: KindReminderDrawSoon, Push: true, Email: true},
	{Name: KindReminderShopping, Push: true, Email: true},
	{Name: KindReminderListEmpty, Push: true, Email: true},
	{Name: KindReminderExchangeSoon, Push: true, Email: true},
	{Name: KindListChanged, Push: true, Email: true, Digest: true},
	{Name: KindClaimRemoved, Push: true, Email: true, Digest: true},
	{Name: KindGroupGiftComplete, Push: true, Email: false, Digest: true},
	{Name: KindThankYou, Push: true, Email: true, Digest: true},
	{Name: KindMemberJoined, Push: true, Email: false, Digest: true},
}

// KindNamed finds a kind.
func KindNamed(name string) (Kind, bool) {
	i := slices.IndexFunc(Kinds, func(k Kind) bool { return k.Name == name })
	if i < 0 {
		return Kind{}, false
	}
	return Kinds[i], true
}

// Default is whether a channel of a kind is on when the user never chose.
func (k Kind) Default(channel string) bool {
	if channel == ChannelEmail {
		return k.Email
	}
	return k.Push
}

// KindOf is the kind of a notice; false for notices that only the open app shows (the badge
// count, Santa's answer).
func KindOf(n Notice) (string, bool) {
	switch n.Event {
	case EventSecretSanta:
		return KindSecretSantaDrawn, true
	case EventSecretSantaMessage:
		return KindSecretSantaMessage, true
	case EventThankYou:
		return KindThankYou, true
	case EventGroupGiftComplete:
		return KindGroupGiftComplete, true
	case EventFamilyMemberJoined:
		return KindMemberJoined, true
	case EventClaimRemoved:
		return KindClaimRemoved, true
	case EventSharedListChanged:
		return KindListChanged, true
	case EventReminderDrawSoon:
		return KindReminderDrawSoon, true
	case EventReminderShopping:
		return KindReminderShopping, true
	case EventReminderListEmpty:
		return KindReminderListEmpty, true
	case EventReminderExchangeSoon:
		return KindReminderExchangeSoon, true
	}
	return "", false
}

// Preference is one choice: a channel of a kind on or off.
type Preference struct {
	Kind    string `json:"kind"`
	Channel string `json:"channel"`
	Enabled bool   `json:"enabled"`
}

// ErrBadPreference is a preference the server will not store; its message is the user's.
type ErrBadPreference struct{ Field, Message string }

func (e *ErrBadPreference) Error() string { return e.Message }

// KindNames are the kinds' names, for messages.
func KindNames() []string {
	out := make([]string, len(Kinds))
	for i, k := range Kinds {
		out[i] = k.Name
	}
	return out
}

// CheckPreferences refuses unknown kinds and channels, naming the known ones.
func CheckPreferences(prefs []Preference) error {
	if len(prefs) > len(Kinds)*len(Channels) {
		return &ErrBadPreference{"preferences", fmt.Sprintf("At most %d preferences can be set at once.", len(Kinds)*len(Channels))}
	}
	for i, p := range prefs {
		if _, ok := KindNamed(p.Kind); !ok {
			return &ErrBadPreference{fmt.Sprintf("preferences[%d].kind", i),
				fmt.Sprintf("Unknown notification kind %q; the kinds are %s.", p.Kind, strings.Join(KindNames(), ", "))}
		}
		if !slices.Contains(Channels, p.Channel) {
			return &ErrBadPreference{fmt.Sprintf("preferences[%d].channel", i),
				fmt.Sprintf("Unknown notification channel %q; the channels are push and email.", p.Channel)}
		}
	}
	return nil
}

// Languages are those the app and its emails are written in; the first is the default.
var Languages = []string{"en", "de", "fr", "es"}

// CheckLanguage refuses a language the emails are not written in.
func CheckLanguage(lang string) error {
	if !slices.Contains(Languages, lang) {
		return &ErrBadPreference{"language", fmt.Sprintf("Unknown language %q; the languages are %s.", lang, strings.Join(Languages, ", "))}
	}
	return nil
}

// Settings are a user's notification settings: every kind and channel with its state.
type Settings struct {
	Language    string              `json:"language"`
	Preferences []PreferenceSetting `json:"preferences"`
}

// PreferenceSetting is a preference as the settings screen shows it.
type PreferenceSetting struct {
	Preference
	// Digest: this kind's emails are collected into one per digest window.
	Digest bool `json:"digest"`
}

// SettingsOf fills in the defaults around a user's stored choices.
func SettingsOf(language string, chosen []Preference) Settings {
	if CheckLanguage(language) != nil {
		language = Languages[0]
	}
	s := Settings{Language: language, Preferences: []PreferenceSetting{}}
	for _, k := range Kinds {
		for _, ch := range Channels {
			p := Preference{Kind: k.Name, Channel: ch, Enabled: k.Default(ch)}
			if i := slices.IndexFunc(chosen, func(c Preference) bool { return c.Kind == k.Name && c.Channel == ch }); i >= 0 {
				p.Enabled = chosen[i].Enabled
			}
			s.Preferences = append(s.Preferences, PreferenceSetting{Preference: p, Digest: ch == ChannelEmail && k.Digest})
		}
	}
	return s
}

// PendingEmail is a notice waiting to be emailed, in a batch: "digest" (the user's next
// digest) or, for a notice sent at once, its own event id.
type PendingEmail struct {
	Notice Notice
	Kind   string
	Batch  string
}

// DigestBatch is the batch of a user's digest.
const DigestBatch = "digest"

// PendingOf is how a notice is emailed: in the digest or at once, per its kind.
func PendingOf(n Notice, kind string) PendingEmail {
	p := PendingEmail{Notice: n, Kind: kind, Batch: n.EventID}
	if k, _ := KindNamed(kind); k.Digest {
		p.Batch = DigestBatch
	}
	return p
}

// EmailBatch is one email to send: a user's pending notices of one batch, oldest first.
type EmailBatch struct {
	UserID   string
	Batch    string
	Attempts int
	Items    []PendingEmail
}

// What became of a pending notice.
const (
	OutcomeSent      = "sent"
	OutcomeOff       = "off"        // the user turned the kind's email off meanwhile
	OutcomeNoAddress = "no_address" // the account is gone, disabled or has no address
	OutcomeFailed    = "failed"     // the SMTP server refused it every time
)

// Unsubscribed is what an unsubscribe token stands for: a user's email of some kinds, or
// every invitation to an address.
type Unsubscribed struct {
	Kinds       []string `json:"kinds,omitempty"`
	Invitations bool     `json:"invitations,omitempty"`
}
