//go:build e2e && cluster

// The network policy drill of `make k8s-test`: the local cluster enforces NetworkPolicies
// (kube-router's policy controller, deploy/cluster/cluster.sh), so the chart's policies are
// tried from pods standing where an attacker or a neighbour would stand. Each probe pod tries
// a TCP connection to every service and dependency of the release and prints what it reached.
package e2e

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
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
	ingressNS := os.Getenv("SANTA_INGRESS_NAMESPACE")
	if ingressNS == "" {
		t.Fatal("SANTA_INGRESS_NAMESPACE is not set (k8s-test.sh sets it)")
	}
	service := func(name string) map[string]string {
		return map[string]string{"app.kubernetes.io/name": name, "app.kubernetes.io/instance": "santa"}
	}
	// The ingress controller the chart names (networkPolicy.ingressController) is the real one,
	// Traefik (deploy/cluster/ingress.yaml): the only way in from outside the namespace. Its own
	// pods are tried by a request through it (below); a pod may not pass for it by wearing its
	// labels elsewhere, nor by standing in its namespace without them.
	traefik := map[string]string{"app.kubernetes.io/name": "traefik"}
	probes := []probe{
		{name: "np-ingress-lookalike", namespace: "santa-np-outside", labels: traefik,
			reaches: []string{"fake-internet:8096"}},
		{name: "np-ingress-neighbour", namespace: ingressNS, labels: map[string]string{"app": "np-ingress-neighbour"},
			reaches: []string{"fake-internet:8096"}},
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
	kubectlIn(t, "default", "", "create", "namespace", "santa-np-outside")
	t.Cleanup(func() {
		_ = exec.Command(os.Getenv("KUBECTL"), "delete", "namespace", "santa-np-outside", "--wait=false").Run()
	})
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

	// The real controller's pods do reach the gateway: a request through Traefik, on the
	// Ingress's host, gets the gateway's answer.
	status, answer := throughIngress(t, "/api/config")
	t.Logf("drill: network policies: through the ingress controller (%s pods), /api/config answered %d", ingressNS, status)
	if status != http.StatusOK {
		t.Errorf("through the ingress controller, /api/config answered %d (%s), want 200", status, answer)
	}
}

// throughIngress GETs path from the ingress controller (SANTA_INGRESS_ADDR, its HTTPS node port)
// with the Ingress's host (SANTA_INGRESS_HOST) as the Host and the TLS server name, as a browser
// resolving that name to it would.
func throughIngress(t *testing.T, path string) (int, string) {
	t.Helper()
	addr, host := os.Getenv("SANTA_INGRESS_ADDR"), os.Getenv("SANTA_INGRESS_HOST")
	if addr == "" || host == "" {
		t.Fatal("SANTA_INGRESS_ADDR and SANTA_INGRESS_HOST are not set (k8s-test.sh sets them)")
	}
	req, err := http.NewRequest("GET", "https://"+addr+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: ingressTLS(t)}}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("through the ingress: %v", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 200))
	return res.StatusCode, string(body)
}

// ingressTLS is a client's TLS for the ingress: the Ingress's host as the server name (the
// address dialled is the node's), and the local cluster's CA (SANTA_INGRESS_CA, the
// santa-local-ca certificate k8s-test.sh saved) as the only root, as for a browser that trusts it.
func ingressTLS(t *testing.T) *tls.Config {
	t.Helper()
	pem, err := os.ReadFile(os.Getenv("SANTA_INGRESS_CA"))
	if err != nil {
		t.Fatalf("the local CA (SANTA_INGRESS_CA, k8s-test.sh sets it): %v", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		t.Fatalf("no certificate in %s", os.Getenv("SANTA_INGRESS_CA"))
	}
	return &tls.Config{ServerName: os.Getenv("SANTA_INGRESS_HOST"), RootCAs: roots, MinVersion: tls.VersionTLS12}
}
