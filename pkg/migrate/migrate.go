// Package migrate applies a service's versioned SQL migrations at start. A PostgreSQL advisory
// lock makes it safe when several replicas start at once: one applies, the others wait and
// then find nothing left to do.
package migrate

import (
	"context"
	"fmt"
	"hash/fnv"
	"io/fs"
	"log/slog"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Apply runs every *.sql file of fsys (named NNNN_description.sql) not yet recorded in the
// service's own table, each in its own transaction, in name order.
func Apply(ctx context.Context, pool *pgxpool.Pool, service string, fsys fs.FS, logger *slog.Logger) error {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return fmt.Errorf("list migrations: %w", err)
	}
	sort.Strings(names)

	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("acquire connection for migrations: %w", err)
	}
	defer conn.Release()

	lockKey := advisoryKey(service)
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", lockKey); err != nil {
		return fmt.Errorf("take migration lock: %w", err)
	}
	defer func() { _, _ = conn.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", lockKey) }()

	table := pgx.Identifier{service + "_schema_migrations"}.Sanitize()
	if _, err := conn.Exec(ctx, "CREATE TABLE IF NOT EXISTS "+table+
		" (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"); err != nil {
		return fmt.Errorf("create %s: %w", table, err)
	}
	for _, name := range names {
		version := strings.TrimSuffix(name, ".sql")
		var done bool
		if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM "+table+" WHERE version = $1)", version).Scan(&done); err != nil {
			return fmt.Errorf("check migration %s: %w", version, err)
		}
		if done {
			continue
		}
		sql, err := fs.ReadFile(fsys, name)
		if err != nil {
			return fmt.Errorf("read migration %s: %w", name, err)
		}
		err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, string(sql)); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "INSERT INTO "+table+" (version) VALUES ($1)", version)
			return err
		})
		if err != nil {
			return fmt.Errorf("apply migration %s: %w", version, err)
		}
		logger.Info("migration applied", "version", version)
	}
	return nil
}

func advisoryKey(service string) int64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte("santa-migrations:" + service))
	return int64(h.Sum64())
}

// Folder is the "migrations" folder of a service's embedded files (//go:embed migrations/*.sql),
// as Apply reads it.
func Folder(embedded fs.FS) fs.FS {
	sub, err := fs.Sub(embedded, "migrations")
	if err != nil {
		panic(err) // fs.Sub fails only for an invalid name, and "migrations" is valid
	}
	return sub
}
