//go:build e2e

package e2e

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

// The planned draw date through the gateway: an admin sets drawOn, every member reads it on
// the family, a member who is not an admin is refused, an outsider gets a 404, a bad date is
// a 422 naming drawOn and changes nothing, and null clears it. Every answer is checked
// against api/openapi.yaml by the client.
func TestTheSecretSantaDrawDateIsSetReadAndValidated(t *testing.T) {
	ann := newNamedUser(t, "drawon-ann", "Ann")
	ben := newNamedUser(t, "drawon-ben", "Ben")
	mallory := newNamedUser(t, "drawon-mallory", "Mallory")
	var fam struct {
		ID     string
		Invite struct{ Token string }
	}
	ann.must(http.StatusCreated, "POST", "/api/families", map[string]string{"name": "Drawing Smiths"}, &fam)
	ben.must(http.StatusOK, "POST", "/api/invites/"+fam.Invite.Token+"/accept", nil, nil)
	path := "/api/families/" + fam.ID + "/secret-santa"

	type withDate struct {
		ID     string
		DrawOn *string
	}
	drawOnOf := func(c *client) *string {
		t.Helper()
		var f withDate
		c.must(http.StatusOK, "GET", "/api/families/"+fam.ID, nil, &f)
		return f.DrawOn
	}
	if d := drawOnOf(ben); d != nil {
		t.Fatalf("a new family plans a draw on %s", *d)
	}
	day := time.Now().UTC().AddDate(0, 0, 14).Format(time.DateOnly)
	var plan struct{ DrawOn *string }
	ann.must(http.StatusOK, "PATCH", path, map[string]any{"drawOn": day}, &plan)
	if plan.DrawOn == nil || *plan.DrawOn != day {
		t.Fatalf("PATCH answered %v, want %s", plan.DrawOn, day)
	}
	if d := drawOnOf(ben); d == nil || *d != day {
		t.Fatalf("ben reads drawOn %v, want %s", d, day)
	}
	var all []withDate
	ben.must(http.StatusOK, "GET", "/api/families", nil, &all)
	if len(all) != 1 || all[0].DrawOn == nil || *all[0].DrawOn != day {
		t.Fatalf("GET /api/families: %+v", all)
	}

	ben.must(http.StatusForbidden, "PATCH", path, map[string]any{"drawOn": day}, nil)
	mallory.must(http.StatusNotFound, "PATCH", path, map[string]any{"drawOn": day}, nil)

	yesterday := time.Now().UTC().AddDate(0, 0, -2).Format(time.DateOnly)
	for _, bad := range []string{yesterday, "soon", "2026-02-30"} {
		raw := ann.must(http.StatusUnprocessableEntity, "PATCH", path, map[string]any{"drawOn": bad}, nil)
		var answer struct {
			Error struct {
				Code   string
				Fields map[string]string
			}
		}
		if err := json.Unmarshal(raw, &answer); err != nil || answer.Error.Code != "validation_failed" || answer.Error.Fields["drawOn"] == "" {
			t.Fatalf("drawOn %q: %s", bad, raw)
		}
	}
	if d := drawOnOf(ann); d == nil || *d != day {
		t.Fatalf("a refused date changed drawOn to %v", d)
	}
	ann.must(http.StatusOK, "PATCH", path, map[string]any{"drawOn": nil}, &plan)
	if plan.DrawOn != nil || drawOnOf(ann) != nil {
		t.Fatal("null did not clear the draw date")
	}
}
