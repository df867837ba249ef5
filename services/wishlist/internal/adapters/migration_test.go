package adapters_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

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

// The claim reveal-date migration runs on a database with claims: each existing claim takes
// its list's current reveal date, link and name, a list whose date has passed rolls to the same
// day of the next year, and the owner's view then is what it was (a claim on a revealed list
// stays visible, one on a list not yet revealed stays hidden).
func TestClaimRevealDatesMigrationKeepsWhatTheOwnerCouldSee(t *testing.T) {
	pool, _ := testenv.Postgres(t)
	ctx := context.Background()
	before := fstest.MapFS{}
	for _, name := range []string{"0001_items.sql", "0002_lists_and_claims.sql", "0003_family_sharing.sql", "0004_account_deletions.sql"} {
		data, err := fs.ReadFile(adapters.Migrations(), name)
		if err != nil {
			t.Fatal(err)
		}
		before[name] = &fstest.MapFile{Data: data}
	}
	if err := migrate.Apply(ctx, pool, "wishlist", before, quiet); err != nil {
		t.Fatal(err)
	}
	// Two lists: one revealed last Christmas (its date has passed), one revealed next Christmas.
	past, coming := uuid.NewString(), uuid.NewString()
	pastItem, comingItem := uuid.NewString(), uuid.NewString()
	for _, sql := range []string{
		`INSERT INTO lists (id, user_id, name, is_default, reveal_at, share_token) VALUES
			('` + past + `', 'kid', 'Last year', false, '2025-12-26T00:00:00Z', 'past-token'),
			('` + coming + `', 'kid', 'This year', true, '2099-12-26T00:00:00Z', 'coming-token')`,
		`INSERT INTO items (id, user_id, name, description, search_query, shopping_url, list_id, claimed) VALUES
			('` + pastItem + `', 'kid', 'Kite', 'd', 'q', 'u', '` + past + `', 1),
			('` + comingItem + `', 'kid', 'Bike', 'd', 'q', 'u', '` + coming + `', 2)`,
		`INSERT INTO claims (item_id, user_id, display_name, quantity) VALUES
			('` + pastItem + `', 'aunt', 'Aunt Mary', 1), ('` + comingItem + `', 'aunt', 'Aunt Mary', 2)`,
	} {
		if _, err := pool.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	if err := migrate.Apply(ctx, pool, "wishlist", adapters.Migrations(), quiet); err != nil {
		t.Fatal(err)
	}
	type claimRow struct {
		ItemID, RevealAt, ListID, ListName, Token string
	}
	rows, err := pool.Query(ctx, `SELECT item_id::text, to_char(reveal_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), list_id::text, list_name, via_token
		FROM claims ORDER BY reveal_at`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[claimRow])
	if err != nil {
		t.Fatal(err)
	}
	want := []claimRow{{pastItem, "2025-12-26", past, "Last year", "past-token"}, {comingItem, "2099-12-26", coming, "This year", "coming-token"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("claims after the migration:\n got %+v\nwant %+v", got, want)
	}
	var rolled string
	if err := pool.QueryRow(ctx, `SELECT to_char(reveal_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') FROM lists WHERE id = $1`, past).Scan(&rolled); err != nil {
		t.Fatal(err)
	}
	next := time.Date(time.Now().UTC().Year(), 12, 26, 0, 0, 0, 0, time.UTC)
	if !time.Now().Before(next) {
		next = next.AddDate(1, 0, 0)
	}
	if rolled != next.Format("2006-01-02 15:04") {
		t.Errorf("the passed list's reveal date is %s, want the coming 26 December", rolled)
	}
	// What the owner sees: last year's claim (revealed), not this year's.
	repo := adapters.NewRepository(pool, testenv.MediaURLSigner())
	for list, revealed := range map[string]bool{past: true, coming: false} {
		var body []byte
		if err := repo.ListJSON(ctx, "kid", list, func(b json.RawMessage) { body = append([]byte(nil), b...) }); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(body), "Aunt Mary") != revealed {
			t.Errorf("list %s after the migration: %s, want the claim shown: %v", list, body, revealed)
		}
	}
}
