package app_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/santa-wishlist/santa/pkg/caller"
	"github.com/santa-wishlist/santa/services/vision/internal/app"
)

func TestTheGlobalDailyBudgetStopsEveryoneWithAClearMessage(t *testing.T) {
	cfg := testConfig()
	cfg.QuotaPerUser, cfg.QuotaPerIP, cfg.DailyBudget = 10, 10, 3
	h := start(t, cfg, true)
	ctx := context.Background()
	// Three people on three networks: each is far from their own quota.
	callers := []caller.Caller{{UID: "a", IP: "192.0.2.1"}, {UID: "b", IP: "192.0.2.2"}, {IP: "198.51.100.7"}}
	for i, c := range callers {
		if _, _, err := h.svc.GenerateGift(ctx, c, "gift number "+string(rune('a'+i)), nil); err != nil {
			t.Fatal(err)
		}
	}
	if used, limit := testutil.ToFloat64(h.metrics.BudgetUsed), testutil.ToFloat64(h.metrics.BudgetLimit); used != 3 || limit != 3 {
		t.Fatalf("budget gauges %v / %v", used, limit)
	}
	_, _, err := h.svc.GenerateGift(ctx, caller.Caller{UID: "d", IP: "203.0.113.4"}, "a fourth gift", nil)
	var spent *app.QuotaExceeded
	if !errors.As(err, &spent) || spent.Scope != "global" || spent.RetryAfter <= 0 {
		t.Fatalf("fourth caller: %v", err)
	}
	if msg := spent.Error(); !strings.Contains(msg, "for everyone") || !strings.Contains(msg, "tomorrow") || !strings.Contains(msg, "by hand") {
		t.Errorf("message %q does not say what happened and what to do", msg)
	}
	if h.fake.Calls() != 3 {
		t.Errorf("%d model calls, the budget allows 3", h.fake.Calls())
	}
	// Answers already paid for are still served.
	if _, outcome, err := h.svc.GenerateGift(ctx, callers[0], "gift number a", nil); err != nil || outcome != app.OutcomeCache {
		t.Fatalf("cache hit after the budget: %v %s", err, outcome)
	}
}
