//go:build e2e

package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

// The family side of "the surprise holds", each attack as the attacker's requests through the
// gateway, with the legitimate side beside it.

type promiseFamily struct {
	ID     string
	Invite struct{ Token string }
}

// member is a signed-up person with their uid (the family's member ids).
type member struct {
	*client
	uid, email string
}

func newMember(t *testing.T, prefix, name string) member {
	email := testenv.UniqueEmail(prefix)
	s := testenv.SignUp(t, email, "secret123", name)
	return member{client: &client{t: t, base: baseURL(t), token: s.IDToken}, uid: s.UID, email: email}
}

// errorCodeOf calls and answers the status and the error code.
func errorCodeOf(c *client, method, path string, body any) (int, string, map[string]string) {
	var raw []byte
	if body != nil {
		raw, _ = json.Marshal(body)
	}
	code, b, _ := c.do(method, path, raw)
	var answer struct {
		Error struct {
			Code   string
			Fields map[string]string
		}
	}
	_ = json.Unmarshal(b, &answer)
	return code, answer.Error.Code, answer.Error.Fields
}

func wantRefused(t *testing.T, c *client, status int, code, method, path string, body any) {
	t.Helper()
	if got, gotCode, _ := errorCodeOf(c, method, path, body); got != status || gotCode != code {
		t.Fatalf("%s %s: %d %s, want %d %s", method, path, got, gotCode, status, code)
	}
}

// Attack 6: a removed member keeps the link they were given and uses it again.
func TestARemovedMemberCannotRejoinWithTheOldLink(t *testing.T) {
	ann := newMember(t, "p6-ann", "Ann")
	ben := newMember(t, "p6-ben", "Ben")
	var fam promiseFamily
	ann.must(http.StatusCreated, "POST", "/api/families", map[string]string{"name": "Smiths"}, &fam)
	ben.must(http.StatusOK, "POST", "/api/invites/"+fam.Invite.Token+"/accept", nil, nil)
	ann.must(http.StatusNoContent, "DELETE", "/api/families/"+fam.ID+"/members/"+ben.uid, nil, nil)

	// Ben tries the link again: for him it does not exist, and he sees nothing of the family.
	wantRefused(t, ben.client, http.StatusNotFound, "invite_not_found", "POST", "/api/invites/"+fam.Invite.Token+"/accept", nil)
	wantRefused(t, ben.client, http.StatusNotFound, "not_found", "GET", "/api/families/"+fam.ID, nil)
	wantRefused(t, ben.client, http.StatusNotFound, "not_found", "GET", "/api/families/"+fam.ID+"/secret-santa", nil)
	var fams []familyView
	ben.must(http.StatusOK, "GET", "/api/families", nil, &fams)
	if len(fams) != 0 {
		t.Fatalf("Ben still sees %+v", fams)
	}

	// Legitimate: an invitation made after the removal lets him in again.
	var fresh struct{ Token string }
	ann.must(http.StatusCreated, "POST", "/api/families/"+fam.ID+"/invites", nil, &fresh)
	ben.must(http.StatusOK, "POST", "/api/invites/"+fresh.Token+"/accept", nil, nil)
	ben.must(http.StatusOK, "GET", "/api/families/"+fam.ID, nil, nil)
}

// Attack 7: someone who got hold of an email invitation accepts it with their own account.
func TestAnEmailInvitationCannotBeAcceptedByAnotherAccount(t *testing.T) {
	ann := newMember(t, "p7-ann", "Ann")
	cleo := newMember(t, "p7-cleo", "Cleo")
	mallory := newMember(t, "p7-mallory", "Mallory")
	var fam promiseFamily
	ann.must(http.StatusCreated, "POST", "/api/families", map[string]string{"name": "Smiths"}, &fam)
	var inv struct{ Token string }
	// The admin types the address in another case than the account has.
	ann.must(http.StatusCreated, "POST", "/api/families/"+fam.ID+"/invites", map[string]string{"email": strings.ToUpper(cleo.email)}, &inv)

	wantRefused(t, mallory.client, http.StatusForbidden, "invite_for_someone_else", "POST", "/api/invites/"+inv.Token+"/accept", nil)
	wantRefused(t, mallory.client, http.StatusNotFound, "not_found", "GET", "/api/families/"+fam.ID, nil)
	var view familyView
	ann.must(http.StatusOK, "GET", "/api/families/"+fam.ID, nil, &view)
	if len(view.Members) != 1 {
		t.Fatalf("members after Mallory's try: %+v", view.Members)
	}

	// Legitimate: the accept page reads it, and the invited address accepts.
	(&client{t: t, base: baseURL(t)}).must(http.StatusOK, "GET", "/api/invites/"+inv.Token, nil, nil)
	cleo.must(http.StatusOK, "POST", "/api/invites/"+inv.Token+"/accept", nil, nil)
}

// Attack 8: the admin excludes every pair of five but a ring, so their own match would tell
// them every pair.
func TestARiggedDrawIsRefusedAndNothingIsSaved(t *testing.T) {
	ann := newMember(t, "p8-ann", "Ann")
	var fam promiseFamily
	ann.must(http.StatusCreated, "POST", "/api/families", map[string]string{"name": "Ring"}, &fam)
	people := []member{ann}
	for _, name := range []string{"Ben", "Cleo", "Dan", "Eve"} {
		m := newMember(t, "p8-"+strings.ToLower(name), name)
		m.must(http.StatusOK, "POST", "/api/invites/"+fam.Invite.Token+"/accept", nil, nil)
		people = append(people, m)
	}
	uid := func(i int) string { return people[i].uid }
	// Ring 0→1→2→3→4→0: exclude every other pair.
	ring := [][]string{{uid(0), uid(2)}, {uid(0), uid(3)}, {uid(1), uid(3)}, {uid(1), uid(4)}, {uid(2), uid(4)}}
	code, errCode, fields := errorCodeOf(ann.client, "POST", "/api/families/"+fam.ID+"/secret-santa", map[string]any{"exclusions": ring})
	if code != http.StatusConflict || errCode != "draw_not_secret" || fields["exclusions"] == "" || fields["exclusions.1"] != "Ann–Dan" {
		t.Fatalf("the ring: %d %s %v", code, errCode, fields)
	}
	for _, p := range people {
		wantRefused(t, p.client, http.StatusNotFound, "no_draw", "GET", "/api/families/"+fam.ID+"/secret-santa", nil)
	}

	// Legitimate: a near miss (two couples) draws, and a member who is not an admin sees the
	// exclusions and is not told that everyone can deduce.
	couples := [][]string{{uid(0), uid(2)}, {uid(1), uid(3)}}
	var drawn struct {
		Participants      int
		EveryoneCanDeduce bool
	}
	ann.must(http.StatusCreated, "POST", "/api/families/"+fam.ID+"/secret-santa", map[string]any{"exclusions": couples}, &drawn)
	if drawn.Participants != 5 || drawn.EveryoneCanDeduce {
		t.Fatalf("near miss: %+v", drawn)
	}
	var match struct {
		Exclusions        [][]string
		EveryoneCanDeduce bool
		Assignee          struct{ UID string }
	}
	people[4].must(http.StatusOK, "GET", "/api/families/"+fam.ID+"/secret-santa", nil, &match)
	if len(match.Exclusions) != 2 || match.EveryoneCanDeduce || match.Assignee.UID == "" || match.Assignee.UID == uid(4) {
		t.Fatalf("Eve's answer %+v", match)
	}
}

// Three can always work it out: the draw goes ahead and says so, to the admin and to members.
func TestADrawOfThreeSaysEveryoneCanDeduce(t *testing.T) {
	ann := newMember(t, "p8b-ann", "Ann")
	var fam promiseFamily
	ann.must(http.StatusCreated, "POST", "/api/families", map[string]string{"name": "Three"}, &fam)
	ben := newMember(t, "p8b-ben", "Ben")
	cleo := newMember(t, "p8b-cleo", "Cleo")
	for _, m := range []member{ben, cleo} {
		m.must(http.StatusOK, "POST", "/api/invites/"+fam.Invite.Token+"/accept", nil, nil)
	}
	var drawn struct{ EveryoneCanDeduce bool }
	ann.must(http.StatusCreated, "POST", "/api/families/"+fam.ID+"/secret-santa", map[string]any{}, &drawn)
	var match struct{ EveryoneCanDeduce bool }
	ben.must(http.StatusOK, "GET", "/api/families/"+fam.ID+"/secret-santa", nil, &match)
	if !drawn.EveryoneCanDeduce || !match.EveryoneCanDeduce {
		t.Fatalf("three: draw %+v, Ben's answer %+v", drawn, match)
	}
}

// A revoked link, and the link "New link" replaced, are like links that never existed.
func TestARevokedLinkIsNotFound(t *testing.T) {
	ann := newMember(t, "p6r-ann", "Ann")
	ben := newMember(t, "p6r-ben", "Ben")
	visitor := &client{t: t, base: baseURL(t)}
	var fam promiseFamily
	ann.must(http.StatusCreated, "POST", "/api/families", map[string]string{"name": "Smiths"}, &fam)
	var second struct{ Token string }
	ann.must(http.StatusCreated, "POST", "/api/families/"+fam.ID+"/invites", nil, &second)
	wantRefused(t, visitor, http.StatusNotFound, "invite_not_found", "GET", "/api/invites/"+fam.Invite.Token, nil)
	wantRefused(t, ben.client, http.StatusNotFound, "invite_not_found", "POST", "/api/invites/"+fam.Invite.Token+"/accept", nil)

	var open []struct {
		ID    string
		Email *string
	}
	ann.must(http.StatusOK, "GET", "/api/families/"+fam.ID+"/invites", nil, &open)
	if len(open) != 1 || open[0].Email != nil {
		t.Fatalf("open invitations %+v", open)
	}
	ann.must(http.StatusNoContent, "DELETE", "/api/families/"+fam.ID+"/invites/"+open[0].ID, nil, nil)
	wantRefused(t, visitor, http.StatusNotFound, "invite_not_found", "GET", "/api/invites/"+second.Token, nil)
	wantRefused(t, ben.client, http.StatusNotFound, "invite_not_found", "POST", "/api/invites/"+second.Token+"/accept", nil)
	wantRefused(t, ben.client, http.StatusNotFound, "not_found", "GET", "/api/families/"+fam.ID, nil)
}
