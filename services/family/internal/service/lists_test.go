package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"slices"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/migrate"
	"github.com/santa-wishlist/santa/pkg/postgres"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/pkg/wiring"
	"github.com/santa-wishlist/santa/services/family/internal/adapters"
	"github.com/santa-wishlist/santa/services/family/internal/service"
)

type sharedList struct{ ListID, Name, OwnerUID, OwnerName, Token string }

type familyWithLists struct {
	ID    string
	Lists []sharedList
}

// announce publishes wishlist's list.families on the test's NATS, as wishlist's relay does.
func (e *env) announce(listID, owner, name, token string, version int64, familyIDs ...string) events.Envelope {
	e.t.Helper()
	if familyIDs == nil {
		familyIDs = []string{}
	}
	var tok *string
	if token != "" {
		tok = &token
	}
	env, err := events.NewEnvelope(events.TypeListFamilies, owner, map[string]any{
		"listId": listID, "ownerUid": owner, "name": name, "ownerName": "Name of " + owner,
		"token": tok, "familyIds": familyIDs, "version": version,
	})
	if err != nil {
		e.t.Fatal(err)
	}
	conformsToSchema(e.t, env)
	e.publish(env)
	return env
}

func (e *env) publish(env events.Envelope) {
	e.t.Helper()
	testenv.Publish(e.t, e.natsURL, env)
}

// projected waits until the projection holds version of the list.
func (e *env) projected(listID string, version int64) {
	e.t.Helper()
	testenv.Eventually(e.t, 10*time.Second, func() error {
		var v int64
		_ = e.pool.QueryRow(context.Background(), "SELECT version FROM shared_lists WHERE list_id = $1", listID).Scan(&v)
		if v != version {
			return fmt.Errorf("list %s at version %d, want %d", listID, v, version)
		}
		return nil
	})
}

// listsOf answers GET /api/families as uid: the list names by family id.
func (e *env) listsOf(uid string) map[string][]string {
	e.t.Helper()
	var fams []familyWithLists
	e.must(http.StatusOK, "GET", "/api/families", uid, nil, &fams)
	out := map[string][]string{}
	for _, f := range fams {
		out[f.ID] = []string{}
		for _, l := range f.Lists {
			out[f.ID] = append(out[f.ID], l.Name)
		}
	}
	return out
}

func TestFamiliesAnswerTheListsTheirMembersShared(t *testing.T) {
	e := start(t)
	smiths := e.create("ann", "Smiths")
	e.join("ben", smiths.Invite.Token)
	e.join("cleo", smiths.Invite.Token)
	jones := e.create("dora", "Jones")

	annList, benList, doraList, eveList := uuid.NewString(), uuid.NewString(), uuid.NewString(), uuid.NewString()
	e.announce(annList, "ann", "Ann's Christmas", "tok-ann", 1, smiths.ID)
	e.announce(benList, "ben", "Ben's Christmas", "tok-ben", 1, smiths.ID, jones.ID) // ben is not in Jones
	e.announce(doraList, "dora", "Dora's", "tok-dora", 1, jones.ID)
	e.announce(eveList, "eve", "Eve's", "tok-eve", 1, smiths.ID) // eve is no member: never shown
	for _, id := range []string{annList, benList, doraList, eveList} {
		e.projected(id, 1)
	}

	var fams []familyWithLists
	e.must(http.StatusOK, "GET", "/api/families", "cleo", nil, &fams)
	if len(fams) != 1 || !slices.Equal(fams[0].Lists, []sharedList{
		{annList, "Ann's Christmas", "ann", "Name of ann", "tok-ann"}, {benList, "Ben's Christmas", "ben", "Name of ben", "tok-ben"},
	}) {
		t.Fatalf("cleo sees %+v", fams)
	}
	// Another family's lists never appear, and a list whose owner is not in the family neither.
	if got := e.listsOf("dora"); !slices.Equal(got[jones.ID], []string{"Dora's"}) || len(got) != 1 {
		t.Fatalf("dora sees %v", got)
	}
	e.refused(http.StatusNotFound, "not_found", "GET", "/api/families/"+smiths.ID, "dora", nil)

	// An older version or a duplicate changes nothing; a newer one renames and rotates.
	stale := e.announce(annList, "ann", "Stale name", "tok-old", 1, smiths.ID)
	again := stale
	again.ID = uuid.NewString()
	e.publish(again)
	e.announce(annList, "ann", "Ann's wishes", "tok-ann2", 3, smiths.ID)
	e.announce(annList, "ann", "Older", "tok-ann-older", 2, smiths.ID)
	e.announce(doraList, "dora", "Dora's", "tok-dora", 2, jones.ID) // marker: the ones before are applied
	e.projected(doraList, 2)
	var one struct{ Lists []sharedList }
	e.must(http.StatusOK, "GET", "/api/families/"+smiths.ID, "ben", nil, &one)
	if len(one.Lists) != 2 || one.Lists[0] != (sharedList{annList, "Ann's wishes", "ann", "Name of ann", "tok-ann2"}) {
		t.Fatalf("after versions %+v", one.Lists)
	}

	// A list kept for someone else names its recipient and who keeps it.
	emmaList := uuid.NewString()
	emma, err := events.NewEnvelope(events.TypeListFamilies, "ann", map[string]any{
		"listId": emmaList, "ownerUid": "ann", "name": "Emma's wishlist", "ownerName": "Name of ann", "token": "tok-emma",
		"familyIds": []string{smiths.ID}, "version": 1, "recipientName": "Emma", "managedBy": []string{"Ann", "Ben"},
	})
	if err != nil {
		t.Fatal(err)
	}
	conformsToSchema(t, emma)
	e.publish(emma)
	e.projected(emmaList, 1)
	var kept struct {
		Lists []struct {
			ListID, Name, RecipientName string
			ManagedBy                   []string
		}
	}
	e.must(http.StatusOK, "GET", "/api/families/"+smiths.ID, "cleo", nil, &kept)
	found := false
	for _, l := range kept.Lists {
		if l.ListID == emmaList {
			found = l.RecipientName == "Emma" && slices.Equal(l.ManagedBy, []string{"Ann", "Ben"})
		} else if l.RecipientName != "" || l.ManagedBy != nil {
			t.Fatalf("a member's own list names a recipient: %+v", l)
		}
	}
	if !found {
		t.Fatalf("Emma's list in the family: %+v", kept.Lists)
	}

	// Her match's lists are the ones the assignee shared with this family.
	e.must(http.StatusCreated, "POST", "/api/families/"+smiths.ID+"/secret-santa", "ann", map[string]any{}, nil)
	var match struct {
		Assignee struct {
			UID   string
			Lists []struct{ Name, Token string }
		}
	}
	e.must(http.StatusOK, "GET", "/api/families/"+smiths.ID+"/secret-santa", "cleo", nil, &match)
	want := map[string]string{"ann": "tok-ann2", "ben": "tok-ben"}[match.Assignee.UID]
	// Ann's match shows her own wishes, never Emma's list that she keeps.
	if want == "" || len(match.Assignee.Lists) != 1 || match.Assignee.Lists[0].Token != want {
		t.Fatalf("cleo's match %+v", match)
	}

	// Emma's list is unshared again, for the steps below.
	e.announce(emmaList, "ann", "Emma's wishlist", "tok-emma", 2)
	e.projected(emmaList, 2)

	// ben leaves: his list goes at once (before wishlist announces its new sharing), and he
	// sees nothing of the family any more.
	e.must(http.StatusNoContent, "DELETE", "/api/families/"+smiths.ID+"/members/ben", "ben", nil, nil)
	if got := e.listsOf("cleo"); !slices.Equal(got[smiths.ID], []string{"Ann's wishes"}) {
		t.Fatalf("after ben left, cleo sees %v", got)
	}
	e.refused(http.StatusNotFound, "not_found", "GET", "/api/families/"+smiths.ID, "ben", nil)
	if got := e.listsOf("ben"); len(got) != 0 {
		t.Fatalf("ben still sees %v", got)
	}

	// Unsharing (or deleting the list) is a version with no families.
	e.announce(annList, "ann", "Ann's wishes", "tok-ann2", 4)
	e.projected(annList, 4)
	if got := e.listsOf("cleo"); !slices.Equal(got[smiths.ID], []string{}) {
		t.Fatalf("after unsharing, cleo sees %v", got)
	}

	// A member an admin removes loses the family's lists with it (404, and none listed).
	e.announce(annList, "ann", "Ann's wishes", "tok-ann3", 5, smiths.ID)
	e.projected(annList, 5)
	if got := e.listsOf("cleo"); !slices.Equal(got[smiths.ID], []string{"Ann's wishes"}) {
		t.Fatalf("before removal, cleo sees %v", got)
	}
	e.must(http.StatusNoContent, "DELETE", "/api/families/"+smiths.ID+"/members/cleo", "ann", nil, nil)
	e.refused(http.StatusNotFound, "not_found", "GET", "/api/families/"+smiths.ID, "cleo", nil)
	if got := e.listsOf("cleo"); len(got) != 0 {
		t.Fatalf("removed cleo still sees %v", got)
	}

	// A malformed event is poison: it is terminated and changes nothing.
	bad, _ := events.NewEnvelope(events.TypeListFamilies, "ann", map[string]any{"listId": "nope", "version": 9})
	e.publish(bad)
	e.announce(doraList, "dora", "Dora's", "tok-dora", 3, jones.ID)
	e.projected(doraList, 3)
}

// Families made before list sharing announced no maker: the migration announces every
// existing membership once, so wishlist's projection knows them all, and tells nobody.
func TestTheMigrationAnnouncesExistingMemberships(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	ctx := context.Background()
	pool, err := postgres.ConnectSchema(ctx, dbURL, "family")
	if err != nil {
		t.Fatal(err)
	}
	first, err := fs.ReadFile(adapters.Migrations(), "0001_families.sql")
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate.Apply(ctx, pool, "family", fstest.MapFS{"0001_families.sql": {Data: first}}, quiet); err != nil {
		t.Fatal(err)
	}
	id := uuid.NewString()
	for _, q := range []string{"INSERT INTO families (id, name, created_by) VALUES ($1, 'Old Smiths', 'ann')",
		"INSERT INTO family_members (family_id, uid, display_name, role) VALUES ($1, 'ann', 'Ann', 'admin'), ($1, 'ben', 'Ben', 'member')"} {
		if _, err := pool.Exec(ctx, q, id); err != nil {
			t.Fatal(err)
		}
	}
	pool.Close()

	broker := testenv.StartNATS(t)
	cfg := service.Config{OutboxConfig: wiring.OutboxConfig{DatabaseURL: dbURL, NATSURL: broker.URL()}, Server: httpserver.Options{Service: "family", Addr: "127.0.0.1:0"}}
	testenv.Serve(t, func(ctx context.Context) (*httpserver.Server, error) { return service.Build(ctx, cfg, quiet) })
	check, err := postgres.ConnectSchema(ctx, dbURL, "family")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(check.Close)
	joined := familyEvents(t, &env{t: t, pool: check, natsURL: broker.URL()}, events.TypeFamilyMemberJoined)
	var got []string
	for _, e := range joined {
		conformsToSchema(t, e)
		var d struct {
			FamilyID, UID, Role string
			Admins              []string
		}
		_ = json.Unmarshal(e.Data, &d)
		if d.FamilyID != id || !slices.Equal(d.Admins, []string{d.UID}) || e.UserID != d.UID || e.OccurredAt.IsZero() {
			t.Fatalf("announced %s", e.Data)
		}
		got = append(got, d.UID+":"+d.Role)
	}
	slices.Sort(got)
	if !slices.Equal(got, []string{"ann:admin", "ben:member"}) {
		t.Fatalf("announced %v", got)
	}
}
