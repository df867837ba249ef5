package adapters

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/family/internal/domain"
)

// Draw replaces the family's Secret Santa draw (admins only): draw gets the members and
// returns the pairs, all under the family's lock so nobody joins or leaves meanwhile.
func (r *Repository) Draw(ctx context.Context, familyID, callerUID, budget string,
	draw func([]domain.Member) (domain.Drawn, error)) (time.Time, int, error) {
	var drawnAt time.Time
	var participants int
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		name, err := lockAsAdmin(ctx, tx, familyID, callerUID)
		if err != nil {
			return err
		}
		rows, err := tx.Query(ctx, "SELECT uid, display_name FROM family_members WHERE family_id = $1", familyID)
		if err != nil {
			return fmt.Errorf("read the members: %w", err)
		}
		members, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.Member, error) {
			var m domain.Member
			return m, row.Scan(&m.UID, &m.DisplayName)
		})
		if err != nil {
			return fmt.Errorf("read the members: %w", err)
		}
		drawn, err := draw(members)
		if err != nil {
			return err
		}
		pairs := drawn.Pairs
		exclusions := drawn.Exclusions
		if exclusions == nil {
			exclusions = [][2]string{}
		}
		if _, err := tx.Exec(ctx, "DELETE FROM secret_santa_draws WHERE family_id = $1", familyID); err != nil {
			return fmt.Errorf("delete the previous draw: %w", err)
		}
		drawnAt = time.Now().UTC().Truncate(time.Millisecond)
		if _, err := tx.Exec(ctx, `INSERT INTO secret_santa_draws (family_id, drawn_by, drawn_at, budget, exclusions, everyone_can_deduce, reveal_after_exchange)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, familyID, callerUID, drawnAt, budget, exclusions, drawn.EveryoneCanDeduce, drawn.RevealAfterExchange); err != nil {
			return fmt.Errorf("save the draw: %w", err)
		}
		givers, receivers := make([]string, len(pairs)), make([]string, len(pairs))
		for i, p := range pairs {
			givers[i], receivers[i] = p.Giver, p.Receiver
		}
		if _, err := tx.Exec(ctx, `INSERT INTO secret_santa_pairs (family_id, giver, receiver)
			SELECT $1, g, r FROM unnest($2::text[], $3::text[]) AS t(g, r)`, familyID, givers, receivers); err != nil {
			return fmt.Errorf("save the pairs: %w", err)
		}
		participants = len(pairs)
		// givers is in uid order (Draw's contract), so the event says nothing about pairs.
		return enqueue(ctx, tx, events.TypeSecretSantaDrawn, callerUID, events.SecretSantaDrawnData{
			FamilyID: familyID, FamilyName: name, DrawnAt: drawnAt, Participants: givers,
		})
	})
	if err != nil {
		return time.Time{}, 0, fmt.Errorf("drawing names in family %s: %w", familyID, err)
	}
	return drawnAt, participants, nil
}

// MyMatch reads the one pair whose giver is the caller: the only query that touches pairs.
func (r *Repository) MyMatch(ctx context.Context, familyID, uid string) (domain.Match, error) {
	if _, err := uuid.Parse(familyID); err != nil {
		return domain.Match{}, domain.ErrNotFound
	}
	var m domain.Match
	var member bool
	var assignee, assigneeName *string
	var drawnAt *time.Time
	var budget *string
	var exclusions [][2]string
	var everyone, reveal *bool
	var place *string
	err := r.pool.QueryRow(ctx, `SELECT
			EXISTS (SELECT 1 FROM family_members WHERE family_id = $1 AND uid = $2),
			d.drawn_at, d.budget, p.receiver, rm.display_name, d.exclusions, d.everyone_can_deduce,
			f.exchange_on, f.exchange_place, d.reveal_after_exchange
		FROM (SELECT 1) one
		LEFT JOIN families f ON f.id = $1
		LEFT JOIN secret_santa_draws d ON d.family_id = $1
		LEFT JOIN secret_santa_pairs p ON p.family_id = $1 AND p.giver = $2
		LEFT JOIN family_members rm ON rm.family_id = $1 AND rm.uid = p.receiver`, familyID, uid).
		Scan(&member, &drawnAt, &budget, &assignee, &assigneeName, &exclusions, &everyone, &m.ExchangeOn, &place, &reveal)
	if err != nil {
		return domain.Match{}, fmt.Errorf("reading the match in family %s: %w", familyID, err)
	}
	switch {
	case !member:
		return domain.Match{}, domain.ErrNotFound
	case drawnAt == nil || assignee == nil || assigneeName == nil:
		return domain.Match{}, domain.ErrNoDraw
	}
	m.DrawnAt, m.Budget = *drawnAt, *budget
	m.Assignee = domain.Member{UID: *assignee, DisplayName: *assigneeName}
	// Draws made before exclusions were kept show none.
	m.Exclusions, m.EveryoneCanDeduce = exclusions, everyone != nil && *everyone
	m.RevealAfterExchange = reveal != nil && *reveal
	if place != nil {
		m.Place = *place
	}
	if m.Exclusions == nil {
		m.Exclusions = [][2]string{}
	}
	return m, nil
}
