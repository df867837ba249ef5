package adapters_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/wishlist/internal/adapters"
)

// Where archive_mode is off (the test stack's PostgreSQL) the collector reports nothing, so no
// alert can read a made-up zero; where it is on (the cluster's, or TEST_DATABASE_URL pointed
// at one that archives), a WAL switch is seen archived and the figures are real timestamps.
func TestBackupStatusReportsOnlyWhatPostgreSQLArchives(t *testing.T) {
	pool, _ := testenv.Postgres(t)
	ctx := context.Background()
	var mode string
	if err := pool.QueryRow(ctx, "SELECT current_setting('archive_mode')").Scan(&mode); err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(adapters.NewBackupStatus(pool))
	n, err := testutil.GatherAndCount(reg)
	if err != nil {
		t.Fatal(err)
	}
	if mode == "off" {
		if n != 0 {
			t.Fatalf("archive_mode off: %d series reported, want none", n)
		}
		return
	}
	if n != 4 {
		t.Fatalf("archive_mode %s: %d series, want 4", mode, n)
	}
	before := time.Now().Add(-time.Second)
	if _, err := pool.Exec(ctx, "SELECT pg_switch_wal()"); err != nil {
		t.Fatal(err)
	}
	for range 60 {
		mfs, _ := reg.Gather()
		for _, mf := range mfs {
			if mf.GetName() == "wishlist_postgres_archive_last_archived_timestamp_seconds" &&
				mf.GetMetric()[0].GetGauge().GetValue() >= float64(before.Unix()) {
				return
			}
		}
		time.Sleep(time.Second)
	}
	out, _ := reg.Gather()
	var names []string
	for _, mf := range out {
		names = append(names, mf.String())
	}
	t.Fatalf("no archive after the WAL switch was reported within a minute:\n%s", strings.Join(names, "\n"))
}
