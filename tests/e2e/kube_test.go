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
	if !onCluster() {
		t.Fatal("KUBECTL and K8S_NAMESPACE are not set: run this through make k8s-test")
	}
	args = append([]string{"-n", os.Getenv("K8S_NAMESPACE")}, args...)
	out, err := exec.Command(os.Getenv("KUBECTL"), args...).CombinedOutput()
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}
