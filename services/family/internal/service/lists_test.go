package service_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

type sharedList struct{ ListID, Name, OwnerName, Token string }

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
	nc, js, err := events.Connect(e.natsURL, "wishlist-test", quiet)
	if err != nil {
		e.t.Fatal(err)
	}
	defer nc.Close()
	if err := events.Publish(testenv.Context(e.t), js, env); err != nil {
		e.t.Fatal(err)
	}
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
		{annList, "Ann's Christmas", "Name of ann", "tok-ann"}, {benList, "Ben's Christmas", "Name of ben", "tok-ben"},
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
	if len(one.Lists) != 2 || one.Lists[0] != (sharedList{annList, "Ann's wishes", "Name of ann", "tok-ann2"}) {
		t.Fatalf("after versions %+v", one.Lists)
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
	if want == "" || len(match.Assignee.Lists) != 1 || match.Assignee.Lists[0].Token != want {
		t.Fatalf("cleo's match %+v", match)
	}

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

	// A malformed event is poison: it is terminated and changes nothing.
	bad, _ := events.NewEnvelope(events.TypeListFamilies, "ann", map[string]any{"listId": "nope", "version": 9})
	e.publish(bad)
	e.announce(doraList, "dora", "Dora's", "tok-dora", 3, jones.ID)
	e.projected(doraList, 3)
}
