// Package postgres opens the connection pool every PostgreSQL-backed service uses.
package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// DefaultMaxConns replaces pgxpool's default of max(4, CPUs): on a 2-core pod that default
// makes requests queue for a connection while PostgreSQL sits idle.
const DefaultMaxConns = 16

// Connect opens a pool. Settings in the URL (pool_max_conns=...) win over the defaults.
func Connect(ctx context.Context, url string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = DefaultMaxConns
	}
	cfg.MaxConnIdleTime = 5 * time.Minute
	cfg.HealthCheckPeriod = 30 * time.Second
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("database: %w", err)
	}
	return pool, nil
}
