//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// clusterReplicas is how many pods each service runs under make k8s-test
// (deploy/cluster/values.yaml).
const clusterReplicas = "2"

// onCluster: the suite runs against the chart on a cluster (deploy/cluster/k8s-test.sh sets
// KUBECTL and K8S_NAMESPACE), not the local test stack.
func onCluster() bool { return os.Getenv("KUBECTL") != "" && os.Getenv("K8S_NAMESPACE") != "" }

// kubectl runs kubectl in the release's namespace and returns its output.
func kubectl(t *testing.T, args ...string) string {
	t.Helper()
	return kubectlIn(t, os.Getenv("K8S_NAMESPACE"), "", args...)
}

// kubectlIn runs kubectl in namespace, with stdin as its input (a manifest for `apply -f -`),
// and returns its output.
func kubectlIn(t *testing.T, namespace, stdin string, args ...string) string {
	t.Helper()
	if !onCluster() {
		t.Fatal("KUBECTL and K8S_NAMESPACE are not set: run this through make k8s-test")
	}
	args = append([]string{"-n", namespace}, args...)
	cmd := exec.Command(os.Getenv("KUBECTL"), args...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}
