package chartcheck

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
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

// ParseConventions reads the "Metrics" section's names and the "Environment" table, with
// goldmark (CommonMark plus GitHub's tables) doing the Markdown.
func ParseConventions(md string) (*Conventions, error) {
	src := []byte(md)
	doc := goldmark.New(goldmark.WithExtensions(extension.Table)).Parser().Parse(text.NewReader(src))
	c := &Conventions{Metrics: map[string]bool{}, EnvUsedBy: map[string][]string{}}
	section := ""
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			if h.Level == 2 {
				section = strings.ToLower(inlineText(h, src))
			}
			continue
		}
		switch {
		case strings.HasPrefix(section, "metrics"):
			for _, tok := range codeSpans(n, src) {
				if strings.HasSuffix(tok, "_*") {
					c.MetricPrefixes = append(c.MetricPrefixes, strings.TrimSuffix(tok, "*"))
					continue
				}
				if mm := metricName.FindStringSubmatch(tok); mm != nil {
					c.Metrics[mm[1]] = true
				}
			}
		case section == "environment":
			if table, ok := n.(*east.Table); ok {
				c.addEnvironment(table, src)
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

// addEnvironment reads the table's rows: the variables (code spans) of the first cell, the
// services of the second.
func (c *Conventions) addEnvironment(table *east.Table, src []byte) {
	for row := table.FirstChild(); row != nil; row = row.NextSibling() {
		if row.Kind() != east.KindTableRow || row.ChildCount() < 2 {
			continue // the header row
		}
		var vars []string
		for _, v := range codeSpans(row.FirstChild(), src) {
			if envName.MatchString(v) {
				vars = append(vars, v)
			}
		}
		usedBy := inlineText(row.FirstChild().NextSibling(), src)
		// "gateway (wishlist uses `MEDIA_URL`)": wishlist reads that one variable too.
		for _, m := range alsoUses.FindAllStringSubmatch(usedBy, -1) {
			for _, v := range backticked.FindAllStringSubmatch(m[2], -1) {
				c.EnvUsedBy[v[1]] = append(c.EnvUsedBy[v[1]], strings.ToLower(m[1]))
			}
		}
		var users []string
		for _, u := range strings.Split(parenthesised.ReplaceAllString(strings.ToLower(usedBy), ""), ",") { // "(dev/test only)"
			if u = strings.TrimSpace(u); u != "" {
				users = append(users, u)
			}
		}
		for _, v := range vars {
			c.EnvUsedBy[v] = append(c.EnvUsedBy[v], users...)
		}
	}
}

// inlineText is a node's text with code spans kept in backticks.
func inlineText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(m ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch m := m.(type) {
		case *ast.CodeSpan:
			b.WriteString("`" + codeSpanText(m, src) + "`")
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			b.Write(m.Value(src))
			if m.SoftLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(m.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

func codeSpanText(cs *ast.CodeSpan, src []byte) string {
	var b strings.Builder
	for t := cs.FirstChild(); t != nil; t = t.NextSibling() {
		if t, ok := t.(*ast.Text); ok {
			b.Write(t.Value(src))
		}
	}
	return b.String()
}

// codeSpans returns the text of every code span under n.
func codeSpans(n ast.Node, src []byte) []string {
	var out []string
	_ = ast.Walk(n, func(m ast.Node, entering bool) (ast.WalkStatus, error) {
		if cs, ok := m.(*ast.CodeSpan); ok && entering {
			out = append(out, codeSpanText(cs, src))
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
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
