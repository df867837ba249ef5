package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/mail"
	"strings"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// Mailer sends one email.
type Mailer interface {
	Send(ctx context.Context, messageID string, e domain.Email) error
}

// SentEmails remembers which events' emails went out.
type SentEmails interface {
	EmailSent(ctx context.Context, eventID string) (bool, error)
	MarkEmailSent(ctx context.Context, eventID string) error
}

// Suppressions are the addresses that want no more invitations, and their tokens.
type Suppressions interface {
	Suppressed(ctx context.Context, address string) (bool, error)
	AddressToken(ctx context.Context, address string) (string, error)
}

// Languages know the language of a user's emails (their notification settings').
type Languages interface {
	Language(ctx context.Context, userID string) (string, error)
}

// Emailer sends the emails events ask for: invitations (family.invited).
type Emailer struct {
	mailer     Mailer
	sent       SentEmails
	suppressed Suppressions
	languages  Languages
	publicURL  string
	logger     *slog.Logger
}

// NewEmailer builds the handler; publicURL is the web app's origin, for absolute links.
func NewEmailer(mailer Mailer, sent SentEmails, suppressed Suppressions, languages Languages, publicURL string, logger *slog.Logger) *Emailer {
	return &Emailer{mailer: mailer, sent: sent, suppressed: suppressed, languages: languages, publicURL: strings.TrimRight(publicURL, "/"),
		logger: logger.With("component", "emailer")}
}

// Handle sends an event's email once. A failed send returns the error, so JetStream delivers
// the event again after the consumer's back-off; a sent email is recorded by event id, so a
// redelivery sends nothing. (A crash between sending and recording sends it again, with the
// same Message-ID.)
func (e *Emailer) Handle(ctx context.Context, env events.Envelope) error {
	if env.Type != events.TypeFamilyInvited {
		return nil
	}
	var d events.FamilyInvitedData
	if err := json.Unmarshal(env.Data, &d); err != nil || !strings.HasPrefix(d.URL, "/join/") || d.FamilyName == "" {
		return fmt.Errorf("%w: family.invited needs familyName and a /join/ url", events.ErrPoison)
	}
	if _, err := mail.ParseAddress(d.Email); err != nil {
		return fmt.Errorf("%w: family.invited has no valid email", events.ErrPoison)
	}
	sent, err := e.sent.EmailSent(ctx, env.ID)
	if err != nil || sent {
		return err
	}
	// An address that unsubscribed gets no invitation; the invite itself stays as it is, and
	// the family's admin is told nothing (which would say something about the address).
	if quiet, err := e.suppressed.Suppressed(ctx, d.Email); err != nil || quiet {
		if quiet {
			e.logger.Info("invitation not emailed: the address unsubscribed", "event", env.ID)
			return e.sent.MarkEmailSent(ctx, env.ID)
		}
		return err
	}
	token, err := e.suppressed.AddressToken(ctx, d.Email)
	if err != nil {
		return err
	}
	// The invitation speaks the inviter's language: the app's when they invited (the event's),
	// else the one of their notification settings (the invitee has no account yet).
	lang := d.Language
	if lang == "" {
		if lang, err = e.languages.Language(ctx, env.UserID); err != nil {
			return err
		}
	}
	email, err := domain.InvitationEmail(domain.Invitation{To: d.Email, FamilyName: d.FamilyName, InvitedBy: d.InvitedBy,
		Link: e.publicURL + d.URL, ExpiresAt: d.ExpiresAt, Language: lang}, e.publicURL+"/api/unsubscribe/"+token)
	if err != nil {
		return fmt.Errorf("%w: %w", events.ErrPoison, err)
	}
	if err := e.mailer.Send(ctx, env.ID+"@santa-wishlist", email); err != nil {
		// The address and the link stay out of the log: the event id finds them.
		e.logger.Warn("sending an invitation failed; will retry", "event", env.ID, "err", err)
		return err
	}
	return e.sent.MarkEmailSent(ctx, env.ID)
}
