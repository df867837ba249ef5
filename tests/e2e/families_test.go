//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

// mailpitURL is the stack's Mailpit API (deploy/local/stack.sh starts it).
func mailpitURL() string {
	if u := os.Getenv("SANTA_MAILPIT_URL"); u != "" {
		return u
	}
	return "http://127.0.0.1:8025"
}

type mailpitMessage struct {
	ID      string
	Subject string
	To      []struct{ Address string }
}

// mailsTo lists the messages the stack's Mailpit holds for one address (other tests' mail
// goes to other addresses).
func mailsTo(t *testing.T, address string) []mailpitMessage {
	t.Helper()
	resp, err := http.Get(mailpitURL() + "/api/v1/messages?limit=500")
	if err != nil {
		t.Fatalf("mailpit: %v", err)
	}
	defer resp.Body.Close()
	var list struct{ Messages []mailpitMessage }
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	var out []mailpitMessage
	for _, m := range list.Messages {
		for _, to := range m.To {
			if strings.EqualFold(to.Address, address) {
				out = append(out, m)
			}
		}
	}
	return out
}

var joinLink = regexp.MustCompile(`https?://[^\s"]+/join/([A-Za-z0-9_-]{22,})`)

// The family story through the gateway: an admin invites by email; the email arrives once
// through the real SMTP server and its link joins the family; the admin hears of it live; a
// draw gives each person their own match only, and a secret-santa notice.
func TestFamilyInvitationByEmailAndSecretSanta(t *testing.T) {
	ann := newNamedUser(t, "ann", "Ann")
	benEmail := testenv.UniqueEmail("ben")
	benSession := testenv.SignUp(t, benEmail, "secret123", "Ben")
	ben := &client{t: t, base: baseURL(t), token: benSession.IDToken}
	cleo := newNamedUser(t, "cleo", "Cleo")
	mallory := newNamedUser(t, "mallory", "Mallory")
	visitor := &client{t: t, base: baseURL(t)}
	annLive, benLive := ann.stream(t), ben.stream(t)
	expect(t, annLive, "hello", "count")
	expect(t, benLive, "hello", "count")

	var fam struct {
		ID     string
		Invite struct{ Token string }
	}
	ann.must(http.StatusCreated, "POST", "/api/families", map[string]string{"name": "The Smiths"}, &fam)
	ann.must(http.StatusCreated, "POST", "/api/families/"+fam.ID+"/invites", map[string]string{"email": benEmail}, nil)

	var mails []mailpitMessage
	testenv.Eventually(t, 20*time.Second, func() error {
		if mails = mailsTo(t, benEmail); len(mails) != 1 {
			return fmt.Errorf("%d emails to %s", len(mails), benEmail)
		}
		return nil
	})
	if mails[0].Subject != "Ann invited you to join The Smiths on Santa Wishlist" {
		t.Fatalf("subject %q", mails[0].Subject)
	}
	// An admin whose app is in German invites in German (the web app sends its language).
	omaEmail := testenv.UniqueEmail("oma")
	ann.must(http.StatusCreated, "POST", "/api/families/"+fam.ID+"/invites", map[string]string{"email": omaEmail, "language": "de"}, nil)
	testenv.Eventually(t, 20*time.Second, func() error {
		if oma := mailsTo(t, omaEmail); len(oma) != 1 || oma[0].Subject != "Ann lädt dich in die Familie The Smiths bei Santa Wishlist ein" {
			return fmt.Errorf("emails to %s: %+v", omaEmail, oma)
		}
		return nil
	})
	resp, err := http.Get(mailpitURL() + "/api/v1/message/" + mails[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	var body struct{ Text, HTML string }
	_ = json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	link := joinLink.FindStringSubmatch(body.Text)
	if link == nil || !strings.Contains(body.HTML, link[0]) {
		t.Fatalf("no join link in the email:\n%s", body.Text)
	}
	token := link[1]

	var info struct{ FamilyName, InvitedBy string }
	visitor.must(http.StatusOK, "GET", "/api/invites/"+token, nil, &info)
	if info.FamilyName != "The Smiths" || info.InvitedBy != "Ann" {
		t.Fatalf("invite info %+v", info)
	}
	ben.must(http.StatusOK, "POST", "/api/invites/"+token+"/accept", nil, nil)
	expect(t, annLive, "family-member-joined", "Ben joined The Smiths")
	cleo.must(http.StatusOK, "POST", "/api/invites/"+fam.Invite.Token+"/accept", nil, nil)

	mallory.must(http.StatusNotFound, "GET", "/api/families/"+fam.ID, nil, nil)
	ben.must(http.StatusForbidden, "POST", "/api/families/"+fam.ID+"/secret-santa", map[string]any{}, nil)
	ann.must(http.StatusCreated, "POST", "/api/families/"+fam.ID+"/secret-santa", map[string]any{"budget": "€30"}, nil)
	expect(t, benLive, "secret-santa", "Your Secret Santa match is ready")

	receivers := map[string]bool{}
	for name, c := range map[string]*client{"Ann": ann, "Ben": ben, "Cleo": cleo} {
		var m struct {
			Budget   string
			Assignee struct{ DisplayName string }
		}
		raw := c.must(http.StatusOK, "GET", "/api/families/"+fam.ID+"/secret-santa", nil, &m)
		if m.Assignee.DisplayName == name || m.Budget != "€30" {
			t.Fatalf("%s's match: %s", name, raw)
		}
		receivers[m.Assignee.DisplayName] = true
	}
	if len(receivers) != 3 {
		t.Fatalf("not everyone receives: %v", receivers)
	}
	mallory.must(http.StatusNotFound, "GET", "/api/families/"+fam.ID+"/secret-santa", nil, nil)
	// Ben is emailed the draw too (on by default, sent at once): the invitation and that, no more.
	testenv.Eventually(t, 30*time.Second, func() error {
		if mails := mailsTo(t, benEmail); len(mails) != 2 || mails[0].Subject != "Your Secret Santa match is ready" {
			return fmt.Errorf("emails to %s: %+v", benEmail, mails)
		}
		return nil
	})
}

type familyView struct {
	ID      string
	Members []struct{ UID, DisplayName, Role string }
	Lists   []struct{ ListID, Name, OwnerName, Token string }
}

// familyLists answers the names of the lists shared with the family, as c sees it.
func familyLists(c *client, familyID string) []string {
	c.t.Helper()
	var fams []familyView
	c.must(http.StatusOK, "GET", "/api/families", nil, &fams)
	for _, f := range fams {
		if f.ID == familyID {
			names := []string{}
			for _, l := range f.Lists {
				names = append(names, l.OwnerName+": "+l.Name)
			}
			return names
		}
	}
	return nil
}

// shareWithFamily sets the list's familyIds; wishlist learns a membership from the family
// service's events, so a family joined a moment ago may take a moment to be accepted.
func shareWithFamily(c *client, listID string, familyIDs ...string) map[string]any {
	c.t.Helper()
	var list map[string]any
	testenv.Eventually(c.t, 10*time.Second, func() error {
		code, body := c.json("PATCH", "/api/lists/"+listID, map[string]any{"familyIds": familyIDs})
		if code != http.StatusOK {
			return fmt.Errorf("PATCH familyIds: %d %s", code, body)
		}
		return json.Unmarshal(body, &list)
	})
	return list
}

// Two members share a list each with their family: each sees the other's in GET
// /api/families and opens it as a member; the owner still sees nothing of a claim; an
// outsider can neither see the family nor share with it; whoever leaves takes their list along.
func TestFamilyMembersSeeEachOthersSharedLists(t *testing.T) {
	ann := newNamedUser(t, "ann", "Ann")
	ben := newNamedUser(t, "ben", "Ben")
	mallory := newNamedUser(t, "mallory", "Mallory")
	var fam struct {
		ID     string
		Invite struct{ Token string }
	}
	ann.must(http.StatusCreated, "POST", "/api/families", map[string]string{"name": "The Smiths"}, &fam)

	var annList, benList struct{ ID string }
	ann.must(http.StatusCreated, "POST", "/api/lists", map[string]string{"name": "Ann's Christmas"}, &annList)
	ben.must(http.StatusCreated, "POST", "/api/lists", map[string]string{"name": "Ben's Christmas"}, &benList)
	var bike struct{ ID string }
	ann.must(http.StatusCreated, "POST", "/api/wishlist", map[string]any{"name": "Red bike", "description": "A red bike with a bell",
		"category": "Toys", "listId": annList.ID}, &bike)
	ben.must(http.StatusCreated, "POST", "/api/wishlist", map[string]any{"name": "Kite", "description": "A kite for windy days",
		"category": "Toys", "listId": benList.ID}, nil)

	// An outsider cannot share with a family they are not in.
	var malloryList struct{ ID string }
	mallory.must(http.StatusCreated, "POST", "/api/lists", map[string]string{"name": "Sneaky"}, &malloryList)
	if code, body := mallory.json("PATCH", "/api/lists/"+malloryList.ID, map[string]any{"familyIds": []string{fam.ID}}); code != http.StatusUnprocessableEntity ||
		!strings.Contains(string(body), "You can only share a list with a family you belong to.") {
		t.Fatalf("mallory shares with the Smiths: %d %s", code, body)
	}

	// Sharing with the family makes the link the family opens.
	shared := shareWithFamily(ann, annList.ID, fam.ID)
	if ids, _ := shared["familyIds"].([]any); len(ids) != 1 || ids[0] != fam.ID || shared["share"] == nil {
		t.Fatalf("ann's shared list %v", shared)
	}
	// Ben joins and shares at once: the times measure the two event hops (family.member.joined
	// to wishlist, list.families to family) through the real relays and consumers.
	joinedAt := time.Now()
	ben.must(http.StatusOK, "POST", "/api/invites/"+fam.Invite.Token+"/accept", nil, nil)
	shareWithFamily(ben, benList.ID, fam.ID)
	sharedAt := time.Now()

	want := []string{"Ann: Ann's Christmas", "Ben: Ben's Christmas"}
	for _, c := range []*client{ann, ben} {
		testenv.Eventually(t, 10*time.Second, func() error {
			if got := familyLists(c, fam.ID); strings.Join(got, "|") != strings.Join(want, "|") {
				return fmt.Errorf("family lists %v, want %v", got, want)
			}
			return nil
		})
		if c == ann {
			t.Logf("joining to sharing accepted: %v; sharing to the list in GET /api/families: %v",
				sharedAt.Sub(joinedAt).Round(time.Millisecond), time.Since(sharedAt).Round(time.Millisecond))
		}
	}
	mallory.must(http.StatusNotFound, "GET", "/api/families/"+fam.ID, nil, nil)
	if got := familyLists(mallory, fam.ID); got != nil {
		t.Fatalf("mallory sees %v", got)
	}

	// Ben opens Ann's list from the family as a member and claims the bike.
	var fv familyView
	ben.must(http.StatusOK, "GET", "/api/families/"+fam.ID, nil, &fv)
	token := fv.Lists[0].Token
	var view struct{ Viewer string }
	ben.must(http.StatusOK, "GET", "/api/shared/"+token, nil, &view)
	if view.Viewer != "member" {
		t.Fatalf("ben opens ann's list as %q", view.Viewer)
	}
	ben.must(http.StatusOK, "PUT", "/api/shared/"+token+"/items/"+bike.ID+"/claim", map[string]any{"quantity": 1, "purchased": true}, nil)

	// Ann, before the reveal date, sees nothing of it on any path.
	for _, path := range []string{"/api/wishlist?listId=" + annList.ID, "/api/shared/" + token, "/api/families", "/api/families/" + fam.ID, "/api/lists"} {
		body := ann.must(http.StatusOK, "GET", path, nil, nil)
		// Her items carry "claims":[] as every item does before anything is revealed.
		for _, leak := range []string{"claimed", "\"mine\"", "purchased", "\"claims\":[{"} {
			if strings.Contains(string(body), leak) {
				t.Fatalf("ann's %s shows %q before the reveal date: %s", path, leak, body)
			}
		}
	}

	// Ben leaves: his list is gone from the family at once, he sees nothing of it any more,
	// and wishlist takes the family off his list.
	var benUID string
	for _, m := range fv.Members {
		if m.DisplayName == "Ben" {
			benUID = m.UID
		}
	}
	ben.must(http.StatusNoContent, "DELETE", "/api/families/"+fam.ID+"/members/"+benUID, nil, nil)
	if got := familyLists(ann, fam.ID); strings.Join(got, "|") != "Ann: Ann's Christmas" {
		t.Fatalf("after ben left, ann sees %v", got)
	}
	ben.must(http.StatusNotFound, "GET", "/api/families/"+fam.ID, nil, nil)
	testenv.Eventually(t, 10*time.Second, func() error {
		var lists []struct {
			ID        string
			FamilyIDs []string
		}
		ben.must(http.StatusOK, "GET", "/api/lists", nil, &lists)
		for _, l := range lists {
			if l.ID == benList.ID && len(l.FamilyIDs) != 0 {
				return fmt.Errorf("ben's list still shared with %v", l.FamilyIDs)
			}
		}
		return nil
	})
	if code, body := ben.json("PATCH", "/api/lists/"+benList.ID, map[string]any{"familyIds": []string{fam.ID}}); code != http.StatusUnprocessableEntity {
		t.Fatalf("ben shares with the family he left: %d %s", code, body)
	}
}
