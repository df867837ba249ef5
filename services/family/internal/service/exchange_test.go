package service_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
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

type exchangeMatch struct {
	Budget              string
	ExchangeOn          *string
	Place               string
	RevealAfterExchange bool
	Assignee            struct{ UID string }
	Circle              []struct {
		Giver, Receiver struct{ UID, DisplayName string }
	}
}

func (e *env) unprocessable(path, uid string, body any, field string) {
	e.t.Helper()
	code, raw := e.call("PATCH", path, uid, body)
	var answer struct {
		Error struct {
			Code, Message string
			Fields        map[string]string
		}
	}
	_ = json.Unmarshal(raw, &answer)
	if code != http.StatusUnprocessableEntity || answer.Error.Code != "validation_failed" || answer.Error.Fields[field] == "" || answer.Error.Message == "" {
		e.t.Fatalf("PATCH %v: %d %s, want 422 with fields.%s", body, code, raw, field)
	}
}

// The admin sets the exchange's date, place and budget; every participant reads them; bad
// values are 422 in the error shape, a member who is not an admin 403, and nothing refused is
// saved.
func TestTheAdminSetsTheExchange(t *testing.T) {
	e := start(t)
	c := e.create("ann", "Smiths")
	path := "/api/families/" + c.ID + "/secret-santa"
	for _, m := range []string{"ben", "cleo", "dan"} {
		e.join(m, c.Invite.Token)
	}
	day := time.Now().UTC().AddDate(0, 0, 20).Format(time.DateOnly)
	// Before a draw the date and place can be set, a budget cannot (it is the draw's).
	e.refused(http.StatusNotFound, "no_draw", "PATCH", path, "ann", map[string]any{"exchangeOn": day, "budget": "€25"})
	var plan struct {
		DrawOn, ExchangeOn, Budget *string
		Place                      string
	}
	e.must(http.StatusOK, "PATCH", path, "ann", map[string]any{"exchangeOn": day, "place": " Grandma's, 5 Elm Street "}, &plan)
	if plan.ExchangeOn == nil || *plan.ExchangeOn != day || plan.Place != "Grandma's, 5 Elm Street" || plan.Budget != nil || plan.DrawOn != nil {
		t.Fatalf("plan %+v", plan)
	}
	e.refused(http.StatusForbidden, "forbidden", "PATCH", path, "ben", map[string]any{"exchangeOn": day})
	e.refused(http.StatusForbidden, "forbidden", "PATCH", path, "ben", map[string]any{"place": "My house"})
	e.refused(http.StatusNotFound, "not_found", "PATCH", path, "zed", map[string]any{"place": "My house"})
	yesterday := time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly)
	for _, bad := range []string{yesterday, "2020-12-24", "Christmas Eve", "2026-02-30", time.Now().UTC().AddDate(2, 0, 0).Format(time.DateOnly)} {
		e.unprocessable(path, "ann", map[string]any{"exchangeOn": bad, "place": "Elsewhere"}, "exchangeOn")
	}
	e.unprocessable(path, "ann", map[string]any{"place": strings.Repeat("x", 121)}, "place")
	e.refused(http.StatusBadRequest, "wrong_type", "PATCH", path, "ann", map[string]any{"exchangeOn": 20261224})

	e.must(http.StatusCreated, "POST", path, "ann", map[string]any{"exclusions": [][]string{}, "budget": "€20", "revealAfterExchange": true}, nil)
	e.must(http.StatusOK, "PATCH", path, "ann", map[string]any{"budget": "€25"}, &plan)
	if plan.Budget == nil || *plan.Budget != "€25" || *plan.ExchangeOn != day {
		t.Fatalf("plan after the draw %+v", plan)
	}
	e.unprocessable(path, "ann", map[string]any{"exchangeOn": yesterday, "budget": "€99"}, "exchangeOn")
	for _, m := range []string{"ann", "ben", "cleo", "dan"} {
		var got exchangeMatch
		e.must(http.StatusOK, "GET", path, m, nil, &got)
		if got.ExchangeOn == nil || *got.ExchangeOn != day || got.Place != "Grandma's, 5 Elm Street" || got.Budget != "€25" ||
			!got.RevealAfterExchange || got.Circle != nil {
			t.Fatalf("%s reads %+v", m, got)
		}
	}
	// null clears the date, "" the place; other fields stay.
	e.must(http.StatusOK, "PATCH", path, "ann", map[string]any{"exchangeOn": nil, "place": ""}, &plan)
	if plan.ExchangeOn != nil || plan.Place != "" || *plan.Budget != "€25" {
		t.Fatalf("cleared %+v", plan)
	}
}

// The whole circle is shown only with revealAfterExchange, chosen at the draw, and only from
// the day after the exchange: not before, not on the day, never without it, and not to
// someone who is not in the draw.
func TestTheCircleIsRevealedOnlyAfterTheExchangeAndOnlyIfChosen(t *testing.T) {
	e := start(t)
	c := e.create("ann", "Smiths")
	path := "/api/families/" + c.ID + "/secret-santa"
	everyone := []string{"ann", "ben", "cleo", "dan"}
	for _, m := range everyone[1:] {
		e.join(m, c.Invite.Token)
	}
	setDay := func(days int) {
		t.Helper()
		// Time passing: the API refuses a past date, so the test moves the stored one.
		if _, err := e.pool.Exec(context.Background(), "UPDATE families SET exchange_on = current_date + $2::int WHERE id = $1", c.ID, days); err != nil {
			t.Fatal(err)
		}
	}
	circleSeen := func(who string) (exchangeMatch, string) {
		t.Helper()
		code, raw := e.call("GET", path, who, nil)
		var got exchangeMatch
		if code != http.StatusOK || json.Unmarshal(raw, &got) != nil {
			t.Fatalf("%s: %d %s", who, code, raw)
		}
		return got, string(raw)
	}

	// Without the reveal: never, even long after.
	e.must(http.StatusCreated, "POST", path, "ann", map[string]any{}, nil)
	setDay(-30)
	for _, m := range everyone {
		if got, raw := circleSeen(m); got.RevealAfterExchange || strings.Contains(raw, "circle") {
			t.Fatalf("%s without the reveal: %s", m, raw)
		}
	}

	// With it: not before, not on the day.
	var drawn struct{ RevealAfterExchange bool }
	e.must(http.StatusCreated, "POST", path, "ann", map[string]any{"revealAfterExchange": true}, &drawn)
	if !drawn.RevealAfterExchange {
		t.Fatalf("the draw's answer %+v", drawn)
	}
	for _, days := range []int{5, 0} {
		setDay(days)
		for _, m := range everyone {
			if got, raw := circleSeen(m); !got.RevealAfterExchange || strings.Contains(raw, "circle") {
				t.Fatalf("%s, exchange in %d days: %s", m, days, raw)
			}
		}
	}
	// The day after: everyone in the draw sees the same circle, and it is the draw.
	setDay(-1)
	gives := map[string]string{}
	var first []string
	for _, m := range everyone {
		got, _ := circleSeen(m)
		gives[m] = got.Assignee.UID
		var pairs []string
		for _, p := range got.Circle {
			pairs = append(pairs, p.Giver.UID+">"+p.Receiver.UID)
			if p.Giver.DisplayName != strings.ToUpper(p.Giver.UID[:1])+p.Giver.UID[1:] {
				t.Fatalf("giver %+v", p.Giver)
			}
		}
		if first == nil {
			first = pairs
		} else if !slices.Equal(first, pairs) {
			t.Fatalf("%s sees %v, another %v", m, pairs, first)
		}
	}
	for _, m := range everyone {
		if !slices.Contains(first, m+">"+gives[m]) {
			t.Fatalf("the circle %v lacks %s's own pair to %s", first, m, gives[m])
		}
	}
	if len(first) != 4 {
		t.Fatalf("circle %v", first)
	}
	// Someone who joined after the draw is not in it and reads nothing.
	e.join("eve", c.Invite.Token)
	e.refused(http.StatusNotFound, "no_draw", "GET", path, "eve", nil)
	// A redraw without the reveal hides it again.
	e.must(http.StatusCreated, "POST", path, "ann", map[string]any{"revealAfterExchange": false}, nil)
	if got, raw := circleSeen("ben"); got.RevealAfterExchange || strings.Contains(raw, "circle") {
		t.Fatalf("after a redraw without the reveal: %s", raw)
	}
}

func exchangeReplica(t *testing.T, e *env, clock *testenv.Clock) (*reminders.Scheduler, *adapters.Repository, *pgxpool.Pool) {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), e.pool.Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	repo := adapters.NewRepository(pool)
	return reminders.New(pool, reminders.Options{Clock: clock.Now, Registry: prometheus.NewRegistry()}, repo.ExchangeSoonDue), repo, pool
}

// "Secret Santa exchange in 3 days" goes to every participant of the draw, once: two replicas
// scan at the same moments, a third crashes between its scan and its commit, and a restarted
// one scans again; someone who joined after the draw and a family without a draw hear nothing
// (until a redraw takes the newcomer in), a redraw with the same date reminds nobody twice, and
// a new date is a new occasion.
func TestTheExchangeReminderGoesOnceToEachParticipant(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	smiths := e.create("ann", "The Smiths")
	e.join("bob", smiths.Invite.Token)
	e.join("cleo", smiths.Invite.Token)
	on := time.Now().UTC().AddDate(0, 0, 10).Truncate(24 * time.Hour)
	day := on.Format(time.DateOnly)
	path := "/api/families/" + smiths.ID + "/secret-santa"
	e.must(http.StatusCreated, "POST", path, "ann", map[string]any{}, nil)
	e.must(http.StatusOK, "PATCH", path, "ann", map[string]any{"exchangeOn": day, "place": "Grandma's"}, nil)
	e.join("dan", smiths.Invite.Token) // after the draw: not a participant
	// The Joneses set the same day and never drew.
	joneses := e.create("eve", "The Joneses")
	e.join("fay", joneses.Invite.Token)
	e.must(http.StatusOK, "PATCH", "/api/families/"+joneses.ID+"/secret-santa", "eve", map[string]any{"exchangeOn": day}, nil)

	clock := testenv.NewClock(on.Add(-4 * 24 * time.Hour))
	a, _, _ := exchangeReplica(t, e, clock)
	b, _, _ := exchangeReplica(t, e, clock)
	both := func() int { t.Helper(); return reminderstest.ScanTogether(t, 6, a, b) }
	if n := both(); n != 0 {
		t.Fatalf("4 days before the exchange %d reminders went out", n)
	}

	clock.Set(on.Add(-3*24*time.Hour + time.Hour))
	_, crashRepo, crashPool := exchangeReplica(t, e, clock)
	due, err := crashRepo.ExchangeSoonDue(ctx, clock.Now())
	if err != nil || len(due) != 3 {
		t.Fatalf("due 3 days before: %+v, %v (want ann, bob and cleo)", due, err)
	}
	if n := reminderstest.CrashWhileSending(t, crashPool, due[0], a); n != 3 {
		t.Fatalf("replica a sent %d after the crash, want 3", n)
	}
	restarted, _, _ := exchangeReplica(t, e, clock)
	if n, err := restarted.RunOnce(ctx); err != nil || n != 0 {
		t.Fatalf("the restarted replica sent %d (%v)", n, err)
	}
	// A redraw (same date) is not a new occasion: only dan, in the draw now, is reminded.
	e.must(http.StatusCreated, "POST", path, "ann", map[string]any{}, nil)
	clock.Set(on.Add(-2 * 24 * time.Hour))
	if n := both(); n != 1 {
		t.Fatalf("after a redraw %d reminders, want dan's alone", n)
	}
	for _, at := range []time.Duration{-24 * time.Hour, 0} {
		clock.Set(on.Add(at))
		if n := both(); n != 0 {
			t.Fatalf("%v from the exchange: %d reminders sent again", at, n)
		}
	}

	got := map[string]int{}
	for _, env := range familyEvents(t, e, events.TypeReminderExchangeSoon) {
		conformsToSchema(t, env)
		var d events.ExchangeSoonData
		wantDays := 3
		if env.UserID == "dan" {
			wantDays = 2
		}
		if err := json.Unmarshal(env.Data, &d); err != nil || d.FamilyID != smiths.ID || d.ExchangeOn != day || d.DaysLeft != wantDays ||
			d.FamilyName != "The Smiths" || d.Place != "Grandma's" {
			t.Fatalf("reminder %s: %s", env.UserID, env.Data)
		}
		got[env.UserID]++
	}
	if len(got) != 4 || got["ann"] != 1 || got["bob"] != 1 || got["cleo"] != 1 || got["dan"] != 1 {
		t.Fatalf("exchange reminders per recipient %v, want ann, bob, cleo and dan once each (not eve or fay)", got)
	}

	// A new date is a new occasion.
	later := on.AddDate(0, 0, 5)
	e.must(http.StatusOK, "PATCH", path, "ann", map[string]any{"exchangeOn": later.Format(time.DateOnly)}, nil)
	clock.Set(later.Add(-24 * time.Hour))
	if n := both(); n != 4 {
		t.Fatalf("a new exchange date sent %d reminders, want 4", n)
	}
	if n := both(); n != 0 {
		t.Fatalf("then %d more", n)
	}
}
