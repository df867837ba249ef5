package chartcheck

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Conventions is what docs/conventions.md promises about metrics and the environment.
type Conventions struct {
	// Metrics are the documented metric names; MetricPrefixes the documented families such as
	// go_* (written as "go_" here).
	Metrics        map[string]bool
	MetricPrefixes []string
	// EnvUsedBy maps each documented variable to the services that read it; "all" stands for
	// every service.
	EnvUsedBy map[string][]string
}

// ExternalMetrics are not the services' own: Prometheus' scrape health and kube-state-metrics.
var ExternalMetrics = map[string]bool{"up": true, "kube_pod_container_status_restarts_total": true}

var (
	backticked = regexp.MustCompile("`([^`]+)`")
	metricName = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?$`)
	envName    = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)
	// "(wishlist uses `MEDIA_URL`)"
	alsoUses      = regexp.MustCompile("\\((\\w+) uses ((?:`[A-Z0-9_]+`[, and]*)+)\\)")
	parenthesised = regexp.MustCompile(`\([^)]*\)`)
)

// ParseConventions reads the "Metrics" section's names and the "Environment" table.
func ParseConventions(md string) (*Conventions, error) {
	c := &Conventions{Metrics: map[string]bool{}, EnvUsedBy: map[string][]string{}}
	section := ""
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "## ") {
			section = strings.ToLower(strings.TrimPrefix(line, "## "))
			continue
		}
		switch {
		case strings.HasPrefix(section, "metrics"):
			for _, m := range backticked.FindAllStringSubmatch(line, -1) {
				tok := m[1]
				if strings.HasSuffix(tok, "_*") {
					c.MetricPrefixes = append(c.MetricPrefixes, strings.TrimSuffix(tok, "*"))
					continue
				}
				if mm := metricName.FindStringSubmatch(tok); mm != nil {
					c.Metrics[mm[1]] = true
				}
			}
		case section == "environment" && strings.HasPrefix(line, "|"):
			cells := strings.Split(strings.Trim(line, "|"), "|")
			if len(cells) < 2 {
				continue
			}
			var vars []string
			for _, m := range backticked.FindAllStringSubmatch(cells[0], -1) {
				if envName.MatchString(m[1]) {
					vars = append(vars, m[1])
				}
			}
			if len(vars) == 0 {
				continue // header or separator row
			}
			var users []string
			// "gateway (wishlist uses `MEDIA_URL`)": wishlist reads that one variable too.
			for _, m := range alsoUses.FindAllStringSubmatch(cells[1], -1) {
				for _, v := range backticked.FindAllStringSubmatch(m[2], -1) {
					c.EnvUsedBy[v[1]] = append(c.EnvUsedBy[v[1]], strings.ToLower(m[1]))
				}
			}
			usedBy := strings.ToLower(cells[1])
			usedBy = parenthesised.ReplaceAllString(usedBy, "") // "(dev/test only)"
			for _, u := range strings.Split(usedBy, ",") {
				if u = strings.TrimSpace(u); u != "" {
					users = append(users, u)
				}
			}
			for _, v := range vars {
				c.EnvUsedBy[v] = append(c.EnvUsedBy[v], users...)
			}
		}
	}
	if len(c.Metrics) == 0 {
		return nil, fmt.Errorf("no metric names found under a \"Metrics\" heading")
	}
	if len(c.EnvUsedBy) == 0 {
		return nil, fmt.Errorf("no variables found in the \"Environment\" table")
	}
	return c, nil
}

// Documented reports whether name is a documented service metric. Histogram series
// (_bucket, _sum, _count) count as their histogram.
func (c *Conventions) Documented(name string) bool {
	return c.Metrics[BaseMetric(c, name)] || c.hasPrefix(name)
}

func (c *Conventions) hasPrefix(name string) bool {
	for _, p := range c.MetricPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// BaseMetric strips a histogram's series suffix when the base name is documented.
func BaseMetric(c *Conventions, name string) string {
	for _, suffix := range []string{"_bucket", "_sum", "_count"} {
		if base, ok := strings.CutSuffix(name, suffix); ok && c.Metrics[base] {
			return base
		}
	}
	return name
}

// EnvFor returns the documented variables a service reads, sorted.
func (c *Conventions) EnvFor(service string) []string {
	var out []string
	for v, users := range c.EnvUsedBy {
		for _, u := range users {
			if u == "all" || u == service {
				out = append(out, v)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}
