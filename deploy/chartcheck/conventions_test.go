package chartcheck

import (
	"strings"
	"testing"
)

// Markdown is read as Markdown: an escaped pipe stays inside its cell, and a code block is
// an example, not a documented metric.
func TestParseConventionsReadsMarkdown(t *testing.T) {
	md := "# Conventions\n\n## Environment\n\n| variable | used by | meaning |\n|---|---|---|\n" +
		"| `A_B`, `C_D` | gateway, media (dev only) | either \\| or |\n| `E_F` | vision (media uses `E_F`) | x |\n\n" +
		"## Metrics\n\n- `foo_total{a}` counter, `bar_*`\n\n```\nnot `not_a_metric`\n```\n"
	c, err := ParseConventions(md)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.EnvFor("media"), " "); got != "A_B C_D E_F" {
		t.Errorf("media reads %q", got)
	}
	if got := strings.Join(c.EnvFor("vision"), " "); got != "E_F" {
		t.Errorf("vision reads %q", got)
	}
	if !c.Documented("foo_total") || !c.Documented("bar_seconds") || c.Documented("not_a_metric") {
		t.Errorf("metrics %v, prefixes %v", c.Metrics, c.MetricPrefixes)
	}
}
