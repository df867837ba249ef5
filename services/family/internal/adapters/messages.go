package adapters

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/outbox"
	"github.com/santa-wishlist/santa/services/family/internal/domain"
)

// conversation finds the pair behind one of the caller's conversations: the pair the caller
// gives in (with their giftee) or the one they receive in (with their Santa). It answers the
// pair's handle and the uid of the other side, which the caller's answer never carries (the
// event is addressed to it). Not a member: ErrNotFound; no draw, or not in it: ErrNoDraw.
func conversation(ctx context.Context, q pgx.Tx, familyID, uid, with string) (pairID, other, familyName string, err error) {
	if _, perr := uuid.Parse(familyID); perr != nil {
		return "", "", "", domain.ErrNotFound
	}
	var member bool
	var pair, otherUID, name *string
	err = q.QueryRow(ctx, `SELECT
			EXISTS (SELECT 1 FROM family_members WHERE family_id = $1 AND uid = $2),
			f.name, p.id::text, CASE WHEN $3 THEN p.receiver ELSE p.giver END
		FROM (SELECT 1) one
		LEFT JOIN families f ON f.id = $1
		LEFT JOIN secret_santa_pairs p ON p.family_id = $1 AND (CASE WHEN $3 THEN p.giver ELSE p.receiver END) = $2`,
		familyID, uid, with == domain.WithGiftee).Scan(&member, &name, &pair, &otherUID)
	switch {
	case err != nil:
		return "", "", "", fmt.Errorf("find the conversation: %w", err)
	case !member:
		return "", "", "", domain.ErrNotFound
	case pair == nil || otherUID == nil || name == nil:
		return "", "", "", domain.ErrNoDraw
	}
	return *pair, *otherUID, *name, nil
}

// SendMessage saves a message in one of the caller's conversations and, in the same
// transaction, the secretsanta.message event addressed to the other side. The event's time is
// the message's own, and it names neither the writer nor the pair.
func (r *Repository) SendMessage(ctx context.Context, familyID, uid, to, text string) (domain.Message, error) {
	m := domain.Message{ID: uuid.NewString(), With: to, Mine: true, Text: text}
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		// The family's row is locked as for every write, so a redraw waits for the message (or
		// the message for the redraw, and then finds the new pairs).
		if _, _, err := lockFamily(ctx, tx, familyID, uid); err != nil {
			return err
		}
		pair, other, name, err := conversation(ctx, tx, familyID, uid, to)
		if err != nil {
			return err
		}
		m.SentAt = time.Now().UTC().Truncate(time.Millisecond)
		if _, err := tx.Exec(ctx, `INSERT INTO secret_santa_messages (id, pair_id, from_giver, body, sent_at)
			VALUES ($1, $2, $3, $4, $5)`, m.ID, pair, to == domain.WithGiftee, text, m.SentAt); err != nil {
			return fmt.Errorf("save the message: %w", err)
		}
		// From the receiver's side: a message to the giftee comes from their Santa.
		theirs := domain.WithGiftee
		if to == domain.WithGiftee {
			theirs = domain.WithSanta
		}
		env, err := events.NewEnvelope(events.TypeSecretSantaMessage, other, events.SecretSantaMessageData{
			FamilyID: familyID, FamilyName: name, MessageID: m.ID, With: theirs,
		})
		if err != nil {
			return err
		}
		env.OccurredAt = m.SentAt
		return outbox.Enqueue(ctx, tx, env)
	})
	if err != nil {
		return domain.Message{}, fmt.Errorf("sending a Secret Santa message in family %s: %w", familyID, err)
	}
	return m, nil
}

// Messages answers the caller's own two conversations, oldest first (then by the messages'
// random ids): each message says which conversation and whether the caller wrote it, and
// nothing else of the other side. Not a member: ErrNotFound; no draw, or not in it: ErrNoDraw.
func (r *Repository) Messages(ctx context.Context, familyID, uid string) ([]domain.Message, error) {
	var out []domain.Message
	err := pgx.BeginTxFunc(ctx, r.pool, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		// Being in the draw is being a giver in it (everyone in a draw gives once).
		if _, _, _, err := conversation(ctx, tx, familyID, uid, domain.WithGiftee); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT m.id::text, p.giver = $2, m.from_giver = (p.giver = $2), m.body, m.sent_at
			FROM secret_santa_pairs p JOIN secret_santa_messages m ON m.pair_id = p.id
			WHERE p.family_id = $1 AND (p.giver = $2 OR p.receiver = $2)
			ORDER BY m.sent_at, m.id`, familyID, uid)
		if err != nil {
			return fmt.Errorf("read the messages: %w", err)
		}
		out, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.Message, error) {
			var m domain.Message
			var withGiftee bool
			if err := row.Scan(&m.ID, &withGiftee, &m.Mine, &m.Text, &m.SentAt); err != nil {
				return m, err
			}
			m.With = domain.WithSanta
			if withGiftee {
				m.With = domain.WithGiftee
			}
			return m, nil
		})
		return err
	})
	if err != nil {
		if errors.Is(err, domain.ErrNotFound) || errors.Is(err, domain.ErrNoDraw) {
			return nil, err
		}
		return nil, fmt.Errorf("reading Secret Santa messages in family %s: %w", familyID, err)
	}
	return out, nil
}
