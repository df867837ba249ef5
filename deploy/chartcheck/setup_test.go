package chartcheck

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// valuesSets are the ways the chart is installed: its defaults, the two environments,
// production with a workload identity instead of its mounted key, the example that swaps in
// an external PostgreSQL, and the local cluster of make k8s-test.
var valuesSets = map[string][]string{
	"default":                nil,
	"dev":                    {"deploy/values/dev.yaml"},
	"cluster":                {"deploy/values/dev.yaml", "deploy/cluster/values.yaml"},
	"prod":                   {"deploy/values/prod.yaml"},
	"prod-workload-identity": {"deploy/values/prod.yaml", "deploy/values/workload-identity-example.yaml"},
	"external-postgres":      {"deploy/values/external-postgres-example.yaml"},
}

func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func readFile(t testing.TB, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// needHelm fails (not skips) with the way to get helm when it is missing.
func needHelm(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath(HelmPath()); err != nil {
		t.Fatalf("helm not found at %s (%v): run deploy/chartcheck/install-helm.sh or set HELM", HelmPath(), err)
	}
}

var (
	renderMu    sync.Mutex
	renderCache = map[string]*Manifests{}
)

// rendered renders and strictly decodes a values set once per test run.
func rendered(t testing.TB, set string) *Manifests {
	t.Helper()
	needHelm(t)
	renderMu.Lock()
	defer renderMu.Unlock()
	if m, ok := renderCache[set]; ok {
		return m
	}
	files, ok := valuesSets[set]
	if !ok {
		t.Fatalf("unknown values set %q", set)
	}
	out, err := Template(repoRoot(t), files)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(out)
	if err != nil {
		t.Fatalf("values %s: objects do not decode strictly into the Kubernetes API types:\n%v", set, err)
	}
	renderCache[set] = m
	return m
}

func conventions(t testing.TB) *Conventions {
	t.Helper()
	c, err := ParseConventions(readFile(t, repoRoot(t), "docs/conventions.md"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func services(t testing.TB) []string {
	t.Helper()
	s, err := Services(repoRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func joinSorted(set map[string]bool) string {
	return strings.Join(slices.Sorted(maps.Keys(set)), ", ")
}
