package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/pkg/wiring"
	"github.com/santa-wishlist/santa/services/family/internal/service"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

type env struct {
	t       *testing.T
	base    string
	pool    *pgxpool.Pool
	natsURL string
}

func start(t *testing.T) *env {
	t.Helper()
	pool, dbURL := testenv.Postgres(t)
	// Another service's tables, as in the shared database: the family's live in their own schema.
	if _, err := pool.Exec(context.Background(), "CREATE TABLE outbox (id bigint PRIMARY KEY, other text)"); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(context.Background(), "ALTER DATABASE "+pgx.Identifier{pool.Config().ConnConfig.Database}.Sanitize()+" SET search_path = family, public"); err != nil {
		t.Fatal(err)
	}
	pool.Reset() // the test's own queries read the family's tables
	broker := testenv.StartNATS(t)
	cfg := service.Config{OutboxConfig: wiring.OutboxConfig{DatabaseURL: dbURL, NATSURL: broker.URL()}, Server: httpserver.Options{Service: "family", Addr: "127.0.0.1:0"},
		Identity: testenv.IdentityVerifier("family")}
	base, _ := testenv.Serve(t, func(ctx context.Context) (*httpserver.Server, error) { return service.Build(ctx, cfg, quiet) })
	return &env{t: t, base: base, pool: pool, natsURL: broker.URL()}
}

// call makes a request as uid (empty: anonymous) with the display name "Name-of-uid".
func (e *env) call(method, path, uid string, body any) (int, []byte) {
	e.t.Helper()
	u := auth.User{UID: uid}
	if uid != "" {
		u.Name = strings.ToUpper(uid[:1]) + uid[1:]
	}
	c := testenv.NewClient(e.t, e.base)
	testenv.AsUser(e.t, c, "family", u)
	r := c.Send(method, path, body)
	return r.Status, r.Body
}

// must calls and fails the test unless the status is want; it decodes the answer into out.
func (e *env) must(want int, method, path, uid string, body, out any) {
	e.t.Helper()
	code, raw := e.call(method, path, uid, body)
	if code != want {
		e.t.Fatalf("%s %s as %q: %d %s, want %d", method, path, uid, code, raw, want)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			e.t.Fatalf("%s %s: %v in %s", method, path, err, raw)
		}
	}
}

// refused checks a status and error code.
func (e *env) refused(status int, code, method, path, uid string, body any) string {
	e.t.Helper()
	got, raw := e.call(method, path, uid, body)
	var answer struct {
		Error struct{ Code, Message string }
	}
	_ = json.Unmarshal(raw, &answer)
	if got != status || answer.Error.Code != code {
		e.t.Fatalf("%s %s as %q: %d %s, want %d %s", method, path, uid, got, raw, status, code)
	}
	return answer.Error.Message
}

type created struct {
	ID, Name, Role string
	Invite         struct {
		Token, URL string
		ExpiresAt  time.Time
	}
}

type family struct {
	ID, Name, Role string
	Members        []struct{ UID, DisplayName, Role string }
	Lists          []any
}

func (e *env) create(uid, name string) created {
	e.t.Helper()
	var c created
	e.must(http.StatusCreated, "POST", "/api/families", uid, map[string]string{"name": name}, &c)
	return c
}

func (e *env) join(uid, token string) family {
	e.t.Helper()
	var f family
	e.must(http.StatusOK, "POST", "/api/invites/"+token+"/accept", uid, nil, &f)
	return f
}

func TestCreateInviteAndJoin(t *testing.T) {
	e := start(t)
	c := e.create("ann", "  The Smiths ")
	if c.Name != "The Smiths" || c.Role != "admin" || len(c.Invite.Token) < 22 || c.Invite.URL != "/join/"+c.Invite.Token {
		t.Fatalf("created %+v", c)
	}
	if d := time.Until(c.Invite.ExpiresAt); d < 7*24*time.Hour-time.Minute || d > 7*24*time.Hour+time.Minute {
		t.Fatalf("invite expires in %v, want 7 days", d)
	}
	// The accept page reads the invitation before the visitor signs in.
	var info struct{ FamilyName, InvitedBy string }
	e.must(http.StatusOK, "GET", "/api/invites/"+c.Invite.Token, "", nil, &info)
	if info.FamilyName != "The Smiths" || info.InvitedBy != "Ann" {
		t.Fatalf("invite info %+v", info)
	}
	e.refused(http.StatusUnauthorized, "unauthenticated", "POST", "/api/invites/"+c.Invite.Token+"/accept", "", nil)

	f := e.join("ben", c.Invite.Token)
	if f.ID != c.ID || f.Role != "member" || len(f.Members) != 2 || f.Lists == nil {
		t.Fatalf("joined %+v", f)
	}
	// Accepting again changes nothing.
	if again := e.join("ben", c.Invite.Token); len(again.Members) != 2 {
		t.Fatalf("second accept: %+v", again)
	}
	var fams []family
	e.must(http.StatusOK, "GET", "/api/families", "ben", nil, &fams)
	if len(fams) != 1 || fams[0].Members[0].UID != "ann" || fams[0].Members[0].Role != "admin" ||
		fams[0].Members[1].UID != "ben" || fams[0].Members[1].DisplayName != "Ben" {
		t.Fatalf("ben's families %+v", fams)
	}
	e.must(http.StatusOK, "GET", "/api/families", "zed", nil, &fams)
	if len(fams) != 0 {
		t.Fatalf("a stranger sees %+v", fams)
	}

	// A token is 192 random bits: two are never alike.
	var inv struct{ Token, URL string }
	e.must(http.StatusCreated, "POST", "/api/families/"+c.ID+"/invites", "ann", nil, &inv)
	if inv.Token == c.Invite.Token || len(inv.Token) != 32 {
		t.Fatalf("second invite %+v", inv)
	}
	e.refused(http.StatusNotFound, "invite_not_found", "GET", "/api/invites/"+inv.Token+"x", "", nil)
	e.refused(http.StatusNotFound, "invite_not_found", "POST", "/api/invites/nope/accept", "cleo", nil)
}

func TestInvitationsExpire(t *testing.T) {
	e := start(t)
	c := e.create("ann", "Smiths")
	if _, err := e.pool.Exec(context.Background(), "UPDATE family_invites SET expires_at = now() - interval '1 second'"); err != nil {
		t.Fatal(err)
	}
	e.refused(http.StatusNotFound, "invite_not_found", "GET", "/api/invites/"+c.Invite.Token, "", nil)
	e.refused(http.StatusNotFound, "invite_not_found", "POST", "/api/invites/"+c.Invite.Token+"/accept", "ben", nil)
	// Only the hash of a token is stored.
	var n int
	if err := e.pool.QueryRow(context.Background(), "SELECT count(*) FROM family_invites WHERE position($1::bytea in token_hash) > 0",
		[]byte(c.Invite.Token)).Scan(&n); err != nil || n != 0 {
		t.Fatalf("token stored in clear (%d, %v)", n, err)
	}
}

func TestRolesAndAnotherFamilysData(t *testing.T) {
	e := start(t)
	c := e.create("ann", "Smiths")
	e.join("ben", c.Invite.Token)
	other := e.create("zed", "Joneses")
	id := "/api/families/" + c.ID

	// A member is not an admin.
	e.refused(http.StatusForbidden, "forbidden", "POST", id+"/invites", "ben", map[string]string{})
	e.refused(http.StatusForbidden, "forbidden", "POST", id+"/secret-santa", "ben", map[string]any{})
	e.refused(http.StatusForbidden, "forbidden", "DELETE", id+"/members/ann", "ben", nil)
	e.refused(http.StatusForbidden, "forbidden", "PATCH", id+"/members/ann", "ben", map[string]string{"role": "member"})

	// Someone from another family (an admin there) sees nothing of this one: 404 like nothing.
	for _, r := range []struct{ method, path string }{
		{"GET", id}, {"POST", id + "/invites"}, {"DELETE", id + "/members/ben"}, {"PATCH", id + "/members/ben"},
		{"POST", id + "/secret-santa"}, {"GET", id + "/secret-santa"}, {"GET", "/api/families/" + other.ID},
		{"GET", "/api/families/not-a-uuid"},
	} {
		body := map[string]any{"role": "admin"}
		uid := "zed"
		if strings.HasSuffix(r.path, other.ID) {
			uid = "ann"
		}
		e.refused(http.StatusNotFound, "not_found", r.method, r.path, uid, body)
	}
	e.refused(http.StatusNotFound, "not_found", "DELETE", id+"/members/zed", "ann", nil)

	// An empty id or token (a path such as /api/families//invites, which the router matches) is
	// answered as any unknown one, the sign-in first: not a 400 of the generated wrapper.
	for _, r := range []struct{ method, path string }{
		{"GET", "/api/families/%s/invites"}, {"POST", "/api/families/%s/invites"},
		{"DELETE", "/api/families/%s/invites/x"}, {"DELETE", "/api/families/%s/members/ben"},
		{"PATCH", "/api/families/%s/members/ben"}, {"GET", "/api/families/%s/secret-santa"},
		{"PATCH", "/api/families/%s/secret-santa"}, {"POST", "/api/families/%s/secret-santa"},
		{"GET", "/api/families/%s/secret-santa/messages"}, {"POST", "/api/families/%s/secret-santa/messages"},
		{"POST", "/api/invites/%s/accept"},
	} {
		for _, uid := range []string{"ann", ""} {
			body := map[string]any{"role": "admin", "to": "giftee", "text": "hi"}
			emptyCode, empty := e.call(r.method, fmt.Sprintf(r.path, ""), uid, body)
			unknownCode, unknown := e.call(r.method, fmt.Sprintf(r.path, "not-a-uuid"), uid, body)
			if emptyCode != unknownCode || !bytes.Equal(empty, unknown) {
				t.Errorf("%s %s as %q: %d %s, want %d %s as for an unknown id", r.method, fmt.Sprintf(r.path, ""), uid, emptyCode, empty, unknownCode, unknown)
			}
		}
	}

	// Bad input is a 400 with the field.
	e.refused(http.StatusBadRequest, "validation_failed", "POST", "/api/families", "ann", map[string]string{"name": " "})
	e.refused(http.StatusBadRequest, "validation_failed", "POST", "/api/families", "ann", map[string]string{"name": strings.Repeat("x", 61)})
	e.refused(http.StatusBadRequest, "validation_failed", "POST", id+"/invites", "ann", map[string]string{"email": "not an email"})
	e.refused(http.StatusBadRequest, "validation_failed", "PATCH", id+"/members/ben", "ann", map[string]string{"role": "owner"})
	if code, raw := e.call("POST", "/api/families", "ann", "{"); code != http.StatusBadRequest || !bytes.Contains(raw, []byte(`"error"`)) {
		t.Fatalf("bad JSON: %d %s", code, raw)
	}
}

func TestLastAdminAndRemovedMembers(t *testing.T) {
	e := start(t)
	c := e.create("ann", "Smiths")
	id := "/api/families/" + c.ID
	e.join("ben", c.Invite.Token)
	e.join("cleo", c.Invite.Token)

	e.refused(http.StatusConflict, "last_admin", "DELETE", id+"/members/ann", "ann", nil)
	e.refused(http.StatusConflict, "last_admin", "PATCH", id+"/members/ann", "ann", map[string]string{"role": "member"})
	var f family
	e.must(http.StatusOK, "PATCH", id+"/members/ben", "ann", map[string]string{"role": "admin"}, &f)
	e.must(http.StatusNoContent, "DELETE", id+"/members/ann", "ann", nil, nil) // now Ann may leave
	e.refused(http.StatusNotFound, "not_found", "GET", id, "ann", nil)

	// Ben, now the admin, removes Cleo: she sees nothing of the family any more.
	e.must(http.StatusNoContent, "DELETE", id+"/members/cleo", "ben", nil, nil)
	for _, path := range []string{id, id + "/secret-santa"} {
		e.refused(http.StatusNotFound, "not_found", "GET", path, "cleo", nil)
	}
	var fams []family
	e.must(http.StatusOK, "GET", "/api/families", "cleo", nil, &fams)
	if len(fams) != 0 {
		t.Fatalf("a removed member still sees %+v", fams)
	}
	// The last member leaving deletes the family; its links stop working.
	e.must(http.StatusNoContent, "DELETE", id+"/members/ben", "ben", nil, nil)
	e.refused(http.StatusNotFound, "invite_not_found", "GET", "/api/invites/"+c.Invite.Token, "", nil)

	left := familyEvents(t, e, events.TypeFamilyMemberLeft)
	if len(left) != 3 {
		t.Fatalf("%d family.member.left events, want 3", len(left))
	}
	var last struct {
		UID           string
		RemovedBy     string
		FamilyDeleted bool
	}
	_ = json.Unmarshal(left[1].Data, &last)
	if last.UID != "cleo" || last.RemovedBy != "ben" {
		t.Fatalf("removal event %s", left[1].Data)
	}
	_ = json.Unmarshal(left[2].Data, &last)
	if !last.FamilyDeleted {
		t.Fatalf("last member's event %s", left[2].Data)
	}
}

func TestLimits(t *testing.T) {
	e := start(t)
	for i := range 10 {
		e.create("ann", fmt.Sprintf("Family %d", i))
	}
	e.refused(http.StatusConflict, "too_many_families", "POST", "/api/families", "ann", map[string]string{"name": "Eleventh"})
	full := e.create("ben", "Big family")
	for i := range 49 {
		e.join(fmt.Sprintf("m%02d", i), full.Invite.Token)
	}
	e.refused(http.StatusConflict, "family_full", "POST", "/api/invites/"+full.Invite.Token+"/accept", "late", nil)
	// Ann is in 10 families already: joining an eleventh is refused too.
	other := e.create("cleo", "Cleo's")
	e.refused(http.StatusConflict, "too_many_families", "POST", "/api/invites/"+other.Invite.Token+"/accept", "ann", nil)
}

type match struct {
	DrawnAt  time.Time
	Budget   string
	Assignee struct {
		UID, DisplayName string
		Lists            []any
	}
}

func TestSecretSantaAnswersOnlyTheCallersOwnMatch(t *testing.T) {
	e := start(t)
	c := e.create("ann", "Smiths")
	id := "/api/families/" + c.ID
	members := []string{"ann", "ben", "cleo", "dan", "eve"}
	for _, m := range members[1:] {
		e.join(m, c.Invite.Token)
	}
	e.refused(http.StatusNotFound, "no_draw", "GET", id+"/secret-santa", "ben", nil)
	e.refused(http.StatusBadRequest, "validation_failed", "POST", id+"/secret-santa", "ann",
		map[string]any{"exclusions": [][]string{{"ann", "zed"}}})
	e.refused(http.StatusBadRequest, "validation_failed", "POST", id+"/secret-santa", "ann",
		map[string]any{"exclusions": [][]string{{"ann", "ben", "cleo"}}})
	e.refused(http.StatusBadRequest, "wrong_type", "POST", id+"/secret-santa", "ann",
		map[string]any{"exclusions": "ann"})

	// Ann and Ben, Cleo and Dan are couples.
	req := map[string]any{"exclusions": [][]string{{"ann", "ben"}, {"dan", "cleo"}}, "budget": "€30"}
	seen := map[string]int{}
	for round := range 20 {
		var res struct {
			DrawnAt      time.Time
			Participants int
		}
		code, raw := e.call("POST", id+"/secret-santa", "ann", req)
		if code != http.StatusCreated || json.Unmarshal(raw, &res) != nil || res.Participants != 5 {
			t.Fatalf("draw: %d %s", code, raw)
		}
		for _, word := range members[1:] { // the answer names nobody (as a uid or a name)
			if bytes.Contains(bytes.ToLower(raw), []byte(`"`+word+`"`)) {
				t.Fatalf("the draw's answer names %s: %s", word, raw)
			}
		}
		gives, receives := map[string]string{}, map[string]bool{}
		for _, m := range members {
			var got match
			e.must(http.StatusOK, "GET", id+"/secret-santa", m, nil, &got)
			if got.Budget != "€30" || !got.DrawnAt.Equal(res.DrawnAt) || got.Assignee.Lists == nil {
				t.Fatalf("%s's match %+v", m, got)
			}
			if got.Assignee.DisplayName != strings.ToUpper(got.Assignee.UID[:1])+got.Assignee.UID[1:] {
				t.Fatalf("assignee %+v", got.Assignee)
			}
			gives[m] = got.Assignee.UID
			receives[got.Assignee.UID] = true
		}
		for g, r := range gives {
			couple := map[string]string{"ann": "ben", "ben": "ann", "cleo": "dan", "dan": "cleo"}
			if g == r || couple[g] == r {
				t.Fatalf("round %d: %s gives to %s", round, g, r)
			}
		}
		if len(receives) != 5 {
			t.Fatalf("round %d: not everyone receives: %v", round, gives)
		}
		seen[fmt.Sprint(gives)]++
	}
	if len(seen) < 3 {
		t.Fatalf("20 redraws gave only %d different draws", len(seen))
	}

	// No event carries a pair: secretsanta.drawn names the participants in uid order only.
	drawn := familyEvents(t, e, events.TypeSecretSantaDrawn)
	if len(drawn) != 20 {
		t.Fatalf("%d secretsanta.drawn events, want 20", len(drawn))
	}
	var data map[string]any
	_ = json.Unmarshal(drawn[0].Data, &data)
	if fmt.Sprint(data["participants"]) != "[ann ben cleo dan eve]" || len(data) != 4 {
		t.Fatalf("secretsanta.drawn data %s", drawn[0].Data)
	}

	// Impossible: Eve excluded by everyone.
	msg := e.refused(http.StatusConflict, "draw_impossible", "POST", id+"/secret-santa", "ann",
		map[string]any{"exclusions": [][]string{{"eve", "ann"}, {"eve", "ben"}, {"eve", "cleo"}, {"eve", "dan"}}})
	if msg != "Eve excludes, or is excluded by, every other member, so there is nobody for Eve to give to" {
		t.Fatalf("message %q", msg)
	}
	// The previous draw still stands.
	e.must(http.StatusOK, "GET", id+"/secret-santa", "eve", nil, nil)

	// Someone leaving cancels the draw, which included them.
	e.must(http.StatusNoContent, "DELETE", id+"/members/eve", "eve", nil, nil)
	e.refused(http.StatusNotFound, "no_draw", "GET", id+"/secret-santa", "ann", nil)
	e.refused(http.StatusNotFound, "not_found", "GET", id+"/secret-santa", "eve", nil)
}

func TestTwoWhoExcludeEachOther(t *testing.T) {
	e := start(t)
	c := e.create("ben", "Pair")
	e.join("cleo", c.Invite.Token)
	msg := e.refused(http.StatusConflict, "draw_impossible", "POST", "/api/families/"+c.ID+"/secret-santa", "ben",
		map[string]any{"exclusions": [][]string{{"cleo", "ben"}}})
	if msg != "Ben and Cleo exclude each other and are the only two members" {
		t.Fatalf("message %q", msg)
	}
	alone := e.create("ann", "Solo")
	msg = e.refused(http.StatusConflict, "draw_impossible", "POST", "/api/families/"+alone.ID+"/secret-santa", "ann", map[string]any{})
	if msg != "Ann is the only member" {
		t.Fatalf("message %q", msg)
	}
}

func TestEventsMatchTheirSchemas(t *testing.T) {
	e := start(t)
	c := e.create("ann", "Smiths")
	id := "/api/families/" + c.ID
	e.must(http.StatusCreated, "POST", id+"/invites", "ann", map[string]string{"email": "Ben@Example.com"}, nil)
	e.join("ben", c.Invite.Token)
	e.join("cleo", c.Invite.Token)
	e.must(http.StatusCreated, "POST", id+"/secret-santa", "ann", map[string]any{}, nil)
	e.must(http.StatusNoContent, "DELETE", id+"/members/cleo", "ann", nil, nil)

	all := familyEvents(t, e, "")
	var types []string
	for _, env := range all {
		conformsToSchema(t, env)
		types = append(types, env.Type)
	}
	// The maker's own joining comes first: wishlist learns every membership from these events.
	want := []string{"family.member.joined", "family.invited", "family.member.joined", "family.member.joined", "secretsanta.drawn", "family.member.left"}
	if !slices.Equal(types, want) {
		t.Fatalf("events %v, want %v", types, want)
	}
	var maker struct {
		UID, Role string
		Admins    []string
	}
	_ = json.Unmarshal(all[0].Data, &maker)
	if maker.UID != "ann" || maker.Role != "admin" || all[0].UserID != "ann" || !slices.Equal(maker.Admins, []string{"ann"}) {
		t.Fatalf("the maker's family.member.joined %s", all[0].Data)
	}
	all = all[1:]
	var invited struct{ Email, URL, InvitedBy, FamilyName string }
	_ = json.Unmarshal(all[0].Data, &invited)
	if invited.Email != "Ben@Example.com" || !strings.HasPrefix(invited.URL, "/join/") || invited.InvitedBy != "Ann" || invited.FamilyName != "Smiths" {
		t.Fatalf("family.invited %s", all[0].Data)
	}
	var joined struct{ Admins []string }
	_ = json.Unmarshal(all[2].Data, &joined)
	if !slices.Equal(joined.Admins, []string{"ann"}) || all[2].UserID != "cleo" {
		t.Fatalf("family.member.joined %s", all[2].Data)
	}
}

// An invitation by email carries the inviter's app language for the email to be written in:
// the body's language, else the first of the browser's Accept-Language, else none (notification
// then takes the inviter's settings'). A language that is no tag is refused: 400
// validation_failed (api/openapi.yaml's error shape) with the field's message.
func TestAnInvitationCarriesTheInvitersLanguage(t *testing.T) {
	e := start(t)
	c := e.create("ann", "Smiths")
	invites := "/api/families/" + c.ID + "/invites"
	e.must(http.StatusCreated, "POST", invites, "ann", map[string]string{"email": "ben@example.com", "language": "de"}, nil)
	client := testenv.NewClient(t, e.base)
	testenv.AsUser(t, client, "family", auth.User{UID: "ann", Name: "Ann"})
	if r := client.Send("POST", invites, map[string]string{"email": "cleo@example.com"}, "Accept-Language", "fr-CA,fr;q=0.9,en;q=0.5"); r.Status != http.StatusCreated {
		t.Fatalf("invite with Accept-Language: %d %s", r.Status, r.Body)
	}
	if r := client.Send("POST", invites, map[string]string{"email": "dora@example.com", "language": "es"}, "Accept-Language", "de"); r.Status != http.StatusCreated {
		t.Fatalf("invite with both: %d %s", r.Status, r.Body)
	}
	e.must(http.StatusCreated, "POST", invites, "ann", map[string]string{"email": "eve@example.com"}, nil)
	msg := e.refused(http.StatusBadRequest, "validation_failed", "POST", invites, "ann", map[string]string{"email": "fay@example.com", "language": "<German>"})
	if msg != "The language must be a language tag such as de or fr-CA." {
		t.Fatalf("message %q", msg)
	}

	got := map[string]string{}
	for _, env := range familyEvents(t, e, events.TypeFamilyInvited) {
		conformsToSchema(t, env)
		var d events.FamilyInvitedData
		if err := json.Unmarshal(env.Data, &d); err != nil {
			t.Fatal(err)
		}
		got[d.Email] = d.Language
	}
	want := map[string]string{"ben@example.com": "de", "cleo@example.com": "fr-CA", "dora@example.com": "es", "eve@example.com": ""}
	if !maps.Equal(got, want) {
		t.Fatalf("invitations' languages %v, want %v", got, want)
	}
}

// familyEvents waits until the outbox is empty, then reads the test's own stream (its own NATS
// server) and keeps one type (empty: all).
func familyEvents(t *testing.T, e *env, eventType string) []events.Envelope {
	t.Helper()
	natsURL := e.natsURL
	var out []events.Envelope
	testenv.Eventually(t, 10*time.Second, func() error {
		out = out[:0]
		var pending int
		if err := e.pool.QueryRow(context.Background(), "SELECT count(*) FROM outbox WHERE published_at IS NULL").Scan(&pending); err != nil || pending > 0 {
			return fmt.Errorf("%d events still in the outbox (%v)", pending, err)
		}
		nc, js, err := events.Connect(natsURL, "reader", quiet)
		if err != nil {
			return err
		}
		defer nc.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		stream, err := js.Stream(ctx, events.StreamName)
		if err != nil {
			return err
		}
		info, err := stream.Info(ctx)
		if err != nil {
			return err
		}
		cons, err := stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
		if err != nil {
			return err
		}
		for i := uint64(0); i < info.State.Msgs; i++ {
			msg, err := cons.Next(jetstream.FetchMaxWait(2 * time.Second))
			if err != nil {
				return err
			}
			var env events.Envelope
			if err := json.Unmarshal(msg.Data(), &env); err != nil {
				return err
			}
			if eventType == "" || env.Type == eventType {
				out = append(out, env)
			}
		}
		return nil
	})
	return out
}

// conformsToSchema checks an event against api/events/envelope.schema.json.
func conformsToSchema(t *testing.T, env events.Envelope) {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(here), "..", "..", "..", "..", "api", "events")
	c := jsonschema.NewCompiler()
	files, _ := filepath.Glob(filepath.Join(dir, "*.schema.json"))
	for _, path := range files {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.AddResource("https://santa-wishlist.example/api/events/"+filepath.Base(path), doc); err != nil {
			t.Fatal(err)
		}
	}
	c.AssertFormat()
	s, err := c.Compile("https://santa-wishlist.example/api/events/envelope.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(env)
	doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err := s.Validate(doc); err != nil {
		t.Fatalf("event %s does not match its schema: %v\n%s", env.Type, err, raw)
	}
}
