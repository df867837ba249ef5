package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Eraser removes what one shared piece of a service's database (the outbox, the sent
// reminders) keeps about a user, inside the caller's transaction.
type Eraser func(ctx context.Context, tx pgx.Tx, uid string) error

// EraseUser runs a service's own statements with uid as $1, in order, then each shared eraser,
// all in tx, so a deleted account's rows go together or not at all.
func EraseUser(ctx context.Context, tx pgx.Tx, uid string, statements []string, shared ...Eraser) error {
	for _, sql := range statements {
		if _, err := tx.Exec(ctx, sql, uid); err != nil {
			return fmt.Errorf("erase user: %w", err)
		}
	}
	for _, erase := range shared {
		if err := erase(ctx, tx, uid); err != nil {
			return err
		}
	}
	return nil
}
