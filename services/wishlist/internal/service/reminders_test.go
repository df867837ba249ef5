package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/migrate"
	"github.com/santa-wishlist/santa/pkg/outbox"
	"github.com/santa-wishlist/santa/pkg/reminders"
	"github.com/santa-wishlist/santa/pkg/reminders/reminderstest"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/wishlist/internal/adapters"
)

// replica is one wishlist replica's scheduler, on a pool of its own.
func replica(t *testing.T, dbURL string, clock *testenv.Clock) (*reminders.Scheduler, *adapters.Repository, *pgxpool.Pool) {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	repo := adapters.NewRepository(pool, nil)
	return reminders.New(pool, reminders.Options{Clock: clock.Now, Registry: prometheus.NewRegistry()},
		repo.ShoppingDue, repo.EmptyListsDue(adapters.DefaultEmptyListQuiet)), repo, pool
}

// reminderWorld is the seed of the reminder tests: reveal is 26 December 2026 (UTC).
//   - olive's list "Olive's wishes" is shared by link; both its items are claimed (by carl,
//     not purchased; and by dora, purchased);
//   - carl also claimed a gift on ema's other list, not purchased: 2 gifts not purchased;
//   - ema's "Ema's list" is shared with a family and has no items (only carl's suggestion);
//   - nina's list is empty but shared with nobody.
//
// Every list was made (and shared) three months before the reveal date, long before any
// reminder window opens.
type reminderWorld struct {
	reveal                   time.Time
	oliveList, emaEmpty      string
	oliveItems, emaOtherItem []string
}

func seedReminderWorld(t *testing.T, pool *pgxpool.Pool) reminderWorld {
	t.Helper()
	ctx := context.Background()
	w := reminderWorld{reveal: time.Date(2026, 12, 26, 0, 0, 0, 0, time.UTC)}
	list := func(owner, name string, token *string, families []string) string {
		id := uuid.NewString()
		if families == nil {
			families = []string{}
		}
		if _, err := pool.Exec(ctx, `INSERT INTO lists (id, user_id, name, is_default, reveal_at, share_token, owner_name, family_ids, created_at)
			VALUES ($1, $2, $3, false, $4, $5, $2, $6, $4::timestamptz - interval '3 months')`, id, owner, name, w.reveal, token, families); err != nil {
			t.Fatal(err)
		}
		return id
	}
	item := func(owner, listID, name string) string {
		id := uuid.NewString()
		if _, err := pool.Exec(ctx, `INSERT INTO items (id, user_id, name, description, search_query, shopping_url, list_id)
			VALUES ($1, $2, $3, 'a gift', 'q', 'u', $4)`, id, owner, name, listID); err != nil {
			t.Fatal(err)
		}
		return id
	}
	claim := func(itemID, claimer, listID string, purchased bool) {
		if _, err := pool.Exec(ctx, `INSERT INTO claims (item_id, user_id, display_name, quantity, purchased, reveal_at, list_id, list_name)
			VALUES ($1, $2, $2, 1, $3, $4, $5, 'a list')`, itemID, claimer, purchased, w.reveal, listID); err != nil {
			t.Fatal(err)
		}
	}
	token := "tok-" + uuid.NewString()
	w.oliveList = list("olive", "Olive's wishes", &token, nil)
	w.oliveItems = []string{item("olive", w.oliveList, "Red bike"), item("olive", w.oliveList, "Kite")}
	claim(w.oliveItems[0], "carl", w.oliveList, false)
	claim(w.oliveItems[1], "dora", w.oliveList, true)
	claim(w.oliveItems[1], "carl", w.oliveList, false)
	w.emaEmpty = list("ema", "Ema's list", nil, []string{uuid.NewString()})
	// carl suggested a gift on it: to ema it is still empty, and the reminder must come as if
	// nothing were there (a missing reminder would tell her someone suggested something).
	suggestion := item("carl", w.emaEmpty, "A suggested scarf")
	if _, err := pool.Exec(ctx, "UPDATE items SET suggested_by = 'carl', suggested_by_name = 'Carl' WHERE id = $1", suggestion); err != nil {
		t.Fatal(err)
	}
	emaToken := "tok-" + uuid.NewString()
	emaOther := list("ema", "Ema's books", &emaToken, nil)
	w.emaOtherItem = []string{item("ema", emaOther, "A book")}
	list("nina", "Nina's quiet list", nil, nil)
	return w
}

// The reminders' promise of once: two replicas scan the same database at the same moments,
// one more crashes between its scan and its commit (holding the reminder's key uncommitted,
// so a replica that meets it waits), and a replica started after the crash scans again. Each
// reminder reaches the stream exactly once, at its time, and to its recipient only.
func TestRemindersAreSentOnceAcrossTwoReplicasAndARestart(t *testing.T) {
	ctx := context.Background()
	seedPool, dbURL := testenv.Postgres(t)
	if err := migrate.Apply(ctx, seedPool, "wishlist", adapters.Migrations(), quiet); err != nil {
		t.Fatal(err)
	}
	world := seedReminderWorld(t, seedPool)
	clock := testenv.NewClock(world.reveal.Add(-40 * 24 * time.Hour))
	a, _, _ := replica(t, dbURL, clock)
	b, _, _ := replica(t, dbURL, clock)

	// Each replica's loop, 4 scans at once.
	both := func() int { t.Helper(); return reminderstest.ScanTogether(t, 8, a, b) }

	// 40 days before: nothing is due.
	if n := both(); n != 0 {
		t.Fatalf("40 days before the reveal date %d reminders went out", n)
	}
	// 30 days before (and a little): ema's shared empty list. Olive's list has items (all of
	// them claimed, which must not matter); nina's is shared with nobody.
	clock.Set(world.reveal.Add(-30*24*time.Hour + time.Hour))
	if n := both(); n != 1 {
		t.Fatalf("a month before: %d reminders, want 1 (ema's empty list)", n)
	}
	clock.Set(world.reveal.Add(-20 * 24 * time.Hour))
	if n := both(); n != 0 {
		t.Fatalf("20 days before: %d reminders sent again", n)
	}

	// 7 days before: carl's shopping reminder is due. A third replica scans, records it and
	// crashes before committing; meanwhile replica a scans and finds it due too.
	clock.Set(world.reveal.Add(-7*24*time.Hour + time.Minute))
	_, crashRepo, crashPool := replica(t, dbURL, clock)
	due, err := crashRepo.ShoppingDue(ctx, clock.Now())
	if err != nil || len(due) != 1 || due[0].Event.UserID != "carl" {
		t.Fatalf("due at 7 days: %+v, %v", due, err)
	}
	if n := reminderstest.CrashWhileSending(t, crashPool, due[0], a); n != 1 {
		t.Fatalf("replica a sent %d after the crash, want carl's 1", n)
	}
	// The crashed replica comes back as a new instance and scans: nothing is left to send.
	restarted, _, _ := replica(t, dbURL, clock)
	if n, err := restarted.RunOnce(ctx); err != nil || n != 0 {
		t.Fatalf("the restarted replica sent %d (%v)", n, err)
	}
	if n := both(); n != 0 {
		t.Fatalf("%d reminders sent again after the restart", n)
	}
	// On the day and after it, nothing more.
	clock.Set(world.reveal.Add(time.Hour))
	if n := both(); n != 0 {
		t.Fatalf("after the reveal date %d reminders went out", n)
	}

	// Publish what was committed, twice over (two relays), and read the stream.
	broker := testenv.StartNATS(t)
	nc, js, err := events.Connect(broker.URL(), "relay", quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	for range 2 {
		relay := outbox.NewRelay(seedPool, js, prometheus.NewRegistry(), quiet)
		if _, err := relay.PublishPending(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := seedPool.Exec(ctx, "UPDATE outbox SET published_at = NULL"); err != nil { // a relay that crashed before marking
			t.Fatal(err)
		}
	}
	got := map[string][]events.Envelope{}
	for _, env := range testenv.StreamEvents(t, broker.URL()) {
		conformsToSchema(t, env)
		got[env.Type+" to "+env.UserID] = append(got[env.Type+" to "+env.UserID], env)
	}
	if len(got) != 2 || len(got["reminder.list_empty to ema"]) != 1 || len(got["reminder.shopping to carl"]) != 1 {
		t.Fatalf("the stream holds %v, want one list_empty to ema and one shopping to carl", keys(got))
	}
	var shop events.ShoppingData
	_ = json.Unmarshal(got["reminder.shopping to carl"][0].Data, &shop)
	if shop.NotPurchased != 2 || shop.DaysLeft != 7 || !shop.RevealAt.Equal(world.reveal) {
		t.Errorf("carl's shopping reminder: %+v, want 2 not purchased, 7 days left", shop)
	}
	var empty events.ListEmptyData
	_ = json.Unmarshal(got["reminder.list_empty to ema"][0].Data, &empty)
	if empty.ListID != world.emaEmpty || empty.ListName != "Ema's list" || empty.DaysLeft != 30 {
		t.Errorf("ema's empty-list reminder: %+v", empty)
	}
	var keysStored int
	if err := seedPool.QueryRow(ctx, "SELECT count(*) FROM sent_reminders").Scan(&keysStored); err != nil || keysStored != 2 {
		t.Fatalf("sent_reminders holds %d keys (%v), want 2", keysStored, err)
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// A list whose stored reveal date passed rolls to next season: a month before that date, the
// shared empty list is reminded of again (a new occasion), once.
func TestTheEmptyListReminderComesBackNextSeason(t *testing.T) {
	ctx := context.Background()
	pool, dbURL := testenv.Postgres(t)
	if err := migrate.Apply(ctx, pool, "wishlist", adapters.Migrations(), quiet); err != nil {
		t.Fatal(err)
	}
	world := seedReminderWorld(t, pool)
	clock := testenv.NewClock(world.reveal.Add(-10 * 24 * time.Hour))
	s, _, _ := replica(t, dbURL, clock)
	if n, err := s.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("this season: %d (%v)", n, err)
	}
	clock.Set(world.reveal.AddDate(1, 0, -10))
	if n, err := s.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("next season: %d (%v), want ema's list again", n, err)
	}
	if n, err := s.RunOnce(ctx); err != nil || n != 0 {
		t.Fatalf("next season, again: %d (%v)", n, err)
	}
	var occasions []string
	rows, _ := pool.Query(ctx, "SELECT occasion FROM sent_reminders WHERE kind = 'reminder.list_empty' ORDER BY occasion")
	occasions, _ = pgx.CollectRows(rows, pgx.RowTo[string])
	if len(occasions) != 2 || occasions[0] != "2026-12-26T00:00:00.000000Z" || occasions[1] != "2027-12-26T00:00:00.000000Z" {
		t.Fatalf("occasions %v", occasions)
	}
}

// The promise, as a curious owner would try it: olive's shared list has items and every one
// of them is claimed (one bought). Day by day through the season, no reminder is addressed to
// olive, and none, to anyone, names her list, her items or her: the claimers' shopping
// reminders count their own claims and say nothing of whose list they are on.
func TestAnOwnerWhoseItemsAreAllClaimedGetsNoReminderOfIt(t *testing.T) {
	ctx := context.Background()
	pool, dbURL := testenv.Postgres(t)
	if err := migrate.Apply(ctx, pool, "wishlist", adapters.Migrations(), quiet); err != nil {
		t.Fatal(err)
	}
	world := seedReminderWorld(t, pool)
	clock := testenv.NewClock(world.reveal.AddDate(0, 0, -45))
	s, _, _ := replica(t, dbURL, clock)
	for day := -45; day <= 1; day++ {
		clock.Set(world.reveal.AddDate(0, 0, day).Add(6 * time.Hour))
		if _, err := s.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := pool.Query(ctx, "SELECT payload FROM outbox WHERE subject LIKE 'reminder.%'")
	if err != nil {
		t.Fatal(err)
	}
	payloads, err := pgx.CollectRows(rows, pgx.RowTo[[]byte])
	if err != nil {
		t.Fatal(err)
	}
	if len(payloads) != 2 { // ema's empty list, carl's shopping
		t.Fatalf("%d reminders over the season, want 2", len(payloads))
	}
	secrets := append([]string{"olive", "Olive", world.oliveList}, world.oliveItems...)
	for _, p := range payloads {
		var env events.Envelope
		if err := json.Unmarshal(p, &env); err != nil {
			t.Fatal(err)
		}
		if env.UserID == "olive" {
			t.Fatalf("olive was sent %s: %s", env.Type, env.Data)
		}
		for _, s := range secrets {
			if bytes.Contains(p, []byte(s)) {
				t.Fatalf("a reminder to %s names %q: %s", env.UserID, s, p)
			}
		}
	}
}

// "Your list is empty" is not the answer to sharing an empty list, or to clearing one out: the
// owner hears of it only once the list has stayed shared and empty for the quiet period (72
// hours). Four lists of ava's, all made long ago, revealed in 20 days (inside the reminder's
// month): one empty and shared now; one shared long ago whose only item is deleted now; one
// whose only item is moved now to another list; and one shared and empty long ago, on which
// carl's suggestion is withdrawn now, which must not delay its reminder (the delay would tell
// ava a suggestion existed). The sharing, the deletion and the move go through the repository
// as the routes do; the quiet period is read from the database's own record of them.
func TestTheEmptyListReminderWaitsUntilTheListHasStayedEmpty(t *testing.T) {
	ctx := context.Background()
	pool, dbURL := testenv.Postgres(t)
	if err := migrate.Apply(ctx, pool, "wishlist", adapters.Migrations(), quiet); err != nil {
		t.Fatal(err)
	}
	reveal := time.Now().UTC().Truncate(time.Second).Add(20 * 24 * time.Hour)
	list := func(name string, shared bool) string {
		t.Helper()
		id := uuid.NewString()
		var token *string
		if shared {
			tok := "tok-" + uuid.NewString()
			token = &tok
		}
		if _, err := pool.Exec(ctx, `INSERT INTO lists (id, user_id, name, is_default, reveal_at, share_token, owner_name, created_at)
			VALUES ($1, 'ava', $2, false, $3, $4, 'Ava', $3::timestamptz - interval '3 months')`, id, name, reveal, token); err != nil {
			t.Fatal(err)
		}
		return id
	}
	item := func(owner, listID string, suggestedBy *string) string {
		t.Helper()
		id := uuid.NewString()
		if _, err := pool.Exec(ctx, `INSERT INTO items (id, user_id, name, description, search_query, shopping_url, list_id, suggested_by)
			VALUES ($1, $2, 'a gift', 'a gift', 'q', 'u', $3, $4)`, id, owner, listID, suggestedBy); err != nil {
			t.Fatal(err)
		}
		return id
	}
	sharedNow := list("Shared today", false)
	cleared := list("Cleared today", true)
	clearedItem := item("ava", cleared, nil)
	movedFrom := list("Moved from today", true)
	movedItem := item("ava", movedFrom, nil)
	unshared := list("Not shared", false)
	suggestedOn := list("Suggested on", true)
	carl := "carl"
	suggestion := item("carl", suggestedOn, &carl)

	clock := testenv.NewClock(time.Now())
	_, repo, _ := replica(t, dbURL, clock)
	s := reminders.New(pool, reminders.Options{Clock: clock.Now, Registry: prometheus.NewRegistry()},
		repo.EmptyListsDue(adapters.DefaultEmptyListQuiet))
	// Before anything happens today, only the suggested-on list is shared and empty, and it has
	// been so for months (its suggestion is no item of ava's): it is reminded of. Nothing else.
	if n, err := s.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("before today's changes: %d reminders (%v), want 1 (the list with only a suggestion)", n, err)
	}

	before := time.Now()
	if _, err := repo.SetShare(ctx, "ava", sharedNow, "tok-"+uuid.NewString(), "Ava"); err != nil {
		t.Fatal(err)
	}
	if err := repo.Delete(ctx, "ava", clearedItem); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "UPDATE items SET list_id = $1 WHERE id = $2", unshared, movedItem); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "DELETE FROM items WHERE id = $1", suggestion); err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	var recorded []string
	rows, _ := pool.Query(ctx, "SELECT list_id::text FROM list_quiet WHERE since BETWEEN $1 AND $2 ORDER BY list_id", before, after)
	recorded, _ = pgx.CollectRows(rows, pgx.RowTo[string])
	if len(recorded) != 3 || !slices.Contains(recorded, sharedNow) || !slices.Contains(recorded, cleared) || !slices.Contains(recorded, movedFrom) {
		t.Fatalf("lists whose quiet began today %v, want the shared, the cleared and the moved-from lists", recorded)
	}

	due := func(at time.Time) []string {
		t.Helper()
		clock.Set(at)
		rows, err := pool.Query(ctx, "SELECT subject FROM sent_reminders ORDER BY sent_at")
		if err != nil {
			t.Fatal(err)
		}
		sentBefore, _ := pgx.CollectRows(rows, pgx.RowTo[string])
		if _, err := s.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		rows, err = pool.Query(ctx, "SELECT subject FROM sent_reminders")
		if err != nil {
			t.Fatal(err)
		}
		all, _ := pgx.CollectRows(rows, pgx.RowTo[string])
		var sent []string
		for _, subject := range all {
			if !slices.Contains(sentBefore, subject) {
				sent = append(sent, subject)
			}
		}
		return sent
	}
	// Right after, a day later, and a minute short of three days: nothing.
	for _, at := range []time.Time{after.Add(time.Minute), after.Add(24 * time.Hour), before.Add(adapters.DefaultEmptyListQuiet - time.Minute)} {
		if sent := due(at); len(sent) != 0 {
			t.Fatalf("at %s, %d reminders went out (%v) for lists that were shared or cleared today", at, len(sent), sent)
		}
	}
	// Three days on, each of the three, once.
	sent := due(after.Add(adapters.DefaultEmptyListQuiet + time.Minute))
	slices.Sort(sent)
	want := []string{sharedNow, cleared, movedFrom}
	slices.Sort(want)
	if !slices.Equal(sent, want) {
		t.Fatalf("three days on, reminders for %v, want %v", sent, want)
	}
	if sent := due(after.Add(adapters.DefaultEmptyListQuiet + time.Hour)); len(sent) != 0 {
		t.Fatalf("reminded again: %v", sent)
	}
}
