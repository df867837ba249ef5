//go:build e2e

package e2e

import (
	"archive/zip"
	"bytes"
	"net/http"
	"path"
	"strings"
	"testing"
)

func TestTheExportHoldsTheUsersDataAndNotTheClaimsOnTheirLists(t *testing.T) {
	a := makeFullAccount(t)
	code, body, header := a.anna.do("GET", "/api/account/export", nil)
	if code != http.StatusOK || header.Get("Content-Type") != "application/zip" ||
		!strings.Contains(header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("export: %d %v", code, header)
	}
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("not a ZIP: %v", err)
	}
	files := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		_, _ = b.ReadFrom(rc)
		rc.Close()
		files[f.Name] = b.String()
	}
	must := func(name, contains string) {
		t.Helper()
		got, ok := files[name]
		if !ok || !strings.Contains(got, contains) {
			t.Errorf("%s: want %q in %.300s (present: %v)", name, contains, got, ok)
		}
	}
	must("account.json", a.annaS.Email)
	must("lists.json", "Birthday")
	must("claims.json", "Kite") // what Anna promised to give
	must("families.json", "The Smiths")
	must("notices.json", "secret-santa")
	must("notification-settings.json", "secretsanta.drawn")
	photo := "photos/" + path.Base(strings.SplitN(a.photoURLs[0], "?", 2)[0]) // named by its key, not its signed address
	if len(files[photo]) < 1000 || !strings.HasPrefix(files[photo], "\xff\xd8") {
		t.Errorf("the item's photo %s is not in the archive as a JPEG (%d bytes)", photo, len(files[photo]))
	}
	items := 0
	for name, content := range files {
		if strings.HasPrefix(name, "lists/") {
			items += strings.Count(content, `"name"`)
			// Bob claimed one Teddy Bear before the reveal date: the owner's copy shows nothing of it.
			for _, secret := range []string{a.bobS.UID, "Bob", "claimed", "remaining"} {
				if strings.Contains(content, secret) {
					t.Errorf("%s reveals a claim on Anna's list (%q): %s", name, secret, content)
				}
			}
		}
	}
	if !strings.Contains(files["lists/"+firstListID(t, a.anna)+".json"], "Teddy Bear") {
		t.Errorf("the default list's items are missing: %v", keys(files))
	}
	// Another user exports only their own.
	_, other, _ := a.bob.do("GET", "/api/account/export", nil)
	if bytes.Contains(other, []byte("Teddy Bear")) || bytes.Contains(other, []byte(a.annaS.Email)) {
		t.Error("Bob's export holds Anna's items")
	}
	// A visitor gets nothing.
	if code, _, _ := (&client{t: t, base: baseURL(t)}).do("GET", "/api/account/export", nil); code != http.StatusUnauthorized {
		t.Errorf("anonymous export: %d", code)
	}
}

func firstListID(t *testing.T, c *client) string {
	var lists []struct{ ID string }
	c.must(200, "GET", "/api/lists", nil, &lists)
	return lists[0].ID
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
