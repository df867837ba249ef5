package migrate_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/santa-wishlist/santa/pkg/migrate"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

func TestConcurrentReplicasApplyEachMigrationOnce(t *testing.T) {
	pool, _ := testenv.Postgres(t)
	files := fstest.MapFS{
		"0001_things.sql": {Data: []byte("CREATE TABLE things (id int PRIMARY KEY)")},
		// Not idempotent on purpose: a second run would fail.
		"0002_seed.sql": {Data: []byte("INSERT INTO things VALUES (1)")},
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- migrate.Apply(context.Background(), pool, "svc", files, quiet)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("replica failed: %v", err)
		}
	}
	var rows, versions int
	_ = pool.QueryRow(context.Background(), "SELECT count(*) FROM things").Scan(&rows)
	_ = pool.QueryRow(context.Background(), "SELECT count(*) FROM svc_schema_migrations").Scan(&versions)
	if rows != 1 || versions != 2 {
		t.Fatalf("rows=%d versions=%d, want 1 and 2", rows, versions)
	}
}
