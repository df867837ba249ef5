// Package postgres opens the connection pool every PostgreSQL-backed service uses.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/santa-wishlist/santa/pkg/lifecycle"
)

// DefaultMaxConns replaces pgxpool's default of max(4, CPUs): on a 2-core pod that default
// makes requests queue for a connection while PostgreSQL sits idle.
const DefaultMaxConns = 16

// Connect opens a pool once PostgreSQL answers, waiting up to lifecycle.StartupWait (less when ctx
// ends sooner) while it cannot be reached or is starting or shutting down. A refusal by the
// server itself (a wrong password, a missing database) fails at once. Settings in the URL
// (pool_max_conns=...) win over the defaults.
func Connect(ctx context.Context, url string) (*pgxpool.Pool, error) {
	cfg, err := poolConfig(url)
	if err != nil {
		return nil, err
	}
	pool, err := open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	err = lifecycle.Retry(ctx, func() error { return pool.Ping(ctx) }, refusedForGood)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("database: %w", err)
	}
	return pool, nil
}

// refusedForGood: the server answered with an error that waiting does not change, such as a
// wrong password or a database that does not exist. A server that is starting up or shutting
// down (class 57, "the database system is starting up"), out of connections (class 53) or
// failing the connection (class 08) answers differently a moment later: a pod that exited on
// those went into the crash loop's growing back-off when its PostgreSQL restarted beside it.
func refusedForGood(err error) bool {
	var answered *pgconn.PgError
	if !errors.As(err, &answered) {
		return false
	}
	code := answered.Code
	return !pgerrcode.IsOperatorIntervention(code) && !pgerrcode.IsInsufficientResources(code) &&
		!pgerrcode.IsConnectionException(code)
}

func poolConfig(url string) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = DefaultMaxConns
	}
	cfg.MaxConnIdleTime = 5 * time.Minute
	cfg.HealthCheckPeriod = 30 * time.Second
	return cfg, nil
}

func open(ctx context.Context, cfg *pgxpool.Config) (*pgxpool.Pool, error) {
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("database: %w", err)
	}
	return pool, nil
}

// ConnectSchema opens a pool whose connections work in their own schema (made if missing), so
// a service can share a database with the others and still name its tables freely: each
// service that uses pkg/outbox needs its own "outbox" table.
func ConnectSchema(ctx context.Context, url, schema string) (*pgxpool.Pool, error) {
	setup, err := Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	_, err = setup.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{schema}.Sanitize())
	setup.Close()
	if err != nil {
		return nil, fmt.Errorf("create schema %s: %w", schema, err)
	}
	cfg, err := poolConfig(url)
	if err != nil {
		return nil, err
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	return open(ctx, cfg)
}
