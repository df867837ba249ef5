package chartcheck

import (
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
)

// grafanaIntervals are the Grafana variables that stand for a duration; PromQL itself has no
// variables, so they become a plain duration before Prometheus's parser sees the query. Other
// variables ($namespace) only appear inside label-matcher strings, where they parse as text.
var grafanaIntervals = strings.NewReplacer("$__rate_interval", "5m", "$__interval", "1m", "$__range", "1h")

// promql is Prometheus's parser with its default (non-experimental) language.
var promql = parser.NewParser(parser.Options{})

// LoadRules reads a Prometheus rule file with Prometheus's own rule loader: unknown keys,
// expressions that do not parse, bad durations, labels and annotation templates are errors,
// exactly as `promtool check rules` reports them.
func LoadRules(src []byte) (*rulefmt.RuleGroups, error) {
	groups, errs := rulefmt.Parse(src, false, model.UTF8Validation, promql, slog.New(slog.DiscardHandler))
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return groups, nil
}

// MetricNames returns the metric names a PromQL expression selects, parsed by Prometheus's
// own parser (so a query Prometheus would reject is an error here too).
func MetricNames(expr string) ([]string, error) {
	ast, err := promql.ParseExpr(grafanaIntervals.Replace(expr))
	if err != nil {
		return nil, fmt.Errorf("%q: %w", expr, err)
	}
	names := map[string]bool{}
	parser.Inspect(ast, func(node parser.Node, _ []parser.Node) error {
		if vs, ok := node.(*parser.VectorSelector); ok && vs.Name != "" {
			names[vs.Name] = true
		}
		return nil
	})
	out := make([]string, 0, len(names))
	for n := range names {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}

// GrafanaQueryMetricNames handles Grafana's templating functions (label_values(expr, label),
// query_result(expr)) before handing the PromQL inside to MetricNames.
func GrafanaQueryMetricNames(q string) ([]string, error) {
	q = strings.TrimSpace(q)
	if inner, ok := strings.CutPrefix(q, "label_values("); ok && strings.HasSuffix(inner, ")") {
		inner = strings.TrimSuffix(inner, ")")
		// label_values(label) has no metric; label_values(expr, label) drops the label.
		if k := strings.LastIndex(inner, ","); k >= 0 {
			return MetricNames(inner[:k])
		}
		return nil, nil
	}
	if inner, ok := strings.CutPrefix(q, "query_result("); ok && strings.HasSuffix(inner, ")") {
		return MetricNames(strings.TrimSuffix(inner, ")"))
	}
	return MetricNames(q)
}
