package adapters_test

import (
	"context"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/migrate"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/wishlist/internal/adapters"
)

// The lists migration runs on a database that already holds items: every owner gets a
// default list "My Wishlist" holding all their items, with the new fields' defaults.
func TestListsMigrationMovesExistingItemsIntoADefaultList(t *testing.T) {
	pool, _ := testenv.Postgres(t)
	ctx := context.Background()
	first, err := fs.ReadFile(adapters.Migrations(), "0001_items.sql")
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate.Apply(ctx, pool, "wishlist", fstest.MapFS{"0001_items.sql": {Data: first}}, quiet); err != nil {
		t.Fatal(err)
	}
	owners := map[string]int{"alice": 3, "bob": 2}
	for owner, n := range owners {
		for i := 0; i < n; i++ {
			if _, err := pool.Exec(ctx, `INSERT INTO items (id, user_id, name, description, search_query, shopping_url)
				VALUES ($1, $2, 'Old gift', 'saved before lists existed', 'q', 'u')`, uuid.NewString(), owner); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := migrate.Apply(ctx, pool, "wishlist", adapters.Migrations(), quiet); err != nil {
		t.Fatal(err)
	}
	for owner, n := range owners {
		var lists, inDefault, defaults int
		err := pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM lists WHERE user_id = $1),
			(SELECT count(*) FROM items i JOIN lists l ON l.id = i.list_id WHERE i.user_id = $1 AND l.is_default
				AND l.name = 'My Wishlist' AND l.user_id = $1),
			(SELECT count(*) FROM items WHERE user_id = $1 AND priority = 2 AND quantity = 1 AND notes = '')`, owner).
			Scan(&lists, &inDefault, &defaults)
		if err != nil {
			t.Fatal(err)
		}
		if lists != 1 || inDefault != n || defaults != n {
			t.Errorf("%s: %d lists, %d of %d items in the default list, %d with default fields", owner, lists, inDefault, n, defaults)
		}
	}
	var reveal string
	if err := pool.QueryRow(ctx, "SELECT to_char(reveal_at AT TIME ZONE 'UTC', 'MM-DD HH24:MI') FROM lists LIMIT 1").Scan(&reveal); err != nil || reveal != "12-26 00:00" {
		t.Errorf("default reveal date %q (%v), want 26 December", reveal, err)
	}
}
