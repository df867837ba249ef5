// Package chartcheck checks Santa Wishlist's delivery files without a cluster or a Docker
// engine: the Helm chart (rendered and decoded strictly into the Kubernetes API types), the
// Dockerfiles (their Go build really yields static binaries), skaffold.yaml, and the dashboard
// and alert rules (they use only documented metric names). The tests are the point; the code
// here is the parsing they share.
package chartcheck

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Services lists the directories under services/ — the source of truth the chart, the
// Dockerfiles and skaffold.yaml are checked against.
func Services(root string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(root, "services"))
	if err != nil {
		return nil, fmt.Errorf("list services: %w", err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, errors.New("no directories under services/")
	}
	return names, nil
}

// RepoRoot finds the repository root: the nearest parent directory holding go.work.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.work above the working directory")
		}
		dir = parent
	}
}

// HelmPath is $HELM, else the pinned helm that install-helm.sh puts in ~/.cache/santa/bin.
func HelmPath() string {
	if h := os.Getenv("HELM"); h != "" {
		return h
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "santa", "bin", "helm")
}

// KubeVersion is the cluster version the chart is rendered for. Helm built with `go install`
// carries no default Kubernetes version of its own (it reports v1.20), so it is always given.
const KubeVersion = "1.33.0"

// Helm runs helm with args in dir and returns its standard output, or an error carrying its
// standard error.
func Helm(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command(HelmPath(), args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), fmt.Errorf("helm %s: %w\n%s%s", strings.Join(args, " "), err, stderr.String(), stdout.String())
	}
	return stdout.Bytes(), nil
}

// Template renders the chart with the given values files (relative to root) and extra helm
// arguments such as --set.
func Template(root string, valuesFiles []string, extra ...string) ([]byte, error) {
	args := []string{"template", "santa", "charts/santa-wishlist", "--namespace", "santa", "--kube-version", KubeVersion}
	for _, f := range valuesFiles {
		args = append(args, "--values", f)
	}
	return Helm(root, append(args, extra...)...)
}
