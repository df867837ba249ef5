package service_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/reminders"
	"github.com/santa-wishlist/santa/pkg/reminders/reminderstest"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/family/internal/adapters"
)

type drawPlan struct {
	DrawOn *string `json:"drawOn"`
}

func TestAdminsPlanTheDrawDate(t *testing.T) {
	e := start(t)
	c := e.create("ann", "The Smiths")
	e.join("bob", c.Invite.Token)
	path := "/api/families/" + c.ID + "/secret-santa"
	var fam struct{ DrawOn *string }
	e.must(http.StatusOK, "GET", "/api/families/"+c.ID, "bob", nil, &fam)
	if fam.DrawOn != nil {
		t.Fatalf("a new family has a draw date: %q", *fam.DrawOn)
	}
	day := time.Now().UTC().AddDate(0, 0, 10).Format(time.DateOnly)
	var plan drawPlan
	e.must(http.StatusOK, "PATCH", path, "ann", map[string]any{"drawOn": day}, &plan)
	if plan.DrawOn == nil || *plan.DrawOn != day {
		t.Fatalf("planned %v, want %s", plan.DrawOn, day)
	}
	e.must(http.StatusOK, "GET", "/api/families/"+c.ID, "bob", nil, &fam)
	if fam.DrawOn == nil || *fam.DrawOn != day {
		t.Fatalf("bob reads drawOn %v, want %s", fam.DrawOn, day)
	}
	// Only an admin plans; another family's is a 404 like one that does not exist.
	e.refused(http.StatusForbidden, "forbidden", "PATCH", path, "bob", map[string]any{"drawOn": day})
	e.refused(http.StatusNotFound, "not_found", "PATCH", path, "zed", map[string]any{"drawOn": day})
	// A date in the past, not a date, or more than a year ahead: 422 with fields.drawOn.
	yesterday := time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly)
	for _, bad := range []string{yesterday, "next friday", "2026-13-01", time.Now().UTC().AddDate(2, 0, 0).Format(time.DateOnly)} {
		code, raw := e.call("PATCH", path, "ann", map[string]any{"drawOn": bad})
		var answer struct {
			Error struct {
				Code   string
				Fields map[string]string
			}
		}
		_ = json.Unmarshal(raw, &answer)
		if code != http.StatusUnprocessableEntity || answer.Error.Code != "validation_failed" || answer.Error.Fields["drawOn"] == "" {
			t.Fatalf("drawOn %q: %d %s, want 422 with fields.drawOn", bad, code, raw)
		}
	}
	e.must(http.StatusOK, "GET", "/api/families/"+c.ID, "ann", nil, &fam)
	if fam.DrawOn == nil || *fam.DrawOn != day {
		t.Fatalf("a refused date changed drawOn to %v", fam.DrawOn)
	}
	// null clears the plan.
	e.must(http.StatusOK, "PATCH", path, "ann", map[string]any{"drawOn": nil}, &plan)
	e.must(http.StatusOK, "GET", "/api/families/"+c.ID, "ann", nil, &fam)
	if plan.DrawOn != nil || fam.DrawOn != nil {
		t.Fatalf("cleared plan answers %v, family %v", plan.DrawOn, fam.DrawOn)
	}
}

// familyReplica is one family replica's scheduler on a pool of its own, on the clock.
func familyReplica(t *testing.T, e *env, clock *testenv.Clock) (*reminders.Scheduler, *adapters.Repository, *pgxpool.Pool) {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), e.pool.Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	repo := adapters.NewRepository(pool)
	return reminders.New(pool, reminders.Options{Clock: clock.Now, Registry: prometheus.NewRegistry()}, repo.DrawSoonDue), repo, pool
}

// "Secret Santa draw in 3 days" goes to every admin of a family that planned a date and has
// not drawn since, once: two replicas scan at the same moments, a third crashes between its
// scan and its commit, and a restarted one scans again. A family that drew after planning
// hears nothing; members who are not admins hear nothing.
func TestTheDrawReminderGoesOnceToEachAdminWhoHasNotDrawn(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	smiths := e.create("ann", "The Smiths")
	e.join("bob", smiths.Invite.Token)
	e.join("cleo", smiths.Invite.Token)
	e.must(http.StatusOK, "PATCH", "/api/families/"+smiths.ID+"/members/cleo", "ann", map[string]string{"role": "admin"}, nil)
	drawOn := time.Now().UTC().AddDate(0, 0, 10).Truncate(24 * time.Hour)
	day := drawOn.Format(time.DateOnly)
	e.must(http.StatusOK, "PATCH", "/api/families/"+smiths.ID+"/secret-santa", "ann", map[string]any{"drawOn": day}, nil)
	// The Joneses planned the same day and drew already.
	joneses := e.create("dan", "The Joneses")
	e.join("eve", joneses.Invite.Token)
	e.must(http.StatusOK, "PATCH", "/api/families/"+joneses.ID+"/secret-santa", "dan", map[string]any{"drawOn": day}, nil)
	e.must(http.StatusCreated, "POST", "/api/families/"+joneses.ID+"/secret-santa", "dan", map[string]any{"exclusions": [][]string{}}, nil)

	clock := testenv.NewClock(drawOn.Add(-4 * 24 * time.Hour))
	a, _, _ := familyReplica(t, e, clock)
	b, _, _ := familyReplica(t, e, clock)
	// Each replica's loop, 3 scans at once.
	both := func() int { t.Helper(); return reminderstest.ScanTogether(t, 6, a, b) }
	if n := both(); n != 0 {
		t.Fatalf("4 days before the draw date %d reminders went out", n)
	}

	// 3 days before: a third replica scans, records ann's reminder and crashes before its commit.
	clock.Set(drawOn.Add(-3*24*time.Hour + time.Hour))
	_, crashRepo, crashPool := familyReplica(t, e, clock)
	due, err := crashRepo.DrawSoonDue(ctx, clock.Now())
	if err != nil || len(due) != 2 {
		t.Fatalf("due 3 days before: %+v, %v (want ann and cleo)", due, err)
	}
	if n := reminderstest.CrashWhileSending(t, crashPool, due[0], a); n != 2 {
		t.Fatalf("replica a sent %d after the crash, want ann's and cleo's", n)
	}
	restarted, _, _ := familyReplica(t, e, clock)
	if n, err := restarted.RunOnce(ctx); err != nil || n != 0 {
		t.Fatalf("the restarted replica sent %d (%v)", n, err)
	}
	for _, at := range []time.Duration{-2 * 24 * time.Hour, 0, 24 * time.Hour} {
		clock.Set(drawOn.Add(at))
		if n := both(); n != 0 {
			t.Fatalf("%v from the draw date: %d reminders sent again", at, n)
		}
	}

	// The service's own relay publishes them: one per admin of the Smiths, nobody else.
	got := map[string]int{}
	for _, env := range familyEvents(t, e, events.TypeReminderDrawSoon) {
		conformsToSchema(t, env)
		var d events.DrawSoonData
		if err := json.Unmarshal(env.Data, &d); err != nil || d.FamilyID != smiths.ID || d.DrawOn != day || d.DaysLeft != 3 || d.FamilyName != "The Smiths" {
			t.Fatalf("reminder %s: %s", env.UserID, env.Data)
		}
		got[env.UserID]++
	}
	if len(got) != 2 || got["ann"] != 1 || got["cleo"] != 1 {
		t.Fatalf("draw reminders per recipient %v, want ann 1, cleo 1", got)
	}

	// A new date is a new occasion; drawing since it was set stops it.
	later := drawOn.AddDate(0, 0, 5)
	e.must(http.StatusOK, "PATCH", "/api/families/"+smiths.ID+"/secret-santa", "ann", map[string]any{"drawOn": later.Format(time.DateOnly)}, nil)
	e.must(http.StatusCreated, "POST", "/api/families/"+smiths.ID+"/secret-santa", "cleo", map[string]any{"exclusions": [][]string{}}, nil)
	clock.Set(later.Add(-24 * time.Hour))
	if n := both(); n != 0 {
		t.Fatalf("a family that drew after planning got %d reminders", n)
	}
}
