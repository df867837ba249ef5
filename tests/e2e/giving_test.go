//go:build e2e

package e2e

import (
	"archive/zip"
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

// Giving together through the gateway, every answer checked against api/openapi.yaml: three relatives
// fund Tom's bike, the item shows as taken, and Tom sees, reads and exports nothing of it.
func TestThreeRelativesFundOneGiftAndTheRecipientLearnsNothing(t *testing.T) {
	tomS := testenv.SignUp(t, testenv.UniqueEmail("tom"), "secret123", "Tom")
	tom := &client{t: t, base: baseURL(t), token: tomS.IDToken}
	gran := newNamedUser(t, "gran", "Granny")
	aunt := newNamedUser(t, "aunt", "Aunt Mary")
	uncle := newNamedUser(t, "uncle", "Uncle Joe")

	var lists []struct{ ID string }
	tom.must(http.StatusOK, "GET", "/api/lists", nil, &lists)
	var bike struct{ ID string }
	tom.must(http.StatusCreated, "POST", "/api/wishlist", map[string]any{"name": "Red bicycle", "description": "With a bell",
		"price": "€120.00", "category": "Toys"}, &bike)
	var share struct{ Token string }
	tom.must(http.StatusOK, "POST", "/api/lists/"+lists[0].ID+"/share", nil, &share)
	shared := "/api/shared/" + share.Token
	base := shared + "/items/" + bike.ID

	// What Tom can read, before the relatives act and after.
	reads := []string{"/api/lists", "/api/wishlist", shared, "/api/claims", "/api/budgets", "/api/gifts/given", "/api/notifications"}
	snapshot := func() string {
		var b strings.Builder
		for _, p := range reads {
			code, body, h := tom.do("GET", p, nil)
			fmt.Fprintf(&b, "%s %d %s %s\n", p, code, h.Get("ETag"), body)
		}
		return b.String()
	}
	before := snapshot()

	var g struct {
		GroupGift struct {
			Target, Pledged, Remaining string
			Complete                   bool
		}
	}
	gran.must(http.StatusCreated, "POST", base+"/group-gift", map[string]any{"amount": "40.00"}, &g)
	if g.GroupGift.Target != "120.00" {
		t.Fatalf("the default target: %+v", g.GroupGift)
	}
	aunt.must(http.StatusOK, "PUT", base+"/pledge", map[string]any{"amount": "45.50"}, &g)
	uncle.must(http.StatusOK, "PUT", base+"/pledge", map[string]any{"amount": "34.50"}, &g)
	if !g.GroupGift.Complete || g.GroupGift.Pledged != "120.00" || g.GroupGift.Remaining != "0.00" {
		t.Fatalf("three pledges: %+v", g.GroupGift)
	}
	var view struct {
		Items []struct {
			Claimed   int
			GroupGift *struct{ Complete bool }
		}
	}
	aunt.must(http.StatusOK, "GET", shared, nil, &view)
	if len(view.Items) != 1 || view.Items[0].Claimed != 1 || view.Items[0].GroupGift == nil || !view.Items[0].GroupGift.Complete {
		t.Fatalf("the givers' view: %+v", view)
	}
	code, body := newNamedUser(t, "cousin", "Cousin").json("PUT", base+"/claim", map[string]any{"quantity": 1})
	if code != http.StatusConflict || !strings.Contains(string(body), "not_enough_left") {
		t.Fatalf("a claim on a funded gift: %d %s", code, body)
	}
	gran.must(http.StatusOK, "PUT", "/api/budgets/u:"+tomS.UID, map[string]any{"amount": "60.00", "currency": "EUR", "displayName": "Tom"}, nil)

	// Tom: the same answers and ETags, nothing in his notices, and refusals that tell nothing.
	time.Sleep(2 * time.Second) // the events have had their time to reach the notification service
	if after := snapshot(); after != before {
		t.Fatalf("Tom's answers changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	code, body = tom.json("POST", "/api/wishlist/"+bike.ID+"/thanks", map[string]any{"message": "Thank you!"})
	if code != http.StatusConflict || !strings.Contains(string(body), "nothing_revealed") {
		t.Fatalf("thanks before the reveal: %d %s", code, body)
	}
	code, _ = tom.json("POST", base+"/group-gift", map[string]any{})
	if code != http.StatusForbidden {
		t.Fatalf("Tom starting one on his own list: %d", code)
	}
	// His export holds his bike and nothing of the group gift.
	code, zipped, _ := tom.do("GET", "/api/account/export", nil)
	if code != http.StatusOK {
		t.Fatalf("export: %d", code)
	}
	zr, err := zip.NewReader(bytes.NewReader(zipped), int64(len(zipped)))
	if err != nil {
		t.Fatal(err)
	}
	var all bytes.Buffer
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		_, _ = all.ReadFrom(rc)
		rc.Close()
	}
	if !strings.Contains(all.String(), "Red bicycle") {
		t.Fatal("Tom's export lacks his bike")
	}
	for _, secret := range []string{"Granny", "Aunt Mary", "Uncle Joe", "groupGift", "pledge", "45.50", "60.00", "claimed"} {
		if strings.Contains(all.String(), secret) {
			t.Fatalf("Tom's export tells of the group gift (%q)", secret)
		}
	}
	// Gran's export has her pledge, and her budget.
	_, granZip, _ := gran.do("GET", "/api/account/export", nil)
	if !bytes.Contains(granZip, []byte("budgets.json")) || !bytes.Contains(granZip, []byte("gifts-given.json")) {
		t.Fatal("Gran's export lacks budgets.json or gifts-given.json")
	}
}
