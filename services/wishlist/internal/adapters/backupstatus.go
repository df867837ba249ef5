package adapters

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

// BackupStatus reports, at scrape time, how the database's WAL archiving and backups stand, as
// PostgreSQL itself sees them: the alerts SantaWALArchiveBehind and SantaBackupTooOld read it
// (docs/operations.md). Wishlist reports it because it owns the database's largest tables and
// already holds a pool; every replica reports the same figures.
//
//   - wishlist_postgres_archive_ready_segments: WAL segments waiting for archive_command
//     (pg_ls_archive_statusdir's .ready files), which grows when archiving falls behind or fails;
//   - wishlist_postgres_archive_last_failed_timestamp_seconds and ..._last_archived_...:
//     pg_stat_archiver, the last failure and the last success;
//   - wishlist_postgres_last_backup_timestamp_seconds: when the last base backup ended, from its
//     backup history file in pg_wal (PostgreSQL keeps the newest one until the next backup).
//
// Nothing is reported where archive_mode is off or the user may not read the server's files
// (a managed database without pg_monitor): its provider watches its backups there.
type BackupStatus struct {
	pool                                    *pgxpool.Pool
	ready, lastArchived, lastFailed, backup *prometheus.Desc
}

// NewBackupStatus builds the collector.
func NewBackupStatus(pool *pgxpool.Pool) *BackupStatus {
	return &BackupStatus{pool: pool,
		ready:        prometheus.NewDesc("wishlist_postgres_archive_ready_segments", "WAL segments waiting to be archived.", nil, nil),
		lastArchived: prometheus.NewDesc("wishlist_postgres_archive_last_archived_timestamp_seconds", "When archive_command last succeeded (pg_stat_archiver).", nil, nil),
		lastFailed:   prometheus.NewDesc("wishlist_postgres_archive_last_failed_timestamp_seconds", "When archive_command last failed (pg_stat_archiver); 0: never.", nil, nil),
		backup:       prometheus.NewDesc("wishlist_postgres_last_backup_timestamp_seconds", "When the last base backup ended (its backup history file in pg_wal); 0: none kept.", nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (b *BackupStatus) Describe(ch chan<- *prometheus.Desc) {
	ch <- b.ready
	ch <- b.lastArchived
	ch <- b.lastFailed
	ch <- b.backup
}

// Collect implements prometheus.Collector; an unreachable or unreadable database reports nothing.
func (b *BackupStatus) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var ready int64
	var archived, failed, backup float64
	err := b.pool.QueryRow(ctx, `
		SELECT (SELECT count(*) FROM pg_ls_archive_statusdir() WHERE name LIKE '%.ready'),
		       coalesce(extract(epoch FROM a.last_archived_time), 0)::float8,
		       coalesce(extract(epoch FROM a.last_failed_time), 0)::float8,
		       coalesce((SELECT extract(epoch FROM max(modification)) FROM pg_ls_waldir() WHERE name LIKE '%.backup'), 0)::float8
		FROM pg_stat_archiver a
		WHERE current_setting('archive_mode') <> 'off'`).Scan(&ready, &archived, &failed, &backup)
	if err != nil {
		return
	}
	ch <- prometheus.MustNewConstMetric(b.ready, prometheus.GaugeValue, float64(ready))
	ch <- prometheus.MustNewConstMetric(b.lastArchived, prometheus.GaugeValue, archived)
	ch <- prometheus.MustNewConstMetric(b.lastFailed, prometheus.GaugeValue, failed)
	ch <- prometheus.MustNewConstMetric(b.backup, prometheus.GaugeValue, backup)
}
