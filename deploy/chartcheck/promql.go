package chartcheck

import (
	"fmt"
	"sort"
	"strings"
)

// promqlKeywords are identifiers that are PromQL syntax, never metric names.
var promqlKeywords = map[string]bool{
	"and": true, "or": true, "unless": true, "bool": true, "offset": true, "atan2": true,
	"by": true, "without": true, "on": true, "ignoring": true, "group_left": true, "group_right": true,
	"inf": true, "nan": true, "start": true, "end": true,
	// Aggregation operators, which may be followed by "by (...)" before their "(".
	"sum": true, "min": true, "max": true, "avg": true, "group": true, "stddev": true, "stdvar": true,
	"count": true, "count_values": true, "bottomk": true, "topk": true, "quantile": true,
	"limitk": true, "limit_ratio": true,
}

// labelListKeywords are followed by a parenthesised list of label names.
var labelListKeywords = map[string]bool{
	"by": true, "without": true, "on": true, "ignoring": true, "group_left": true, "group_right": true,
}

// MetricNames returns the metric names a PromQL expression selects. It is a lexer, not a full
// parser: it skips strings, label matchers ({...}), ranges ([...]), label lists after by,
// without, on, ignoring and group_*, and function names (an identifier followed by "("). It
// reports unbalanced brackets and unterminated strings, which catches most broken queries.
func MetricNames(expr string) ([]string, error) {
	names := map[string]bool{}
	var stack []byte
	isIdentStart := func(c byte) bool { return c == '_' || c == ':' || (c|0x20 >= 'a' && c|0x20 <= 'z') }
	isIdent := func(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }
	nextNonSpace := func(i int) (byte, int) {
		for ; i < len(expr); i++ {
			if c := expr[i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				return c, i
			}
		}
		return 0, i
	}
	inside := func(open byte) bool { return len(stack) > 0 && stack[len(stack)-1] == open }
	skipLabelList := false
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			j := i + 1
			for ; j < len(expr) && expr[j] != c; j++ {
				if expr[j] == '\\' && c != '`' {
					j++
				}
			}
			if j >= len(expr) {
				return nil, fmt.Errorf("unterminated string in %q", expr)
			}
			i = j
		case c == '#':
			for i < len(expr) && expr[i] != '\n' {
				i++
			}
		case c == '(' || c == '{' || c == '[':
			if c == '(' && skipLabelList {
				stack = append(stack, 'L')
				skipLabelList = false
			} else {
				stack = append(stack, c)
			}
		case c == ')' || c == '}' || c == ']':
			want := map[byte]byte{')': '(', '}': '{', ']': '['}[c]
			if len(stack) == 0 {
				return nil, fmt.Errorf("unbalanced %q in %q", c, expr)
			}
			top := stack[len(stack)-1]
			if top != want && !(top == 'L' && c == ')') {
				return nil, fmt.Errorf("unbalanced %q in %q", c, expr)
			}
			stack = stack[:len(stack)-1]
		case c == '$': // a Grafana variable such as $__rate_interval
			for i+1 < len(expr) && isIdent(expr[i+1]) {
				i++
			}
		case c >= '0' && c <= '9', c == '.':
			for i+1 < len(expr) && (isIdent(expr[i+1]) || expr[i+1] == '.') {
				i++ // numbers and durations such as 5m, 1e3, 0x1f
			}
		case isIdentStart(c):
			j := i
			for j < len(expr) && isIdent(expr[j]) {
				j++
			}
			word := expr[i:j]
			i = j - 1
			if inside('{') || inside('L') || inside('[') {
				continue // label names, label lists, durations
			}
			next, _ := nextNonSpace(j)
			lower := strings.ToLower(word)
			if labelListKeywords[lower] {
				skipLabelList = next == '('
				continue
			}
			if promqlKeywords[lower] || next == '(' {
				continue
			}
			names[word] = true
		}
	}
	if len(stack) > 0 {
		return nil, fmt.Errorf("unclosed %q in %q", stack[len(stack)-1], expr)
	}
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
