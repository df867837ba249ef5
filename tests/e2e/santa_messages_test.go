//go:build e2e

package e2e

import (
	"archive/zip"
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
)

// Secret Santa conversations through the gateway, every answer checked against api/openapi.yaml: a
// Santa asks their giftee, the giftee answers their Santa without learning who that is, a third
// member reads only their own (empty) conversations, and each one's data export holds their own
// messages and nothing that names the Santa.
func TestSecretSantaConversationsNeverNameTheSanta(t *testing.T) {
	ann := newNamedUser(t, "ann", "Ann Santa")
	ben := newNamedUser(t, "ben", "Ben Santa")
	cleo := newNamedUser(t, "cleo", "Cleo Santa")
	var fam struct {
		ID     string
		Invite struct{ Token string }
	}
	ann.must(http.StatusCreated, "POST", "/api/families", map[string]string{"name": "The Santas"}, &fam)
	ben.must(http.StatusOK, "POST", "/api/invites/"+fam.Invite.Token+"/accept", nil, nil)
	cleo.must(http.StatusOK, "POST", "/api/invites/"+fam.Invite.Token+"/accept", nil, nil)
	path := "/api/families/" + fam.ID + "/secret-santa"
	ann.must(http.StatusNotFound, "POST", path+"/messages", map[string]string{"to": "giftee", "text": "Too early"}, nil)
	ann.must(http.StatusCreated, "POST", path, map[string]any{}, nil)

	clients := map[string]*client{"Ann Santa": ann, "Ben Santa": ben, "Cleo Santa": cleo}
	var match struct{ Assignee struct{ DisplayName string } }
	ann.must(http.StatusOK, "GET", path, nil, &match)
	giftee := clients[match.Assignee.DisplayName]
	if giftee == nil || giftee == ann {
		t.Fatalf("ann's match: %+v", match)
	}
	third := ben
	if giftee == ben {
		third = cleo
	}

	ann.must(http.StatusCreated, "POST", path+"/messages", map[string]string{"to": "giftee", "text": "What is your shoe size?"}, nil)
	type message struct{ ID, With, From, Text, At string }
	var got []message
	giftee.must(http.StatusOK, "GET", path+"/messages", nil, &got)
	asked := false
	for _, m := range got {
		asked = asked || (m.With == "santa" && m.From == "them" && m.Text == "What is your shoe size?")
	}
	if !asked {
		t.Fatalf("the giftee's conversations: %+v", got)
	}
	giftee.must(http.StatusCreated, "POST", path+"/messages", map[string]string{"to": "santa", "text": "38, thank you Santa!"}, nil)
	ann.must(http.StatusOK, "GET", path+"/messages", nil, &got)
	answered := false
	for _, m := range got {
		answered = answered || (m.With == "giftee" && m.From == "them" && m.Text == "38, thank you Santa!")
	}
	if !answered {
		t.Fatalf("ann's conversations: %+v", got)
	}
	// A third member sees neither message; bad input is a 4xx in api/openapi.yaml's error shape.
	body := string(third.must(http.StatusOK, "GET", path+"/messages", nil, nil))
	if strings.Contains(body, "shoe size") || strings.Contains(body, "thank you Santa") {
		t.Fatalf("a third member reads others' messages: %s", body)
	}
	third.must(http.StatusUnprocessableEntity, "POST", path+"/messages", map[string]string{"to": "giftee", "text": ""}, nil)
	third.must(http.StatusUnprocessableEntity, "POST", path+"/messages", map[string]string{"to": "mum", "text": "hi"}, nil)
	third.must(http.StatusUnprocessableEntity, "POST", path+"/messages", map[string]string{"to": "giftee", "text": strings.Repeat("x", 501)}, nil)
	newNamedUser(t, "mallory", "Mallory").must(http.StatusNotFound, "GET", path+"/messages", nil, nil)

	// The giftee's export: their own conversation, and nothing that names their Santa.
	code, export, _ := giftee.do("GET", "/api/account/export", nil)
	if code != http.StatusOK {
		t.Fatalf("export: %d", code)
	}
	zr, err := zip.NewReader(bytes.NewReader(export), int64(len(export)))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range zr.File {
		if !strings.HasPrefix(f.Name, "secret-santa-messages/") {
			continue
		}
		rc, _ := f.Open()
		content, _ := io.ReadAll(rc)
		rc.Close()
		found = found || strings.Contains(string(content), "What is your shoe size?")
		if strings.Contains(string(content), "Ann") {
			t.Fatalf("the giftee's export names their Santa: %s", content)
		}
	}
	if !found {
		t.Fatal("the giftee's export lacks their conversation")
	}
}
