package app

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

// Metrics count model calls, their failures and cache hits.
type Metrics struct {
	Calls     *prometheus.CounterVec
	Failures  *prometheus.CounterVec
	CacheHits prometheus.Counter
	// BudgetUsed and BudgetLimit are today's model calls for everyone against the daily
	// budget (GEMINI_DAILY_BUDGET); an alert fires before the budget is spent.
	BudgetUsed, BudgetLimit prometheus.Gauge
}

// NewMetrics registers the metrics with every label value already present at zero, so
// dashboards and alerts see the series before the first failure.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		Calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gemini_calls_total", Help: "Requests sent to Gemini (each retry counts), by kind.",
		}, []string{"kind"}),
		Failures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gemini_failures_total", Help: "Gemini requests that failed or whose reply was unusable, by kind and reason.",
		}, []string{"kind", "reason"}),
		CacheHits: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "vision_cache_hits_total", Help: "Answers served from the cache without calling Gemini.",
		}),
		BudgetUsed: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gemini_daily_budget_used", Help: "Gemini calls made today (UTC) by every replica together, as last seen by this one.",
		}),
		BudgetLimit: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gemini_daily_budget_limit", Help: "Gemini calls allowed per UTC day for everyone (0: no budget).",
		}),
	}
	reg.MustRegister(m.Calls, m.Failures, m.CacheHits, m.BudgetUsed, m.BudgetLimit)
	reasons := []string{domain.ReasonStatus, domain.ReasonRateLimited, domain.ReasonTimeout, domain.ReasonNetwork,
		domain.ReasonNoResponse, domain.ReasonNoValidResponse, domain.ReasonUnparseable}
	for _, k := range []domain.Kind{domain.KindAnalyze, domain.KindGift, domain.KindItem} {
		m.Calls.WithLabelValues(string(k))
		for _, r := range reasons {
			m.Failures.WithLabelValues(string(k), r)
		}
	}
	return m
}
