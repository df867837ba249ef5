package postgres

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

func TestEraseUserRunsTheStatementsThenTheSharedErasersInOneTransaction(t *testing.T) {
	pool, _ := testenv.Postgres(t)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `CREATE TABLE notes (uid text); CREATE TABLE shared (uid text);
		INSERT INTO notes VALUES ('ann'), ('bob'); INSERT INTO shared VALUES ('ann'), ('bob')`); err != nil {
		t.Fatal(err)
	}
	count := func(table string) (n int) {
		if err := pool.QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE uid = 'ann'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	eraseShared := func(ctx context.Context, tx pgx.Tx, uid string) error {
		_, err := tx.Exec(ctx, "DELETE FROM shared WHERE uid = $1", uid)
		return err
	}
	refuse := func(context.Context, pgx.Tx, string) error { return errors.New("refused") }

	// A shared eraser that fails undoes the statements before it.
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		return EraseUser(ctx, tx, "ann", []string{"DELETE FROM notes WHERE uid = $1"}, eraseShared, refuse)
	})
	if err == nil || count("notes") != 1 || count("shared") != 1 {
		t.Fatalf("failed erase: err %v, notes %d, shared %d; want an error and nothing erased", err, count("notes"), count("shared"))
	}

	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		return EraseUser(ctx, tx, "ann", []string{"DELETE FROM notes WHERE uid = $1"}, eraseShared)
	})
	if err != nil || count("notes") != 0 || count("shared") != 0 {
		t.Fatalf("erase: err %v, notes %d, shared %d; want ann's rows gone", err, count("notes"), count("shared"))
	}
	var others int
	if err := pool.QueryRow(ctx, "SELECT (SELECT count(*) FROM notes) + (SELECT count(*) FROM shared)").Scan(&others); err != nil || others != 2 {
		t.Fatalf("bob's rows: %d (%v), want 2", others, err)
	}
}
