//go:build e2e

package e2e

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

// Lists for someone else through the gateway, every answer checked against api/openapi.yaml: two
// parents keep their children's lists, a grandparent suggests, an aunt claims, and the teenager
// whose list it is hears and sees nothing of either: not on their screens, not on their live
// stream, not in their data export.
func TestParentsKeepChildrensListsAndTheTeenagerLearnsNothing(t *testing.T) {
	ann := newNamedUser(t, "ann", "Ann")
	ben := newNamedUser(t, "ben", "Ben")
	teen := newNamedUser(t, "teen", "Tess")
	gran := newNamedUser(t, "gran", "Granny")
	aunt := newNamedUser(t, "aunt", "Aunt Mary")
	mallory := newNamedUser(t, "mallory", "Mallory")

	var fam struct {
		ID     string
		Invite struct{ Token string }
	}
	ann.must(http.StatusCreated, "POST", "/api/families", map[string]string{"name": "The Smiths"}, &fam)
	for _, c := range []*client{ben, teen, gran, aunt} {
		c.must(http.StatusOK, "POST", "/api/invites/"+fam.Invite.Token+"/accept", nil, nil)
	}
	var fams []struct {
		Members []struct{ UID, DisplayName string }
	}
	ann.must(http.StatusOK, "GET", "/api/families", nil, &fams)
	uid := map[string]string{}
	for _, m := range fams[0].Members {
		uid[m.DisplayName] = m.UID
	}

	// Ann makes Emma's list (no account) and Tess's; Ben keeps both with her. Memberships reach
	// the wishlist as events, so the first call may come a moment early.
	var emma, tess struct {
		ID, Name, Role string
		Share          *struct{ Token string }
	}
	ann.must(http.StatusCreated, "POST", "/api/lists", map[string]any{"recipient": map[string]any{"kind": "person", "name": "Emma"}}, &emma)
	testenv.Eventually(t, 15*time.Second, func() error {
		code, body := ann.json("POST", "/api/lists", map[string]any{"recipient": map[string]any{"kind": "member", "uid": uid["Tess"]}})
		if code != http.StatusCreated {
			return fmt.Errorf("list for Tess: %d %s", code, body)
		}
		return json.Unmarshal(body, &tess)
	})
	if emma.Name != "Emma's wishlist" || emma.Role != "manager" || tess.Name != "Tess's wishlist" {
		t.Fatalf("lists %+v %+v", emma, tess)
	}
	for _, l := range []string{emma.ID, tess.ID} {
		testenv.Eventually(t, 15*time.Second, func() error { // Ben's joining may reach the wishlist a moment later
			if code, body := ann.json("POST", "/api/lists/"+l+"/managers", map[string]any{"uid": uid["Ben"]}); code != http.StatusCreated {
				return fmt.Errorf("add Ben: %d %s", code, body)
			}
			return nil
		})
	}
	ann.must(http.StatusNotFound, "POST", "/api/lists/"+emma.ID+"/managers", map[string]any{"uid": "not-in-the-family"}, nil)
	mallory.must(http.StatusNotFound, "GET", "/api/wishlist?listId="+emma.ID, nil, nil)
	mallory.must(http.StatusNotFound, "POST", "/api/lists/"+emma.ID+"/managers", map[string]any{"uid": uid["Ben"]}, nil)

	// Tess adds her wishes; Ben adds one too and shares the list with the family.
	var bike, book struct{ ID string }
	teen.must(http.StatusCreated, "POST", "/api/wishlist", map[string]any{"name": "Red bicycle", "description": "A red bicycle with gears", "listId": tess.ID}, &bike)
	ben.must(http.StatusCreated, "POST", "/api/wishlist", map[string]any{"name": "Story book", "description": "A book of winter stories", "listId": tess.ID}, &book)
	ben.must(http.StatusOK, "PATCH", "/api/lists/"+tess.ID, map[string]any{"familyIds": []string{fam.ID}}, &tess)
	token := tess.Share.Token

	// What Tess can ask for, before the relatives act.
	reads := []string{"/api/lists", "/api/wishlist?listId=" + tess.ID, "/api/wishlist", "/api/shared/" + token, "/api/claims"}
	snapshot := func() []string {
		var out []string
		for _, p := range reads {
			code, body, header := teen.do("GET", p, nil)
			out = append(out, fmt.Sprintf("%s %d %s %s", p, code, header.Get("ETag"), body))
		}
		return out
	}
	before := snapshot()
	teenLive, benLive := teen.stream(t), ben.stream(t)
	expect(t, teenLive, "hello", "")
	expect(t, benLive, "hello", "")

	// Granny suggests a telescope; the aunt takes it and the bicycle; Ben takes the book.
	var telescope struct {
		ID          string
		Suggested   bool
		SuggestedBy struct{ DisplayName string }
	}
	gran.must(http.StatusOK, "GET", "/api/shared/"+token, nil, nil)
	aunt.must(http.StatusOK, "GET", "/api/shared/"+token, nil, nil)
	gran.must(http.StatusCreated, "POST", "/api/shared/"+token+"/suggestions", map[string]any{"name": "Telescope", "price": "€80"}, &telescope)
	if !telescope.Suggested || telescope.SuggestedBy.DisplayName != "Granny" {
		t.Fatalf("suggestion %+v", telescope)
	}
	expect(t, benLive, "shared-list-changed", tess.ID)
	aunt.must(http.StatusOK, "PUT", "/api/shared/"+token+"/items/"+telescope.ID+"/claim", map[string]any{"quantity": 1}, nil)
	aunt.must(http.StatusOK, "PUT", "/api/shared/"+token+"/items/"+bike.ID+"/claim", map[string]any{"quantity": 1}, nil)
	ben.must(http.StatusOK, "PUT", "/api/shared/"+token+"/items/"+book.ID+"/claim", map[string]any{"quantity": 1, "purchased": true}, nil)
	teen.must(http.StatusForbidden, "POST", "/api/shared/"+token+"/suggestions", map[string]any{"name": "Drone"}, nil)
	teen.must(http.StatusForbidden, "PUT", "/api/shared/"+token+"/items/"+bike.ID+"/claim", map[string]any{"quantity": 1}, nil)

	// The parents see who is getting what.
	var kept []struct {
		Name      string
		Suggested bool
		Claims    []struct{ DisplayName string }
	}
	ann.must(http.StatusOK, "GET", "/api/wishlist?listId="+tess.ID, nil, &kept)
	givers := map[string]string{}
	for _, it := range kept {
		for _, c := range it.Claims {
			givers[it.Name] = c.DisplayName
		}
		if it.Name == "Telescope" && !it.Suggested {
			t.Fatalf("the telescope is not marked as suggested: %+v", kept)
		}
	}
	if givers["Telescope"] != "Aunt Mary" || givers["Red bicycle"] != "Aunt Mary" || givers["Story book"] != "Ben" {
		t.Fatalf("Ann's view of who gives what: %v", givers)
	}

	// Tess: the same bytes and ETags as before, nothing on her stream, nothing in her export.
	nothingFor(t, teenLive, 3*time.Second)
	after := snapshot()
	for i := range before {
		if before[i] != after[i] {
			t.Errorf("Tess's answer changed:\nbefore %s\n after %s", before[i], after[i])
		}
	}
	code, export, _ := teen.do("GET", "/api/account/export", nil)
	if code != http.StatusOK {
		t.Fatalf("export: %d", code)
	}
	zr, err := zip.NewReader(bytes.NewReader(export), int64(len(export)))
	if err != nil {
		t.Fatal(err)
	}
	sawList := false
	for _, f := range zr.File {
		rc, _ := f.Open()
		content, _ := io.ReadAll(rc)
		rc.Close()
		for _, secret := range []string{"Telescope", `"claimed"`, `"suggested"`, `"mine"`, "shared-list-changed"} {
			if strings.Contains(string(content), secret) {
				t.Fatalf("Tess's export %s holds %q: %s", f.Name, secret, content)
			}
		}
		sawList = sawList || strings.Contains(string(content), "Red bicycle")
	}
	if !sawList {
		t.Fatal("Tess's export does not hold her own list")
	}
	// Anonymous: the items alone, no suggestion.
	if _, b, _ := (&client{t: t, base: baseURL(t)}).do("GET", "/api/shared/"+token, nil); strings.Contains(string(b), "Telescope") {
		t.Fatalf("a visitor sees the suggestion: %s", b)
	}
	// The family screen shows the list under Tess's name, kept by Ann and Ben.
	testenv.Eventually(t, 15*time.Second, func() error {
		b := string(gran.must(http.StatusOK, "GET", "/api/families", nil, nil))
		if !strings.Contains(b, `"recipientName":"Tess"`) || !strings.Contains(b, `"managedBy":["Ann","Ben"]`) {
			return fmt.Errorf("the family's lists: %s", b)
		}
		return nil
	})
}
