//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/minio/minio-go/v7"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

// fullAccount is a user with something in every store: lists and items (one with a photo),
// an unattached upload, a share, a claim on another's list, a family with a draw, notices and
// idempotency keys. bob is the other user, whose data must survive.
type fullAccount struct {
	anna, bob   *client
	annaS, bobS testenv.Session
	photoURLs   []string
	// every version MinIO held of them before the deletion, with its version id
	photoVersions []minio.ObjectInfo
	bobItem       string
	bobToken      string
	familyID      string
}

func makeFullAccount(t *testing.T) fullAccount {
	var a fullAccount
	a.annaS = testenv.SignUp(t, testenv.UniqueEmail("anna"), "secret123", "Anna")
	a.bobS = testenv.SignUp(t, testenv.UniqueEmail("bob"), "secret123", "Bob")
	a.anna = &client{t: t, base: baseURL(t), token: a.annaS.IDToken}
	a.bob = &client{t: t, base: baseURL(t), token: a.bobS.IDToken}
	annaLive := a.anna.stream(t)
	expect(t, annaLive, "hello", "count")

	// An item with a photo, added with an Idempotency-Key, and an upload never attached.
	var it struct {
		ID       string
		ImageURL string
	}
	code, body := a.anna.json("POST", "/api/wishlist", map[string]any{
		"name": "Teddy Bear", "description": "A soft brown bear with a red scarf", "category": "Toys",
		"imageUrl": photoDataURL(t),
	}, "Idempotency-Key", "anna-bear-1")
	if code != http.StatusCreated || json.Unmarshal(body, &it) != nil || it.ImageURL == "" {
		t.Fatalf("add with photo: %d %s", code, body)
	}
	var up struct{ URL, ThumbnailURL string }
	code, body = a.anna.json("POST", "/api/media", map[string]any{"dataUrl": photoDataURL(t)}, "Idempotency-Key", "anna-upload-1")
	if code != http.StatusCreated || json.Unmarshal(body, &up) != nil {
		t.Fatalf("upload: %d %s", code, body)
	}
	// Signed addresses as answered (the item's thumbnail has none of its own: only media's
	// upload answer names thumbnails). Each opens now, so a 404 after the deletion means gone.
	a.photoURLs = []string{it.ImageURL, up.URL, up.ThumbnailURL}
	for _, u := range a.photoURLs {
		if code := mediaStatus(t, u); code != http.StatusOK {
			t.Fatalf("photo %s before the deletion: %d", u, code)
		}
	}
	// The bucket is versioned: a 404 after the deletion could be a delete marker over bytes
	// still kept, so the versions are recorded here and fetched by id afterwards.
	for _, u := range []string{it.ImageURL, up.URL} {
		a.photoVersions = append(a.photoVersions, photoVersions(t, u)...)
	}
	if len(a.photoVersions) < 4 {
		t.Fatalf("%d versions of two photos and their thumbnails in MinIO: %+v", len(a.photoVersions), a.photoVersions)
	}
	expect(t, annaLive, "wishlist-count", `"count":1`)

	var lists []struct{ ID string }
	a.anna.must(200, "GET", "/api/lists", nil, &lists)
	var share struct{ Token string }
	a.anna.must(200, "POST", "/api/lists/"+lists[0].ID+"/share", nil, &share)
	a.anna.must(201, "POST", "/api/lists", map[string]any{"name": "Birthday"}, nil)

	// Bob's list, shared; Anna claims on it and Bob on Anna's.
	var bobIt struct{ ID string }
	a.bob.must(201, "POST", "/api/wishlist", map[string]any{"name": "Kite", "description": "A red kite for windy days",
		"category": "Toys", "quantity": 3}, &bobIt)
	a.bobItem = bobIt.ID
	var bobLists []struct{ ID string }
	a.bob.must(200, "GET", "/api/lists", nil, &bobLists)
	var bobShare struct{ Token string }
	a.bob.must(200, "POST", "/api/lists/"+bobLists[0].ID+"/share", nil, &bobShare)
	a.bobToken = bobShare.Token
	a.anna.must(200, "PUT", "/api/shared/"+a.bobToken+"/items/"+a.bobItem+"/claim", map[string]any{"quantity": 2}, nil)
	a.bob.must(200, "PUT", "/api/shared/"+share.Token+"/items/"+it.ID+"/claim", map[string]any{"quantity": 1}, nil)
	// Anna starts a group gift for Bob's last kite; each keeps a budget for the other.
	a.anna.must(201, "POST", "/api/shared/"+a.bobToken+"/items/"+a.bobItem+"/group-gift",
		map[string]any{"target": "20.00", "currency": "EUR", "amount": "5.00"}, nil)
	a.anna.must(200, "PUT", "/api/budgets/u:"+a.bobS.UID, map[string]any{"amount": "30.00", "currency": "EUR", "displayName": "Bob"}, nil)
	a.bob.must(200, "PUT", "/api/budgets/u:"+a.annaS.UID, map[string]any{"amount": "30.00", "currency": "EUR", "displayName": "Anna"}, nil)

	// A family of two with a draw: Anna is its only admin.
	var fam struct {
		ID     string
		Invite struct{ Token string }
	}
	a.anna.must(201, "POST", "/api/families", map[string]string{"name": "The Smiths"}, &fam)
	a.familyID = fam.ID
	a.bob.must(200, "POST", "/api/invites/"+fam.Invite.Token+"/accept", nil, nil)
	a.anna.must(201, "POST", "/api/families/"+fam.ID+"/invites", map[string]string{}, nil)
	a.anna.must(201, "POST", "/api/families/"+fam.ID+"/secret-santa", map[string]any{}, nil)
	expect(t, annaLive, "secret-santa", "")

	var acc struct {
		UID             string
		Email           string
		DeletionPending bool
	}
	a.anna.must(200, "GET", "/api/account", nil, &acc)
	if acc.UID != a.annaS.UID || acc.Email != a.annaS.Email || acc.DeletionPending {
		t.Fatalf("account %+v", acc)
	}
	return a
}

func stackDB(t *testing.T) *pgxpool.Pool {
	url := envOr("SANTA_E2E_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/santa_test?sslmode=disable")
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// rowsMentioning counts, in every table of every service's schema, the rows with uid in any
// text or JSON column, by table. The deletion record is the one place allowed to hold it.
func rowsMentioning(t *testing.T, pool *pgxpool.Pool, uid string) map[string]int {
	ctx := context.Background()
	rows, err := pool.Query(ctx, `SELECT table_schema, table_name, column_name FROM information_schema.columns
		WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
		AND data_type IN ('text', 'jsonb', 'json', 'character varying')
		AND NOT (table_name = 'account_deletions' AND column_name = 'uid')`)
	if err != nil {
		t.Fatal(err)
	}
	type col struct{ schema, table, column string }
	var cols []col
	for rows.Next() {
		var c col
		if err := rows.Scan(&c.schema, &c.table, &c.column); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, c)
	}
	if len(cols) < 10 {
		t.Fatalf("only %d user-ish columns found: wrong database?", len(cols))
	}
	found := map[string]int{}
	for _, c := range cols {
		var n int
		q := fmt.Sprintf(`SELECT count(*) FROM %q.%q WHERE strpos(%q::text, $1) > 0`, c.schema, c.table, c.column)
		if err := pool.QueryRow(ctx, q, uid).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if n > 0 {
			found[c.schema+"."+c.table+"."+c.column] += n
		}
	}
	return found
}

// redisKeysOf lists the stack's Redis keys that name the user: the gateway's (uid in the key)
// and vision's (a hash of it).
func redisKeysOf(t *testing.T, uid string) []string {
	rdb := testenv.Redis(t)
	sum := sha256.Sum256([]byte(uid))
	var out []string
	for _, pattern := range []string{"*" + uid + "*", "*" + hex.EncodeToString(sum[:12]) + "*"} {
		keys, err := rdb.Keys(context.Background(), pattern).Result()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, keys...)
	}
	return out
}

// firebaseUserExists asks the Auth emulator's admin API for the uid.
func firebaseUserExists(t *testing.T, uid string) bool {
	raw, _ := json.Marshal(map[string]any{"localId": []string{uid}})
	req, _ := http.NewRequest("POST", fmt.Sprintf("http://%s/identitytoolkit.googleapis.com/v1/projects/demo-santa/accounts:lookup",
		testenv.AuthEmulatorHost()), bytes.NewReader(raw))
	req.Header.Set("Authorization", "Bearer owner")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct{ Users []any }
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return len(out.Users) > 0
}

func mediaStatus(t *testing.T, url string) int {
	resp, err := http.Get(baseURL(t) + url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func (a fullAccount) deleteAnna(t *testing.T) {
	code, body := a.anna.json("DELETE", "/api/account", map[string]string{"confirm": "someone@else.example"})
	if code != 400 || !strings.Contains(string(body), "confirm") {
		t.Fatalf("wrong confirmation: %d %s", code, body)
	}
	if code, body := a.anna.json("DELETE", "/api/account", map[string]string{"confirm": a.annaS.Email}); code != 202 {
		t.Fatalf("DELETE /api/account: %d %s", code, body)
	}
}

// completed waits for the deletion record to be complete (read in the database: the user's
// own token would make new rate counters while the test polls).
func completed(pool *pgxpool.Pool, uid string) error {
	var done bool
	err := pool.QueryRow(context.Background(), "SELECT completed_at IS NOT NULL FROM account_deletions WHERE uid = $1", uid).Scan(&done)
	if err != nil || !done {
		return fmt.Errorf("deletion of %s not complete (%v)", uid, err)
	}
	return nil
}

func (a fullAccount) assertNoTrace(t *testing.T, pool *pgxpool.Pool) {
	uid := a.annaS.UID
	if found := rowsMentioning(t, pool, uid); len(found) > 0 {
		t.Errorf("rows still mention the deleted user: %v", found)
	}
	if keys := redisKeysOf(t, uid); len(keys) > 0 {
		t.Errorf("Redis keys left: %v", keys)
	}
	for _, u := range a.photoURLs {
		if code := mediaStatus(t, u); code != 404 {
			t.Errorf("photo %s answers %d", u, code)
		}
	}
	// From the attacker's side, with the bucket's credentials: no version id recorded before
	// the deletion fetches anything, and no version or delete marker of the photos is left.
	for _, v := range a.photoVersions {
		if b, err := fetchVersion(t, v.Key, v.VersionID); err == nil {
			t.Errorf("%s version %s still answers %d bytes", v.Key, v.VersionID, len(b))
		}
	}
	for _, u := range a.photoURLs {
		if left := photoVersions(t, u); len(left) > 0 {
			t.Errorf("versions of %s left in MinIO: %+v", u, left)
		}
	}
	if firebaseUserExists(t, uid) {
		t.Error("the Firebase user still exists")
	}
	// Bob keeps his list, his item (all three units free again) and his family, now as admin.
	var shared struct {
		Items []struct {
			ID        string
			Remaining *int `json:"remaining"`
		}
	}
	a.bob.must(200, "GET", "/api/wishlist", nil, nil)
	(&client{t: t, base: baseURL(t)}).must(200, "GET", "/api/shared/"+a.bobToken, nil, &shared)
	var fams []struct {
		ID      string
		Role    string
		Members []struct{ UID string }
	}
	a.bob.must(200, "GET", "/api/families", nil, &fams)
	if len(fams) != 1 || fams[0].Role != "admin" || len(fams[0].Members) != 1 {
		t.Errorf("Bob's family after Anna's deletion: %+v", fams)
	}
	code, _ := a.bob.json("GET", "/api/families/"+a.familyID+"/secret-santa", nil)
	if code != 404 {
		t.Errorf("the draw that included Anna still answers %d", code)
	}
	var claimed int
	if err := pool.QueryRow(context.Background(), "SELECT COALESCE(sum(quantity), 0) FROM claims WHERE item_id = $1", a.bobItem).Scan(&claimed); err != nil || claimed != 0 {
		t.Errorf("Bob's item: %d units still claimed (%v)", claimed, err)
	}
	if found := rowsMentioning(t, pool, a.bobS.UID); len(found) == 0 {
		t.Error("Bob's rows are gone too")
	}
	if !firebaseUserExists(t, a.bobS.UID) {
		t.Error("Bob's Firebase user is gone")
	}
}

func TestDeletingAFullAccountLeavesNoTraceInAnyStore(t *testing.T) {
	pool := stackDB(t)
	a := makeFullAccount(t)
	a.deleteAnna(t)
	start := time.Now()
	testenv.Eventually(t, 30*time.Second, func() error { return completed(pool, a.annaS.UID) })
	t.Logf("every service confirmed the erasure in %s", time.Since(start).Round(time.Millisecond))
	a.assertNoTrace(t, pool)
}

// stack stops or starts services: the test stack's processes with stack.sh, or, when the suite
// runs against a cluster (make k8s-test), their Deployments scaled to none and back (paused at
// none where KEDA scales them).
func stack(t *testing.T, args ...string) {
	if onCluster() {
		in := "app.kubernetes.io/name in (" + strings.Join(args[1:], ",") + ")"
		switch args[0] {
		case "stop-service":
			for _, name := range args[1:] {
				stopDeployment(t, name)
			}
			kubectl(t, "wait", "--for=delete", "pod", "-l", in, "--timeout=120s")
		case "start-service":
			for _, name := range args[1:] {
				startDeployment(t, name)
			}
		default:
			t.Fatalf("stack %v: not on a cluster", args)
		}
		return
	}
	_, here, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(here), "..", "..")
	cmd := exec.Command(filepath.Join(root, "deploy", "local", "stack.sh"), args...)
	cmd.Env = append(os.Environ(), "STACK=test")
	// A file, not a pipe: a started service's log writer inherits the output and never closes
	// it, so waiting for a pipe's end would wait forever.
	out, err := os.CreateTemp(t.TempDir(), "stack")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Run(); err != nil {
		log, _ := os.ReadFile(out.Name())
		t.Fatalf("stack.sh %v: %v\n%s", args, err, log)
	}
}

func TestAccountErasureCompletesWhenStoppedServicesReturn(t *testing.T) {
	pool := stackDB(t)
	a := makeFullAccount(t)
	stack(t, "stop-service", "notification", "media")
	restarted := false
	t.Cleanup(func() {
		if !restarted {
			stack(t, "start-service", "notification", "media")
		}
	})
	a.deleteAnna(t)
	// The running services erase; the deletion waits for the two that are down.
	testenv.Eventually(t, 30*time.Second, func() error {
		var waiting bool
		err := pool.QueryRow(context.Background(), `SELECT wishlist_erased_at IS NOT NULL AND family_erased_at IS NOT NULL
			AND gateway_erased_at IS NOT NULL AND vision_erased_at IS NOT NULL AND notification_erased_at IS NULL
			AND media_erased_at IS NULL AND completed_at IS NULL FROM account_deletions WHERE uid = $1`, a.annaS.UID).Scan(&waiting)
		if err != nil || !waiting {
			return fmt.Errorf("not yet waiting on notification and media only (%v)", err)
		}
		return nil
	})
	var notices int
	if err := pool.QueryRow(context.Background(), "SELECT count(*) FROM notices WHERE user_id = $1", a.annaS.UID).Scan(&notices); err != nil || notices == 0 {
		t.Fatalf("notices erased while notification was down? %d (%v)", notices, err)
	}
	stack(t, "start-service", "notification", "media")
	restarted = true
	testenv.Eventually(t, 30*time.Second, func() error { return completed(pool, a.annaS.UID) })
	a.assertNoTrace(t, pool)
}
