//go:build e2e && cluster

// The network policy drill of `make k8s-test`: the local cluster enforces NetworkPolicies
// (kube-router's policy controller, deploy/cluster/cluster.sh), so the chart's policies are
// tried from pods standing where an attacker or a neighbour would stand. Each probe pod tries
// a TCP connection to every service and dependency of the release and prints what it reached.
package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"
)

// probeImage is the local cluster's Debian rootfs (images.sh): bash, whose /dev/tcp makes the
// connection, and coreutils' timeout.
const probeImage = "santa.local/redis:7-bookworm"

// probeTargets: every Service of the release that a pod could try, by its port.
var probeTargets = []string{
	"gateway:80", "wishlist:80", "vision:80", "media:80", "notification:80", "family:80",
	"wishlist:9090", "postgresql:5432", "redis:6379", "nats:4222", "minio:9000",
	"fake-internet:8096",
}

// probe is a pod somewhere in the cluster, with what it may reach: a target it is not listed
// for must be refused. fake-internet has no policy of its own, so a probe that no policy
// confines reaches it, which shows that its refusals are the policies' doing and not a broken
// probe; one that wears a service's labels is confined by that service's egress rules.
type probe struct {
	name, namespace string
	labels          map[string]string
	reaches         []string
}

// probePod is a pod that waits, under Pod Security "restricted", never Ready: a probe that
// wears a service's labels must not become an endpoint of that service's Service.
func probePod(p probe) string {
	var labels []string
	for k, v := range p.labels {
		labels = append(labels, fmt.Sprintf("%q: %q", k, v))
	}
	sort.Strings(labels)
	return fmt.Sprintf(`apiVersion: v1
kind: Pod
metadata:
  name: %s
  labels: {%s}
spec:
  automountServiceAccountToken: false
  terminationGracePeriodSeconds: 0
  securityContext: {runAsNonRoot: true, runAsUser: 65532, seccompProfile: {type: RuntimeDefault}}
  containers:
  - name: probe
    image: %s
    imagePullPolicy: Never
    command: [sleep, "600"]
    readinessProbe: {exec: {command: ["false"]}, periodSeconds: 60}
    securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}, readOnlyRootFilesystem: true}
`, p.name, strings.Join(labels, ", "), probeImage)
}

// reachable tries every target at once from the probe and returns those that connected.
func reachable(t *testing.T, p probe, release string) map[string]bool {
	t.Helper()
	var script strings.Builder
	for _, target := range probeTargets {
		host, port, _ := strings.Cut(target, ":")
		fmt.Fprintf(&script, "(timeout 3 bash -c 'exec 3<>/dev/tcp/%s.%s.svc.cluster.local/%s' 2>/dev/null && echo %s) &\n",
			host, release, port, target)
	}
	script.WriteString("wait\n")
	out := kubectlIn(t, p.namespace, "", "exec", p.name, "--", "bash", "-c", script.String())
	got := map[string]bool{}
	for _, line := range strings.Fields(out) {
		got[line] = true
	}
	return got
}

func TestDrillNetworkPoliciesLetOnlyTheGatewayIn(t *testing.T) {
	release := os.Getenv("K8S_NAMESPACE")
	service := func(name string) map[string]string {
		return map[string]string{"app.kubernetes.io/name": name, "app.kubernetes.io/instance": "santa"}
	}
	probes := []probe{
		// The ingress controller the chart names (networkPolicy.ingressController): the only
		// way in from outside the namespace, and only to the gateway.
		{name: "np-ingress", namespace: "ingress-nginx",
			labels:  map[string]string{"app.kubernetes.io/name": "ingress-nginx"},
			reaches: []string{"gateway:80", "fake-internet:8096"}},
		// Any other pod of the cluster: nothing of the release.
		{name: "np-outsider", namespace: "santa-np-outside", labels: map[string]string{"app": "np-outsider"},
			reaches: []string{"fake-internet:8096"}},
		// A pod inside the release's namespace that is none of its services: nothing either.
		{name: "np-stranger", namespace: release, labels: map[string]string{"app": "np-stranger"},
			reaches: []string{"fake-internet:8096"}},
		// A pod wearing the gateway's labels: the services it calls, Redis and NATS; not the
		// database, the object store or the services' admin ports.
		{name: "np-as-gateway", namespace: release, labels: service("gateway"),
			reaches: []string{"wishlist:80", "vision:80", "media:80", "notification:80", "family:80", "redis:6379", "nats:4222"}},
		// A pod wearing the family service's labels: PostgreSQL and NATS, and no other service.
		{name: "np-as-family", namespace: release, labels: service("family"),
			reaches: []string{"postgresql:5432", "nats:4222"}},
	}
	for _, ns := range []string{"ingress-nginx", "santa-np-outside"} {
		kubectlIn(t, "default", "", "create", "namespace", ns)
		t.Cleanup(func() { _ = exec.Command(os.Getenv("KUBECTL"), "delete", "namespace", ns, "--wait=false").Run() })
	}
	for _, p := range probes {
		kubectlIn(t, p.namespace, probePod(p), "apply", "-f", "-")
		t.Cleanup(func() {
			_ = exec.Command(os.Getenv("KUBECTL"), "-n", p.namespace, "delete", "pod", p.name, "--wait=false").Run()
		})
	}
	for _, p := range probes {
		kubectlIn(t, p.namespace, "", "wait", "pod/"+p.name, "--for=jsonpath={.status.phase}=Running", "--timeout=120s")
	}

	started := time.Now()
	for _, p := range probes {
		want := map[string]bool{}
		for _, target := range p.reaches {
			want[target] = true
		}
		// The policy controller programs a new pod's rules a moment after it starts: ask
		// again until what the probe reaches is what the policies allow, for at most 60 s.
		var got map[string]bool
		deadline := time.Now().Add(60 * time.Second)
		for {
			got = reachable(t, p, release)
			if fmt.Sprint(got) == fmt.Sprint(want) || time.Now().After(deadline) {
				break
			}
			time.Sleep(2 * time.Second)
		}
		var reached, refused []string
		for _, target := range probeTargets {
			if got[target] {
				reached = append(reached, target)
			} else {
				refused = append(refused, target)
			}
		}
		t.Logf("drill: network policies: from %s/%s (%v): reached %v; refused %v",
			p.namespace, p.name, p.labels, reached, refused)
		for _, target := range probeTargets {
			if got[target] != want[target] {
				t.Errorf("from %s/%s, %s: reached=%v, want %v", p.namespace, p.name, target, got[target], want[target])
			}
		}
	}
	t.Logf("drill: network policies: %d probes agree with the chart's policies after %s",
		len(probes), time.Since(started).Round(time.Second))
}
