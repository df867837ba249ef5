package chartcheck

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

const (
	dashboardFile = "deploy/observability/santa-wishlist-dashboard.json"
	alertsFile    = "deploy/observability/alerts.yaml"
)

func TestPromQLMetricNames(t *testing.T) {
	cases := map[string]string{
		`sum by (service) (rate(http_requests_total{namespace=~"$namespace",status=~"5.."}[$__rate_interval]))`: "http_requests_total",
		`histogram_quantile(0.99, sum by (service, le) (rate(http_request_duration_seconds_bucket[5m]))) > 1`:   "http_request_duration_seconds_bucket",
		`outbox_backlog > 100 and delta(outbox_backlog[15m]) > 0`:                                               "outbox_backlog",
		`sum(rate(a_total[1m])) without (pod) / on (job) group_left (x) b_total offset 5m`:                      "a_total b_total",
		`max by (job, consumer) (events_consumer_pending) > 5e2`:                                                "events_consumer_pending",
		`sum(x{le="+Inf", a='b}'}) by (le)`:                                                                     "x",
		`up{job=~"gateway|wishlist"} == 0 unless on(job) absent(kube_pod_container_status_restarts_total)`:      "kube_pod_container_status_restarts_total up",
	}
	for expr, want := range cases {
		got, err := MetricNames(expr)
		if err != nil {
			t.Errorf("%s: %v", expr, err)
			continue
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: got %v, want %s", expr, got, want)
		}
	}
	// The last two pass a bracket-counting lexer; Prometheus refuses them (rate needs a range).
	for _, bad := range []string{`sum(rate(x[5m])`, `x{a="b"`, `x{a="b}`, `rate(x[5m)]`, `rate(x)`, `sum by (a) x`} {
		if _, err := MetricNames(bad); err == nil {
			t.Errorf("%s: broken query accepted", bad)
		}
	}
	got, err := GrafanaQueryMetricNames(`label_values(up{job="gateway"}, namespace)`)
	if err != nil || strings.Join(got, " ") != "up" {
		t.Errorf("label_values: got %v %v", got, err)
	}
}

type dashboard struct {
	Title      string           `json:"title"`
	UID        string           `json:"uid"`
	Panels     []map[string]any `json:"panels"`
	Templating struct {
		List []map[string]any `json:"list"`
	} `json:"templating"`
}

// dashboardQueries returns every PromQL query of the dashboard, by where it is.
func dashboardQueries(t *testing.T) map[string]string {
	t.Helper()
	var d dashboard
	if err := json.Unmarshal([]byte(readFile(t, repoRoot(t), dashboardFile)), &d); err != nil {
		t.Fatalf("%s: %v", dashboardFile, err)
	}
	if d.Title == "" || d.UID == "" || len(d.Panels) == 0 {
		t.Fatalf("%s: no title, uid or panels", dashboardFile)
	}
	queries := map[string]string{}
	ids := map[float64]bool{}
	var walk func(panels []map[string]any)
	walk = func(panels []map[string]any) {
		for _, p := range panels {
			title, _ := p["title"].(string)
			if id, ok := p["id"].(float64); ok {
				if ids[id] {
					t.Errorf("panel id %v used twice", id)
				}
				ids[id] = true
			}
			if gp, ok := p["gridPos"].(map[string]any); ok {
				x, _ := gp["x"].(float64)
				w, _ := gp["w"].(float64)
				if w <= 0 || x+w > 24 {
					t.Errorf("panel %q does not fit the 24-column grid", title)
				}
			}
			targets, _ := p["targets"].([]any)
			if p["type"] != "row" && len(targets) == 0 {
				t.Errorf("panel %q has no query", title)
			}
			for i, tg := range targets {
				m, _ := tg.(map[string]any)
				expr, _ := m["expr"].(string)
				if expr == "" {
					t.Errorf("panel %q target %d has no expr", title, i)
				}
				queries[fmt.Sprintf("panel %q #%d", title, i)] = expr
			}
			if sub, ok := p["panels"].([]any); ok {
				var inner []map[string]any
				for _, s := range sub {
					if m, ok := s.(map[string]any); ok {
						inner = append(inner, m)
					}
				}
				walk(inner)
			}
		}
	}
	walk(d.Panels)
	for _, v := range d.Templating.List {
		if v["type"] != "query" {
			continue
		}
		q := ""
		switch x := v["query"].(type) {
		case string:
			q = x
		case map[string]any:
			q, _ = x["query"].(string)
		}
		queries[fmt.Sprintf("variable %v", v["name"])] = "grafana:" + q
	}
	return queries
}

// alertQueries loads the rule file with Prometheus's rule loader (which rejects unknown keys,
// expressions that do not parse, bad durations and annotation templates that do not parse),
// checks the house rules on top, and returns every expression by alert name.
func alertQueries(t *testing.T) map[string]string {
	t.Helper()
	rf, err := LoadRules([]byte(readFile(t, repoRoot(t), alertsFile)))
	if err != nil {
		t.Fatalf("%s: %v", alertsFile, err)
	}
	queries := map[string]string{}
	for _, g := range rf.Groups {
		if g.Name == "" || len(g.Rules) == 0 {
			t.Errorf("group %q: needs a name and rules", g.Name)
		}
		for _, r := range g.Rules {
			if r.Alert == "" {
				t.Errorf("group %s: a rule without an alert name", g.Name)
				continue
			}
			if _, dup := queries[r.Alert]; dup {
				t.Errorf("alert %s defined twice", r.Alert)
			}
			queries[r.Alert] = r.Expr
			if s := r.Labels["severity"]; s != "critical" && s != "warning" {
				t.Errorf("alert %s: severity %q, want critical or warning", r.Alert, s)
			}
			if r.Annotations["summary"] == "" || r.Annotations["description"] == "" {
				t.Errorf("alert %s: needs summary and description annotations", r.Alert)
			}
		}
	}
	if len(queries) == 0 {
		t.Fatal("no alerts")
	}
	return queries
}

// The rule loader is Prometheus's: what Prometheus would refuse to load fails here too.
func TestRuleLoaderRejectsBrokenRules(t *testing.T) {
	good := "groups:\n- name: g\n  rules:\n  - alert: A\n    expr: up == 0\n    for: 5m\n    annotations: {summary: '{{ $labels.job }} down'}\n"
	if _, err := LoadRules([]byte(good)); err != nil {
		t.Fatalf("a valid rule file was refused: %v", err)
	}
	for name, bad := range map[string]string{
		"expression":   "groups:\n- name: g\n  rules:\n  - alert: A\n    expr: sum(rate(up[5m])\n",
		"duration":     "groups:\n- name: g\n  rules:\n  - alert: A\n    expr: up == 0\n    for: 5 minutes\n",
		"unknown key":  "groups:\n- name: g\n  rules:\n  - alert: A\n    expr: up == 0\n    severity: warning\n",
		"template":     "groups:\n- name: g\n  rules:\n  - alert: A\n    expr: up == 0\n    annotations: {summary: '{{ $labels.job '}\n",
		"no rule name": "groups:\n- name: g\n  rules:\n  - expr: up == 0\n",
	} {
		if _, err := LoadRules([]byte(bad)); err == nil {
			t.Errorf("%s: a broken rule file was accepted", name)
		}
	}
}

func namesOf(t *testing.T, queries map[string]string) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	for where, q := range queries {
		var names []string
		var err error
		if g, ok := strings.CutPrefix(q, "grafana:"); ok {
			names, err = GrafanaQueryMetricNames(g)
		} else {
			names, err = MetricNames(q)
		}
		if err != nil {
			t.Errorf("%s: %v", where, err)
			continue
		}
		if len(names) == 0 {
			t.Errorf("%s: selects no metric: %s", where, q)
		}
		for _, n := range names {
			if out[n] == nil {
				out[n] = map[string]bool{}
			}
			out[n][where] = true
		}
	}
	return out
}

// The dashboard and the alerts use only metric names docs/conventions.md documents (plus up
// and kube-state-metrics' restarts), and cover what operators need.
func TestObservabilityUsesDocumentedMetrics(t *testing.T) {
	conv := conventions(t)
	for file, queries := range map[string]map[string]string{dashboardFile: dashboardQueries(t), alertsFile: alertQueries(t)} {
		used := namesOf(t, queries)
		for name, where := range used {
			if !conv.Documented(name) && !ExternalMetrics[name] {
				t.Errorf("%s uses %s (in %s), which docs/conventions.md does not document", file, name, joinSorted(where))
			}
		}
		var need []string
		if file == dashboardFile {
			need = []string{"http_requests_total", "http_request_duration_seconds_bucket", "events_consumer_pending", "outbox_backlog",
				"kube_pod_container_status_restarts_total", "gemini_calls_total", "gemini_failures_total", "media_bytes_stored_total"}
		} else {
			need = []string{"up", "http_requests_total", "http_request_duration_seconds_bucket", "outbox_backlog", "events_consumer_pending"}
		}
		for _, n := range need {
			if used[n] == nil {
				t.Errorf("%s does not use %s", file, n)
			}
		}
	}
}

// usedServiceMetrics are the service-exported metric families the dashboard and alerts
// depend on (histogram series folded into their histogram).
func usedServiceMetrics(t *testing.T) map[string]bool {
	t.Helper()
	conv := conventions(t)
	out := map[string]bool{}
	for _, queries := range []map[string]string{dashboardQueries(t), alertQueries(t)} {
		for name := range namesOf(t, queries) {
			if !ExternalMetrics[name] {
				out[BaseMetric(conv, name)] = true
			}
		}
	}
	return out
}

func TestUsedServiceMetricsAreKnown(t *testing.T) {
	used := usedServiceMetrics(t)
	for _, n := range []string{"http_request_duration_seconds", "http_requests_total", "outbox_backlog", "events_consumer_pending"} {
		if !used[n] {
			t.Errorf("%s missing from %s", n, joinSorted(used))
		}
	}
	if used["http_request_duration_seconds_bucket"] || used["up"] {
		t.Errorf("series or external names leaked into the service set: %s", joinSorted(used))
	}
}
