package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func component(t *testing.T, name string) Component {
	t.Helper()
	cs, err := Components(current, checkout)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no %s", name)
	return Component{}
}

func TestKubernetesModule(t *testing.T) {
	theirs := "module k8s.io/kubernetes\n\nrequire (\n\tk8s.io/api v0.0.0\n)\n\nreplace (\n\tk8s.io/api => ./staging/src/k8s.io/api\n\tk8s.io/kubectl => ./staging/src/k8s.io/kubectl\n)\n"
	c := component(t, "kubernetes")
	got, err := ThrowawayGoMod(c, current, theirs)
	want := "module santa.local/k8sbuild\ngo 1.24.0\nrequire k8s.io/kubernetes v1.33.13\n" +
		"replace k8s.io/api => k8s.io/api v0.33.13\nreplace k8s.io/kubectl => k8s.io/kubectl v0.33.13\n"
	if err != nil || got != want {
		t.Errorf("go.mod = %q, %v\nwant %q", got, err, want)
	}
	// As the build left it in the cache: tools.go of the throwaway module.
	wantTools := "//go:build tools\npackage tools\nimport (\n" +
		"\t_ \"k8s.io/kubernetes/cmd/kube-apiserver\"\n\t_ \"k8s.io/kubernetes/cmd/kube-controller-manager\"\n" +
		"\t_ \"k8s.io/kubernetes/cmd/kube-scheduler\"\n\t_ \"k8s.io/kubernetes/cmd/kubelet\"\n" +
		"\t_ \"k8s.io/kubernetes/cmd/kube-proxy\"\n\t_ \"k8s.io/kubernetes/cmd/kubectl\"\n)\n"
	if got := ToolsGo(c); got != wantTools {
		t.Errorf("tools.go = %q", got)
	}
	if _, err := ThrowawayGoMod(c, current, "module k8s.io/kubernetes\n"); err == nil {
		t.Error("no replace lines: taken")
	}
}

func TestSkaffoldModule(t *testing.T) {
	theirs := "module github.com/GoogleContainerTools/skaffold/v2\n\nexclude github.com/a/b v1.0.0\nreplace github.com/c/d => github.com/c/d v1.2.3\nrequire x v1\n\treplace y => z v1\n"
	c := component(t, "skaffold")
	got, err := ThrowawayGoMod(c, current, theirs)
	want := "module santa.local/skaffoldbuild\ngo 1.24.1\nrequire github.com/GoogleContainerTools/skaffold/v2 v2.16.1\n" +
		"exclude github.com/a/b v1.0.0\nreplace github.com/c/d => github.com/c/d v1.2.3\n"
	if err != nil || got != want {
		t.Errorf("go.mod = %q, %v\nwant %q", got, err, want)
	}
	if got := ToolsGo(c); got != "//go:build tools\npackage tools\nimport _ \"github.com/GoogleContainerTools/skaffold/v2/cmd/skaffold\"\n" {
		t.Errorf("tools.go = %q", got)
	}
}

// The module cache is read-only; the copy is writable by its owner, with the same files.
func TestCopyTree(t *testing.T) {
	from, to := t.TempDir(), filepath.Join(t.TempDir(), "copy")
	os.MkdirAll(filepath.Join(from, "cmd", "x"), 0o755)
	os.WriteFile(filepath.Join(from, "go.mod"), []byte("module m\n"), 0o444)
	os.WriteFile(filepath.Join(from, "cmd", "x", "run.sh"), []byte("#!/bin/sh\n"), 0o555)
	os.Chmod(filepath.Join(from, "cmd", "x"), 0o555)
	t.Cleanup(func() { os.Chmod(filepath.Join(from, "cmd", "x"), 0o755) })
	if err := copyTree(from, to); err != nil {
		t.Fatal(err)
	}
	for path, mode := range map[string]os.FileMode{"go.mod": 0o644, "cmd/x/run.sh": 0o755, "cmd/x": 0o755 | os.ModeDir} {
		fi, err := os.Stat(filepath.Join(to, path))
		if err != nil || fi.Mode() != mode {
			t.Errorf("%s: %v %v, want %v", path, fi.Mode(), err, mode)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(to, "go.mod")); !strings.HasPrefix(string(b), "module m") {
		t.Errorf("go.mod: %q", b)
	}
}
