package adapters

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// Preferences stores the users' notification choices, their emails' language and the
// one-click unsubscribe tokens.
type Preferences struct{ pool *pgxpool.Pool }

// NewPreferences wraps a pool.
func NewPreferences(pool *pgxpool.Pool) *Preferences { return &Preferences{pool: pool} }

// Settings are the user's settings, defaults filled in.
func (p *Preferences) Settings(ctx context.Context, userID string) (domain.Settings, error) {
	return p.settings(ctx, p.pool, userID)
}

type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func (p *Preferences) settings(ctx context.Context, q querier, userID string) (domain.Settings, error) {
	rows, err := q.Query(ctx, "SELECT kind, channel, enabled FROM notification_preferences WHERE user_id = $1", userID)
	if err != nil {
		return domain.Settings{}, fmt.Errorf("read preferences: %w", err)
	}
	chosen, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (domain.Preference, error) {
		var c domain.Preference
		err := r.Scan(&c.Kind, &c.Channel, &c.Enabled)
		return c, err
	})
	if err != nil {
		return domain.Settings{}, fmt.Errorf("read preferences: %w", err)
	}
	lang, err := language(ctx, q, userID)
	if err != nil {
		return domain.Settings{}, err
	}
	return domain.SettingsOf(lang, chosen), nil
}

func language(ctx context.Context, q querier, userID string) (string, error) {
	var lang string
	err := q.QueryRow(ctx, "SELECT language FROM notification_settings WHERE user_id = $1", userID).Scan(&lang)
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.Languages[0], nil
	}
	if err != nil {
		return "", fmt.Errorf("read language: %w", err)
	}
	return lang, nil
}

// Language is the language of the user's emails (English until the app told another).
func (p *Preferences) Language(ctx context.Context, userID string) (string, error) {
	return language(ctx, p.pool, userID)
}

// Update stores the choices (checked by the caller) and the language unless empty, and
// returns the settings after.
func (p *Preferences) Update(ctx context.Context, userID, lang string, prefs []domain.Preference) (domain.Settings, error) {
	var out domain.Settings
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		if lang != "" {
			if _, err := tx.Exec(ctx, `INSERT INTO notification_settings (user_id, language) VALUES ($1, $2)
				ON CONFLICT (user_id) DO UPDATE SET language = EXCLUDED.language, updated_at = now()`, userID, lang); err != nil {
				return err
			}
		}
		for _, c := range prefs {
			if err := setPreference(ctx, tx, userID, c.Kind, c.Channel, c.Enabled); err != nil {
				return err
			}
		}
		var err error
		out, err = p.settings(ctx, tx, userID)
		return err
	})
	if err != nil {
		return domain.Settings{}, fmt.Errorf("update preferences: %w", err)
	}
	return out, nil
}

func setPreference(ctx context.Context, tx pgx.Tx, userID, kind, channel string, enabled bool) error {
	_, err := tx.Exec(ctx, `INSERT INTO notification_preferences (user_id, kind, channel, enabled) VALUES ($1, $2, $3, $4)
		ON CONFLICT (user_id, kind, channel) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = now()`, userID, kind, channel, enabled)
	return err
}

// Enabled is whether the user wants notices of the kind by the channel.
func (p *Preferences) Enabled(ctx context.Context, userID, kind, channel string) (bool, error) {
	k, ok := domain.KindNamed(kind)
	if !ok {
		return false, nil
	}
	var enabled bool
	err := p.pool.QueryRow(ctx, "SELECT enabled FROM notification_preferences WHERE user_id = $1 AND kind = $2 AND channel = $3",
		userID, kind, channel).Scan(&enabled)
	if errors.Is(err, pgx.ErrNoRows) {
		return k.Default(channel), nil
	}
	if err != nil {
		return false, fmt.Errorf("read preference: %w", err)
	}
	return enabled, nil
}

// newToken is 256 random bits: nobody guesses another user's.
func newToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// addressHash keeps an address comparable without keeping it.
func addressHash(address string) []byte {
	sum := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(address))))
	return sum[:]
}

// UserToken is the unsubscribe token of the user's emails of these kinds, made once.
func (p *Preferences) UserToken(ctx context.Context, userID string, kinds []string) (string, error) {
	kinds = slices.Clone(kinds)
	slices.Sort(kinds)
	kinds = slices.Compact(kinds)
	var token string
	err := p.pool.QueryRow(ctx, `WITH made AS (
			INSERT INTO unsubscribe_tokens (token, user_id, kinds) VALUES ($1, $2, $3)
			ON CONFLICT (user_id, kinds) WHERE user_id IS NOT NULL DO NOTHING RETURNING token)
		SELECT token FROM made UNION ALL SELECT token FROM unsubscribe_tokens WHERE user_id = $2 AND kinds = $3`,
		newToken(), userID, kinds).Scan(&token)
	if err != nil {
		return "", fmt.Errorf("unsubscribe token: %w", err)
	}
	return token, nil
}

// AddressToken is the unsubscribe token of the invitations to an address, made once.
func (p *Preferences) AddressToken(ctx context.Context, address string) (string, error) {
	var token string
	err := p.pool.QueryRow(ctx, `WITH made AS (
			INSERT INTO unsubscribe_tokens (token, address_hash) VALUES ($1, $2)
			ON CONFLICT (address_hash) WHERE address_hash IS NOT NULL DO NOTHING RETURNING token)
		SELECT token FROM made UNION ALL SELECT token FROM unsubscribe_tokens WHERE address_hash = $2`,
		newToken(), addressHash(address)).Scan(&token)
	if err != nil {
		return "", fmt.Errorf("unsubscribe token: %w", err)
	}
	return token, nil
}

// Suppressed is whether an address asked for no more invitations.
func (p *Preferences) Suppressed(ctx context.Context, address string) (bool, error) {
	var found bool
	err := p.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM email_suppressions WHERE address_hash = $1)", addressHash(address)).Scan(&found)
	return found, err
}

// Describe says what a token stands for, changing nothing; found is false for an unknown one.
func (p *Preferences) Describe(ctx context.Context, token string) (domain.Unsubscribed, bool, error) {
	var userID *string
	var kinds []string
	var hash []byte
	err := p.pool.QueryRow(ctx, "SELECT user_id, kinds, address_hash FROM unsubscribe_tokens WHERE token = $1", token).Scan(&userID, &kinds, &hash)
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.Unsubscribed{}, false, nil
	}
	if err != nil {
		return domain.Unsubscribed{}, false, fmt.Errorf("read unsubscribe token: %w", err)
	}
	if userID == nil {
		return domain.Unsubscribed{Invitations: true}, true, nil
	}
	return domain.Unsubscribed{Kinds: kinds}, true, nil
}

// Unsubscribe does what a token stands for (idempotent): the user's email of its kinds off,
// or the address suppressed; found is false for an unknown token.
func (p *Preferences) Unsubscribe(ctx context.Context, token string) (domain.Unsubscribed, bool, error) {
	var out domain.Unsubscribed
	var found bool
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		var userID *string
		var kinds []string
		var hash []byte
		err := tx.QueryRow(ctx, "SELECT user_id, kinds, address_hash FROM unsubscribe_tokens WHERE token = $1", token).Scan(&userID, &kinds, &hash)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		if userID == nil {
			out.Invitations = true
			_, err := tx.Exec(ctx, "INSERT INTO email_suppressions (address_hash) VALUES ($1) ON CONFLICT DO NOTHING", hash)
			return err
		}
		out.Kinds = kinds
		for _, k := range kinds {
			if err := setPreference(ctx, tx, *userID, k, domain.ChannelEmail, false); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return domain.Unsubscribed{}, false, fmt.Errorf("unsubscribe: %w", err)
	}
	return out, found, nil
}

// EraseUser deletes a deleted account's choices, tokens and pending emails. Idempotent.
func (p *Preferences) EraseUser(ctx context.Context, userID string) error {
	return pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		for _, table := range []string{"notification_preferences", "notification_settings", "unsubscribe_tokens", "email_items", "email_batches"} {
			if _, err := tx.Exec(ctx, "DELETE FROM "+table+" WHERE user_id = $1", userID); err != nil {
				return fmt.Errorf("erase %s: %w", table, err)
			}
		}
		return nil
	})
}

// EmailOutbox holds the notices waiting to be emailed, in PostgreSQL, so a restart loses none
// and sends none twice.
type EmailOutbox struct{ pool *pgxpool.Pool }

// NewEmailOutbox wraps a pool.
func NewEmailOutbox(pool *pgxpool.Pool) *EmailOutbox { return &EmailOutbox{pool: pool} }

// Enqueue adds a notice to its batch, once per notice (a redelivered event adds nothing), unless
// the account was erased. A digest is due window after its first notice; a notice sent at once
// is due now.
func (o *EmailOutbox) Enqueue(ctx context.Context, p domain.PendingEmail, now time.Time, window time.Duration) error {
	due := now
	if p.Batch == domain.DigestBatch {
		due = now.Add(window)
	}
	err := pgx.BeginFunc(ctx, o.pool, func(tx pgx.Tx) error {
		if err := lockUser(ctx, tx, p.Notice.UserID); err != nil {
			return err
		}
		if gone, err := erased(ctx, tx, p.Notice.UserID); err != nil || gone {
			return err // the account was erased while this event was on its way
		}
		tag, err := tx.Exec(ctx, `INSERT INTO email_items (notice_id, user_id, batch, kind, event, data, occurred_at, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (notice_id) DO NOTHING`,
			p.Notice.EventID, p.Notice.UserID, p.Batch, p.Kind, p.Notice.Event, p.Notice.Data, p.Notice.OccurredAt, now)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		// DO UPDATE, not DO NOTHING: while a sender holds the batch this waits for it, and when
		// the sender deleted it (sent without this notice) makes a new one, so no notice is left
		// without a batch. A digest keeps the due time of its first notice.
		_, err = tx.Exec(ctx, `INSERT INTO email_batches (user_id, batch, due_at) VALUES ($1, $2, $3)
			ON CONFLICT (user_id, batch) DO UPDATE SET due_at = email_batches.due_at`, p.Notice.UserID, p.Batch, due)
		return err
	})
	if err != nil {
		return fmt.Errorf("enqueue email of %s: %w", p.Notice.EventID, err)
	}
	return nil
}

// SendNext claims the batch due first (FOR UPDATE SKIP LOCKED: a batch another replica is
// sending is skipped, never sent twice) and sends it while holding it: sent, its notices are
// marked done and the batch goes, in the same transaction. On failure it is due again at
// retryAt(attempts); a zero time gives up (its notices are marked failed). found is false when
// nothing is due at now.
func (o *EmailOutbox) SendNext(ctx context.Context, now time.Time, retryAt func(attempts int) time.Time, send domain.SendFunc) (found bool, err error) {
	err = pgx.BeginFunc(ctx, o.pool, func(tx pgx.Tx) error {
		var b domain.EmailBatch
		err := tx.QueryRow(ctx, `SELECT user_id, batch, attempts FROM email_batches WHERE due_at <= $1
			ORDER BY due_at LIMIT 1 FOR UPDATE SKIP LOCKED`, now).Scan(&b.UserID, &b.Batch, &b.Attempts)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		rows, err := tx.Query(ctx, `SELECT notice_id, user_id, kind, event, data, occurred_at FROM email_items
			WHERE user_id = $1 AND batch = $2 AND done_at IS NULL ORDER BY occurred_at, notice_id`, b.UserID, b.Batch)
		if err != nil {
			return err
		}
		b.Items, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (domain.PendingEmail, error) {
			p := domain.PendingEmail{Batch: b.Batch}
			err := r.Scan(&p.Notice.EventID, &p.Notice.UserID, &p.Kind, &p.Notice.Event, &p.Notice.Data, &p.Notice.OccurredAt)
			return p, err
		})
		if err != nil {
			return err
		}
		outcomes := map[string]string{}
		if len(b.Items) > 0 {
			outcomes, err = send(ctx, b)
		}
		if err != nil {
			next := retryAt(b.Attempts + 1)
			if !next.IsZero() {
				_, err := tx.Exec(ctx, "UPDATE email_batches SET attempts = attempts + 1, due_at = $3 WHERE user_id = $1 AND batch = $2",
					b.UserID, b.Batch, next)
				return err
			}
			outcomes = map[string]string{}
			for _, it := range b.Items {
				outcomes[it.Notice.EventID] = domain.OutcomeFailed
			}
		}
		for _, it := range b.Items {
			outcome := outcomes[it.Notice.EventID]
			if outcome == "" {
				outcome = domain.OutcomeSent
			}
			if _, err := tx.Exec(ctx, "UPDATE email_items SET done_at = $2, outcome = $3 WHERE notice_id = $1",
				it.Notice.EventID, now, outcome); err != nil {
				return err
			}
		}
		_, err = tx.Exec(ctx, "DELETE FROM email_batches WHERE user_id = $1 AND batch = $2", b.UserID, b.Batch)
		return err
	})
	if err != nil {
		return found, fmt.Errorf("send due email: %w", err)
	}
	return found, nil
}

// Forget deletes the record of notices emailed before a time: a redelivery comes within
// hours, so a month of them is more than enough to recognise one.
func (o *EmailOutbox) Forget(ctx context.Context, before time.Time) error {
	_, err := o.pool.Exec(ctx, "DELETE FROM email_items WHERE done_at < $1", before)
	return err
}
