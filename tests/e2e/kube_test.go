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

// scaledByKEDA says whether a KEDA ScaledObject scales the service (false where KEDA's API is
// not installed).
func scaledByKEDA(name string) bool {
	out, err := exec.Command(os.Getenv("KUBECTL"), "-n", os.Getenv("K8S_NAMESPACE"), "get", "scaledobject", name,
		"--ignore-not-found", "-o", "name").Output()
	return err == nil && strings.TrimSpace(string(out)) != ""
}

// stopDeployment takes every pod of a service away, as an operator would. Where KEDA scales the
// service it would put the pods straight back (its minimum), so it is told to hold it at 0.
func stopDeployment(t *testing.T, name string) {
	t.Helper()
	if scaledByKEDA(name) {
		kubectl(t, "annotate", "scaledobject/"+name, "autoscaling.keda.sh/paused-replicas=0", "--overwrite")
		return
	}
	kubectl(t, "scale", "deployment/"+name, "--replicas=0")
}

// startDeployment brings a stopped service back to the cluster's pod count and waits until
// they are ready.
func startDeployment(t *testing.T, name string) {
	t.Helper()
	if scaledByKEDA(name) {
		// KEDA scales it back to its minimum (the cluster's count) once it no longer holds it.
		kubectl(t, "annotate", "scaledobject/"+name, "autoscaling.keda.sh/paused-replicas-")
	} else {
		kubectl(t, "scale", "deployment/"+name, "--replicas="+clusterReplicas)
	}
	kubectl(t, "wait", "deployment/"+name, "--for=jsonpath={.status.readyReplicas}="+clusterReplicas, "--timeout=300s")
	kubectl(t, "rollout", "status", "deployment/"+name, "--timeout=300s")
}
