package app

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// PreferenceReader answers whether a user wants a kind of notice by a channel.
type PreferenceReader interface {
	Enabled(ctx context.Context, userID, kind, channel string) (bool, error)
}

// MailPreferences is what the notice mailer needs of the preferences.
type MailPreferences interface {
	PreferenceReader
	Language(ctx context.Context, userID string) (string, error)
	UserToken(ctx context.Context, userID string, kinds []string) (string, error)
}

// Directory finds a user's email address (Firebase Auth's user record).
type Directory interface {
	Email(ctx context.Context, uid string) (email string, found bool, err error)
}

// Outbox holds the notices waiting to be emailed.
type Outbox interface {
	Enqueue(ctx context.Context, p domain.PendingEmail, now time.Time, window time.Duration) error
	SendNext(ctx context.Context, now time.Time, retryAt func(attempts int) time.Time, send domain.SendFunc) (bool, error)
	Forget(ctx context.Context, before time.Time) error
}

// NoticeMailer emails notices to the users who want them: its consumer puts each notice in
// the user's outbox (the digest, or a batch of its own to go at once), and its sender sends
// what is due.
type NoticeMailer struct {
	Outbox    Outbox
	Prefs     MailPreferences
	Directory Directory
	Mailer    Mailer
	// PublicURL is the web app's origin, for links and the unsubscribe address.
	PublicURL string
	// Window is how long a digest collects notices after its first.
	Window time.Duration
	// BackOff are the waits between attempts to send one email; past the last it is given up.
	BackOff []time.Duration
	// Now is the clock (tests drive it).
	Now    func() time.Time
	Logger *slog.Logger
}

func (m *NoticeMailer) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// Handle is the consumer's handler. The recipients are exactly those of the notices
// (domain.NoticesFromEvent), so the secrecy promise holds for email as for the live stream:
// nothing a claim causes is ever addressed to the list's owner. A redelivered event finds its
// notices queued (or sent) and adds nothing.
func (m *NoticeMailer) Handle(ctx context.Context, env events.Envelope) error {
	notices, err := domain.NoticesFromEvent(env)
	if err != nil {
		return poisonOrRetry(err)
	}
	for _, n := range notices {
		kind, ok := domain.KindOf(n)
		if !ok {
			continue
		}
		on, err := m.Prefs.Enabled(ctx, n.UserID, kind, domain.ChannelEmail)
		if err != nil {
			return err
		}
		if !on {
			continue
		}
		if err := m.Outbox.Enqueue(ctx, domain.PendingOf(n, kind), m.now(), m.Window); err != nil {
			return err
		}
	}
	return nil
}

// retryAt is when a batch that failed attempts times is tried again; zero gives up.
func (m *NoticeMailer) retryAt(attempts int) time.Time {
	if attempts > len(m.BackOff) {
		return time.Time{}
	}
	return m.now().Add(m.BackOff[attempts-1])
}

// SendDue sends every batch due now, one at a time, and returns how many it handled.
func (m *NoticeMailer) SendDue(ctx context.Context) (int, error) {
	n := 0
	for ctx.Err() == nil {
		found, err := m.Outbox.SendNext(ctx, m.now(), m.retryAt, m.send)
		if err != nil || !found {
			return n, err
		}
		n++
	}
	return n, ctx.Err()
}

// Run sends what is due every interval until ctx ends, and forgets month-old records daily.
func (m *NoticeMailer) Run(ctx context.Context, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	var forgot time.Time
	for {
		if _, err := m.SendDue(ctx); err != nil && ctx.Err() == nil {
			m.Logger.Warn("sending due emails failed; trying again", "err", err)
		}
		if now := m.now(); now.Sub(forgot) > 24*time.Hour {
			if err := m.Outbox.Forget(ctx, now.Add(-30*24*time.Hour)); err == nil {
				forgot = now
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// send writes and sends one batch. The preferences are read again (the user may have turned
// the kind off since it was queued), and the address is looked up now, so a changed one is used.
func (m *NoticeMailer) send(ctx context.Context, b domain.EmailBatch) (map[string]string, error) {
	outcomes := map[string]string{}
	var notices []domain.Notice
	var kinds []string
	for _, it := range b.Items {
		on, err := m.Prefs.Enabled(ctx, b.UserID, it.Kind, domain.ChannelEmail)
		if err != nil {
			return nil, err
		}
		if !on {
			outcomes[it.Notice.EventID] = domain.OutcomeOff
			continue
		}
		notices = append(notices, it.Notice)
		kinds = append(kinds, it.Kind)
	}
	if len(notices) == 0 {
		return outcomes, nil
	}
	address, found, err := m.Directory.Email(ctx, b.UserID)
	if err != nil {
		return nil, err
	}
	if !found {
		for _, n := range notices {
			outcomes[n.EventID] = domain.OutcomeNoAddress
		}
		return outcomes, nil
	}
	lang, err := m.Prefs.Language(ctx, b.UserID)
	if err != nil {
		return nil, err
	}
	slices.Sort(kinds)
	token, err := m.Prefs.UserToken(ctx, b.UserID, slices.Compact(kinds))
	if err != nil {
		return nil, err
	}
	base := strings.TrimRight(m.PublicURL, "/")
	email, ok, err := domain.NoticeEmail(domain.NoticeMail{To: address, Language: lang, PublicURL: base,
		UnsubscribeURL: base + "/api/unsubscribe/" + token, Notices: notices, Digest: b.Batch == domain.DigestBatch})
	if err != nil || !ok {
		return outcomes, err // nothing in it is emailed (no line): done
	}
	// The same batch sent again (a crash after sending) has the same Message-ID.
	messageID := notices[0].EventID + "@santa-wishlist"
	if b.Batch == domain.DigestBatch {
		messageID = "digest-" + messageID
	}
	if err := m.Mailer.Send(ctx, messageID, email); err != nil {
		// The address stays out of the log: the user id finds it.
		m.Logger.Warn("sending a notice email failed; will retry", "user", b.UserID, "batch", b.Batch, "attempt", b.Attempts+1, "err", err)
		return nil, err
	}
	return outcomes, nil
}
