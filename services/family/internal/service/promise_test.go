package service_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/migrate"
	"github.com/santa-wishlist/santa/pkg/postgres"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/family/internal/adapters"
)

// callWithEmail makes a request as uid whose verified ID token carries email.
func (e *env) callWithEmail(method, path, uid, email string, body any) (int, []byte) {
	e.t.Helper()
	c := testenv.NewClient(e.t, e.base)
	testenv.AsUser(e.t, c, "family", auth.User{UID: uid, Name: strings.ToUpper(uid[:1]) + uid[1:], Email: email})
	r := c.Send(method, path, body)
	return r.Status, r.Body
}

type openInvite struct {
	ID                   string
	Email                *string
	InvitedByName        string
	CreatedAt, ExpiresAt time.Time
}

func TestAdminsListAndRevokeInvitations(t *testing.T) {
	e := start(t)
	c := e.create("ann", "Smiths")
	id := "/api/families/" + c.ID
	e.join("ben", c.Invite.Token)
	other := e.create("zed", "Joneses")

	var invites []openInvite
	e.must(http.StatusOK, "GET", id+"/invites", "ann", nil, &invites)
	if len(invites) != 1 || invites[0].Email != nil || invites[0].InvitedByName != "Ann" || invites[0].ID == c.Invite.Token ||
		time.Until(invites[0].ExpiresAt) < 6*24*time.Hour || invites[0].CreatedAt.IsZero() {
		t.Fatalf("open invitations %+v", invites)
	}

	// "New link" revokes the link handed out before; an email invitation stays.
	var byEmail, link struct{ Token string }
	e.must(http.StatusCreated, "POST", id+"/invites", "ann", map[string]string{"email": "cleo@example.com"}, &byEmail)
	e.must(http.StatusCreated, "POST", id+"/invites", "ann", nil, &link)
	e.refused(http.StatusNotFound, "invite_not_found", "GET", "/api/invites/"+c.Invite.Token, "", nil)
	e.refused(http.StatusNotFound, "invite_not_found", "POST", "/api/invites/"+c.Invite.Token+"/accept", "cleo", nil)
	_, raw := e.call("GET", id+"/invites", "ann", nil)
	_ = json.Unmarshal(raw, &invites)
	if len(invites) != 2 || invites[0].Email != nil || invites[1].Email == nil || *invites[1].Email != "cleo@example.com" {
		t.Fatalf("open invitations after a new link %s", raw)
	}
	for _, token := range []string{c.Invite.Token, byEmail.Token, link.Token} {
		if strings.Contains(string(raw), token) {
			t.Fatalf("the list holds a working token: %s", raw)
		}
	}

	// Only an admin lists or revokes; another family's admin and a stranger find nothing.
	e.refused(http.StatusForbidden, "forbidden", "GET", id+"/invites", "ben", nil)
	e.refused(http.StatusForbidden, "forbidden", "DELETE", id+"/invites/"+link.Token, "ben", nil)
	e.refused(http.StatusNotFound, "not_found", "GET", id+"/invites", "zed", nil)
	e.refused(http.StatusNotFound, "not_found", "DELETE", id+"/invites/"+link.Token, "zed", nil)
	e.refused(http.StatusNotFound, "invite_not_found", "DELETE", "/api/families/"+other.ID+"/invites/"+link.Token, "zed", nil)
	e.refused(http.StatusNotFound, "invite_not_found", "DELETE", id+"/invites/"+other.Invite.Token, "ann", nil)
	e.refused(http.StatusNotFound, "invite_not_found", "DELETE", id+"/invites/nonsense", "ann", nil)

	// Revoked by its id (the list's handle) and by its token: both stop working at once.
	e.must(http.StatusNoContent, "DELETE", id+"/invites/"+invites[1].ID, "ann", nil, nil)
	e.must(http.StatusNoContent, "DELETE", id+"/invites/"+link.Token, "ann", nil, nil)
	e.refused(http.StatusNotFound, "invite_not_found", "DELETE", id+"/invites/"+link.Token, "ann", nil)
	for _, token := range []string{byEmail.Token, link.Token} {
		e.refused(http.StatusNotFound, "invite_not_found", "GET", "/api/invites/"+token, "", nil)
		e.refused(http.StatusNotFound, "invite_not_found", "POST", "/api/invites/"+token+"/accept", "cleo", nil)
	}
	e.must(http.StatusOK, "GET", id+"/invites", "ann", nil, &invites)
	if len(invites) != 0 {
		t.Fatalf("revoked invitations still listed: %+v", invites)
	}
	// The other family's link was untouched.
	e.must(http.StatusOK, "GET", "/api/invites/"+other.Invite.Token, "", nil, nil)
}

func TestRemovedMembersCannotComeBackThroughAnOldInvitation(t *testing.T) {
	e := start(t)
	c := e.create("ann", "Smiths")
	id := "/api/families/" + c.ID
	var forBen struct{ Token string }
	e.must(http.StatusCreated, "POST", id+"/invites", "ann", map[string]string{"email": "ben@example.com"}, &forBen)
	e.join("ben", c.Invite.Token)
	e.join("cleo", c.Invite.Token)

	e.must(http.StatusNoContent, "DELETE", id+"/members/ben", "ann", nil, nil)   // removed
	e.must(http.StatusNoContent, "DELETE", id+"/members/cleo", "cleo", nil, nil) // left
	for _, uid := range []string{"ben", "cleo"} {
		e.refused(http.StatusNotFound, "invite_not_found", "POST", "/api/invites/"+c.Invite.Token+"/accept", uid, nil)
		e.refused(http.StatusNotFound, "not_found", "GET", id, uid, nil)
	}
	if code, raw := e.callWithEmail("POST", "/api/invites/"+forBen.Token+"/accept", "ben", "ben@example.com", nil); code != http.StatusNotFound ||
		!strings.Contains(string(raw), "invite_not_found") {
		t.Fatalf("Ben's own email invitation from before his removal: %d %s", code, raw)
	}
	// The same link still serves anyone else.
	e.join("dan", c.Invite.Token)

	// An invitation made after the removal lets them in again.
	var fresh struct{ Token string }
	e.must(http.StatusCreated, "POST", id+"/invites", "ann", nil, &fresh)
	if f := e.join("ben", fresh.Token); f.ID != c.ID {
		t.Fatalf("Ben back in %+v", f)
	}
	// Removed again: the link he just used is older than this removal.
	e.must(http.StatusNoContent, "DELETE", id+"/members/ben", "ann", nil, nil)
	e.refused(http.StatusNotFound, "invite_not_found", "POST", "/api/invites/"+fresh.Token+"/accept", "ben", nil)
}

func TestAnEmailInvitationIsForThatAddressOnly(t *testing.T) {
	e := start(t)
	c := e.create("ann", "Smiths")
	id := "/api/families/" + c.ID
	var inv struct{ Token string }
	e.must(http.StatusCreated, "POST", id+"/invites", "ann", map[string]string{"email": "Ben@Example.com"}, &inv)

	// The accept page still reads it, for anyone.
	e.must(http.StatusOK, "GET", "/api/invites/"+inv.Token, "", nil, nil)
	for _, email := range []string{"zed@example.com", "", "ben@example.com.evil.test"} {
		code, raw := e.callWithEmail("POST", "/api/invites/"+inv.Token+"/accept", "zed", email, nil)
		if code != http.StatusForbidden || !strings.Contains(string(raw), `"invite_for_someone_else"`) {
			t.Fatalf("accepted by %q: %d %s", email, code, raw)
		}
	}
	e.refused(http.StatusNotFound, "not_found", "GET", id, "zed", nil)
	var f family
	e.must(http.StatusOK, "GET", id, "ann", nil, &f)
	if len(f.Members) != 1 {
		t.Fatalf("members after refused accepts %+v", f.Members)
	}
	code, raw := e.callWithEmail("POST", "/api/invites/"+inv.Token+"/accept", "ben", "ben@example.COM", nil)
	if code != http.StatusOK || json.Unmarshal(raw, &f) != nil || len(f.Members) != 2 {
		t.Fatalf("the invited address: %d %s", code, raw)
	}
}

type drawAnswer struct {
	DrawnAt           time.Time
	Participants      int
	EveryoneCanDeduce bool
}

type santaAnswer struct {
	Exclusions        [][]string
	EveryoneCanDeduce bool
	Assignee          struct{ UID string }
}

func TestADrawThatWouldNotBeSecretIsRefused(t *testing.T) {
	e := start(t)
	c := e.create("ann", "Ring")
	id := "/api/families/" + c.ID
	for _, m := range []string{"ben", "cleo", "dan", "eve"} {
		e.join(m, c.Invite.Token)
	}
	// Every pair but the circle Ann→Ben→Cleo→Dan→Eve→Ann is excluded: two draws are left, and
	// the admin's own match would say which.
	ring := [][]string{{"ann", "cleo"}, {"ann", "dan"}, {"ben", "dan"}, {"ben", "eve"}, {"cleo", "eve"}}
	code, raw := e.call("POST", id+"/secret-santa", "ann", map[string]any{"exclusions": ring})
	var answer struct {
		Error struct {
			Code, Message string
			Fields        map[string]string
		}
	}
	_ = json.Unmarshal(raw, &answer)
	if code != http.StatusConflict || answer.Error.Code != "draw_not_secret" ||
		!strings.Contains(answer.Error.Message, "drop Ann–Dan, Ben–Eve and Cleo–Eve") ||
		answer.Error.Fields["exclusions.1"] != "Ann–Dan" || answer.Error.Fields["exclusions.3"] != "Ben–Eve" ||
		answer.Error.Fields["exclusions.4"] != "Cleo–Eve" || len(answer.Error.Fields) != 4 {
		t.Fatalf("the ring: %d %s", code, raw)
	}
	e.refused(http.StatusNotFound, "no_draw", "GET", id+"/secret-santa", "ann", nil)

	// Dropping what it named draws; every participant, admin or not, sees the exclusions.
	kept := [][]string{{"cleo", "ann"}, {"ben", "dan"}}
	var drawn drawAnswer
	e.must(http.StatusCreated, "POST", id+"/secret-santa", "ann", map[string]any{"exclusions": kept}, &drawn)
	if drawn.Participants != 5 || drawn.EveryoneCanDeduce {
		t.Fatalf("draw %+v", drawn)
	}
	for _, m := range []string{"ann", "dan"} {
		var got santaAnswer
		e.must(http.StatusOK, "GET", id+"/secret-santa", m, nil, &got)
		if !slices.EqualFunc(got.Exclusions, [][]string{{"ann", "cleo"}, {"ben", "dan"}}, slices.Equal) || got.EveryoneCanDeduce {
			t.Fatalf("%s sees %+v", m, got)
		}
	}
	e.refused(http.StatusBadRequest, "validation_failed", "POST", id+"/secret-santa", "ann",
		map[string]any{"exclusions": slices.Repeat([][]string{{"ann", "ben"}}, 101)})
}

func TestThreeCanAllDeduceAndAreToldSo(t *testing.T) {
	e := start(t)
	c := e.create("ann", "Three")
	id := "/api/families/" + c.ID
	e.join("ben", c.Invite.Token)
	e.join("cleo", c.Invite.Token)
	var drawn drawAnswer
	e.must(http.StatusCreated, "POST", id+"/secret-santa", "ann", map[string]any{}, &drawn)
	if !drawn.EveryoneCanDeduce || drawn.Participants != 3 {
		t.Fatalf("draw of three %+v", drawn)
	}
	var got santaAnswer
	e.must(http.StatusOK, "GET", id+"/secret-santa", "ben", nil, &got)
	if !got.EveryoneCanDeduce || got.Exclusions == nil || len(got.Exclusions) != 0 {
		t.Fatalf("Ben sees %+v", got)
	}
}

// Migration 0003 on a database with families, invitations and draws: existing draws keep
// working, show no exclusions, and a draw of three says everyone can deduce it.
func TestTheInvitesMigrationOnAPopulatedDatabase(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	ctx := context.Background()
	pool, err := postgres.ConnectSchema(ctx, dbURL, "family")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	old := fstest.MapFS{}
	for _, name := range []string{"0001_families.sql", "0002_shared_lists.sql"} {
		data, err := fs.ReadFile(adapters.Migrations(), name)
		if err != nil {
			t.Fatal(err)
		}
		old[name] = &fstest.MapFile{Data: data}
	}
	if err := migrate.Apply(ctx, pool, "family", old, quiet); err != nil {
		t.Fatal(err)
	}
	three, four := uuid.NewString(), uuid.NewString()
	for _, q := range []string{
		"INSERT INTO families (id, name, created_by) VALUES ($1, 'Three', 'ann'), ($2, 'Four', 'ann')",
		`INSERT INTO family_members (family_id, uid, display_name, role) VALUES ($1, 'ann', 'Ann', 'admin'), ($1, 'ben', 'Ben', 'member'),
			($1, 'cleo', 'Cleo', 'member'), ($2, 'ann', 'Ann', 'admin'), ($2, 'ben', 'Ben', 'member'), ($2, 'cleo', 'Cleo', 'member'), ($2, 'dan', 'Dan', 'member')`,
		`INSERT INTO family_invites (token_hash, family_id, invited_by, invited_by_name, expires_at)
			VALUES ('\x01', $1, 'ann', 'Ann', now() + interval '1 day'), ('\x02', $2, 'ann', 'Ann', now() + interval '1 day')`,
		"INSERT INTO secret_santa_draws (family_id, drawn_by, drawn_at) VALUES ($1, 'ann', now()), ($2, 'ann', now())",
		`INSERT INTO secret_santa_pairs (family_id, giver, receiver) VALUES ($1, 'ann', 'ben'), ($1, 'ben', 'cleo'), ($1, 'cleo', 'ann'),
			($2, 'ann', 'ben'), ($2, 'ben', 'ann'), ($2, 'cleo', 'dan'), ($2, 'dan', 'cleo')`,
	} {
		if _, err := pool.Exec(ctx, q, three, four); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := migrate.Apply(ctx, pool, "family", adapters.Migrations(), quiet); err != nil {
		t.Fatal(err)
	}
	repo := adapters.NewRepository(pool)
	for _, tc := range []struct {
		family   string
		everyone bool
	}{{three, true}, {four, false}} {
		m, err := repo.MyMatch(ctx, tc.family, "ann")
		if err != nil || m.Assignee.UID != "ben" || m.EveryoneCanDeduce != tc.everyone || m.Exclusions == nil || len(m.Exclusions) != 0 {
			t.Fatalf("after the migration: %+v, %v", m, err)
		}
	}
	invites, err := repo.Invites(ctx, three, "ann")
	if err != nil || len(invites) != 1 {
		t.Fatalf("old invitation after the migration: %+v, %v", invites, err)
	}
}
