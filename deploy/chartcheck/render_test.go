package chartcheck

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"
)

// Every values set renders, and every object decodes strictly into its k8s.io/api type.
func TestChartRendersStrictlyValidObjects(t *testing.T) {
	for _, set := range slices.Sorted(maps.Keys(valuesSets)) {
		t.Run(set, func(t *testing.T) {
			m := rendered(t, set)
			if len(m.All) == 0 {
				t.Fatal("nothing rendered")
			}
			counts := m.Count()
			t.Logf("%s: %v", set, counts)
			if counts["Job"] != 0 {
				t.Error("a Job was rendered; migrations run in the services themselves")
			}
			seen := map[string]bool{}
			for _, o := range m.All {
				key := o.Kind + "/" + o.Name
				if seen[key] {
					t.Errorf("%s rendered twice", key)
				}
				seen[key] = true
			}
		})
	}
}

// The strict decoder is worth something only if it refuses what the API would refuse.
func TestStrictDecodingRejectsUnknownFields(t *testing.T) {
	bad := []string{
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {replicaz: 2}\n",
		"apiVersion: v1\nkind: Service\nmetadata: {name: x}\nspec: {ports: [{port: 80, targetPort: http, protocl: TCP}]}\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {A: '1', A: '2'}\n",
		"apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: x}\n",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {template: {spec: {containers: [{name: a, resources: {limits: {cpu: lots}}}]}}}\n",
	}
	for _, doc := range bad {
		if _, err := Decode([]byte(doc)); err == nil {
			t.Errorf("accepted:\n%s", doc)
		}
	}
	if _, err := Decode([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {A: '1'}\n")); err != nil {
		t.Errorf("rejected a valid ConfigMap: %v", err)
	}
}

// Every directory under services/ gets the full set of objects, in every values set.
func TestEveryServiceIsDeployed(t *testing.T) {
	for _, set := range slices.Sorted(maps.Keys(valuesSets)) {
		m := rendered(t, set)
		for _, svc := range services(t) {
			for _, kind := range []string{"Deployment", "Service", "ServiceAccount", "ConfigMap", "NetworkPolicy"} {
				if m.Get(kind, svc) == nil {
					t.Errorf("%s: no %s for service %s", set, kind, svc)
				}
			}
			if s, ok := m.Get("Service", svc).(*corev1.Service); ok {
				if s.Spec.Type != corev1.ServiceTypeClusterIP {
					t.Errorf("%s: Service %s is %s; only the Ingress is public", set, svc, s.Spec.Type)
				}
				if len(s.Spec.Ports) != 2 || s.Spec.Ports[0].Port != 80 || s.Spec.Ports[0].TargetPort != intstr.FromString("http") ||
					s.Spec.Ports[1].Port != 9090 || s.Spec.Ports[1].TargetPort != intstr.FromString("admin") {
					t.Errorf("%s: Service %s should map port 80 to the container's http port and 9090 to admin (docs/conventions.md)", set, svc)
				}
			}
			if d, ok := m.Get("Deployment", svc).(*appsv1.Deployment); ok {
				c := d.Spec.Template.Spec.Containers[0]
				if len(c.Ports) != 2 || c.Ports[0].ContainerPort != 8080 || c.Ports[0].Name != "http" ||
					c.Ports[1].ContainerPort != 9090 || c.Ports[1].Name != "admin" {
					t.Errorf("%s: %s container should listen on 8080 named http and 9090 named admin", set, svc)
				}
				// /readyz and /metrics are answered only on the admin port (ADMIN_PORT).
				if p := c.ReadinessProbe; p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/readyz" || p.HTTPGet.Port != intstr.FromString("admin") {
					t.Errorf("%s: %s readiness should probe /readyz on the admin port", set, svc)
				}
				if d.Spec.Template.Spec.ServiceAccountName != svc {
					t.Errorf("%s: %s runs as service account %q, want its own", set, svc, d.Spec.Template.Spec.ServiceAccountName)
				}
			}
		}
	}
	// Production scales each service and protects it during node drains.
	m := rendered(t, "prod")
	for _, svc := range services(t) {
		hpa, _ := m.Get("HorizontalPodAutoscaler", svc).(*autoscalingv2.HorizontalPodAutoscaler)
		if hpa == nil {
			t.Errorf("prod: no HorizontalPodAutoscaler for %s", svc)
		} else if hpa.Spec.ScaleTargetRef.Kind != "Deployment" || hpa.Spec.ScaleTargetRef.Name != svc || *hpa.Spec.MinReplicas < 2 {
			t.Errorf("prod: HPA of %s should target its Deployment with at least 2 replicas", svc)
		}
		if d, ok := m.Get("Deployment", svc).(*appsv1.Deployment); ok && d.Spec.Replicas != nil {
			t.Errorf("prod: Deployment %s sets replicas although its HPA owns them", svc)
		}
		if hpa != nil && (len(hpa.Spec.Metrics) != 1 || hpa.Spec.Metrics[0].Type != autoscalingv2.ResourceMetricSourceType) {
			t.Errorf("prod without KEDA: HPA of %s should scale on CPU alone, has %d metrics", svc, len(hpa.Spec.Metrics))
		}
	}
	// Where the cluster runs KEDA, a ScaledObject takes the HPA's place: CPU as before, and the
	// gateway and notification also on their open live streams, the gateway on its request rate.
	out, err := Template(repoRoot(t), valuesSets["prod"], "--set", "keda.enabled=true,keda.prometheusUrl=http://prometheus.monitoring:9090")
	if err != nil {
		t.Fatal(err)
	}
	withKEDA, err := Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	if hpas := OfKind[autoscalingv2.HorizontalPodAutoscaler](withKEDA, "HorizontalPodAutoscaler"); len(hpas) != 0 {
		t.Errorf("prod with KEDA: %d plain HPAs beside the ScaledObjects, want none (two HPAs would fight)", len(hpas))
	}
	for _, svc := range services(t) {
		so, _ := withKEDA.Get("ScaledObject", svc).(*ScaledObject)
		if so == nil {
			t.Fatalf("prod with KEDA: no ScaledObject for %s", svc)
		}
		if so.Spec.ScaleTargetRef.Name != svc || *so.Spec.MinReplicaCount < 2 || so.Spec.Advanced.HorizontalPodAutoscalerConfig.Name != svc {
			t.Errorf("prod with KEDA: ScaledObject of %s should target its Deployment with at least 2 replicas, its HPA named after it", svc)
		}
		triggers := map[string]string{}
		for _, tr := range so.Spec.Triggers {
			switch tr.Type {
			case "cpu":
				triggers["cpu"] = tr.Metadata["value"]
			case "prometheus":
				if tr.Metadata["serverAddress"] != "http://prometheus.monitoring:9090" || !strings.Contains(tr.Metadata["query"], `job="`+svc+`"`) {
					t.Errorf("prod with KEDA: %s's %s trigger reads %s with %q", svc, tr.Name, tr.Metadata["serverAddress"], tr.Metadata["query"])
				}
				triggers[tr.Name] = tr.Metadata["threshold"]
			}
		}
		want := map[string]string{"cpu": "70"}
		switch svc {
		case "gateway":
			want["live-streams"], want["requests"] = "6000", "200"
		case "notification":
			want["live-streams"] = "6000"
		}
		if fmt.Sprint(triggers) != fmt.Sprint(want) {
			t.Errorf("prod with KEDA: %s scales on %v, want %v", svc, triggers, want)
		}
		pdb, _ := m.Get("PodDisruptionBudget", svc).(*policyv1.PodDisruptionBudget)
		if pdb == nil {
			t.Errorf("prod: no PodDisruptionBudget for %s", svc)
		} else if pdb.Spec.Selector == nil || pdb.Spec.Selector.MatchLabels["app.kubernetes.io/name"] != svc {
			t.Errorf("prod: PDB of %s does not select its pods", svc)
		}
	}
}

// Every workload — services and in-chart dependencies — has probes, requests and limits, and
// a locked-down security context.
func TestWorkloadsAreHardened(t *testing.T) {
	for _, set := range slices.Sorted(maps.Keys(valuesSets)) {
		m := rendered(t, set)
		pods := m.PodSpecs()
		if len(pods) == 0 {
			t.Fatalf("%s: no workloads", set)
		}
		for name, tpl := range pods {
			where := set + ": " + name
			spec := tpl.Spec
			psc := spec.SecurityContext
			if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot {
				t.Errorf("%s: pod securityContext.runAsNonRoot is not true", where)
			}
			if psc == nil || psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
				t.Errorf("%s: pod seccompProfile is not RuntimeDefault", where)
			}
			if psc != nil && psc.RunAsUser != nil && *psc.RunAsUser == 0 {
				t.Errorf("%s: runs as uid 0", where)
			}
			if spec.AutomountServiceAccountToken == nil || *spec.AutomountServiceAccountToken {
				t.Errorf("%s: mounts a service account token it never uses", where)
			}
			if spec.HostNetwork || spec.HostPID || spec.HostIPC {
				t.Errorf("%s: shares a host namespace", where)
			}
			tmp := false
			emptyDirs := map[string]bool{}
			for _, v := range spec.Volumes {
				if v.EmptyDir != nil {
					emptyDirs[v.Name] = true
				}
				if v.HostPath != nil {
					t.Errorf("%s: hostPath volume %s", where, v.Name)
				}
			}
			if len(spec.InitContainers) > 0 {
				t.Errorf("%s: init containers are not expected", where)
			}
			for _, c := range spec.Containers {
				where := where + "/" + c.Name
				if c.LivenessProbe == nil || c.ReadinessProbe == nil || c.StartupProbe == nil {
					t.Errorf("%s: needs liveness, readiness and startup probes", where)
				}
				for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
					req, lim := c.Resources.Requests[r], c.Resources.Limits[r]
					if req.IsZero() || lim.IsZero() {
						t.Errorf("%s: %s request and limit are both required", where, r)
					} else if req.Cmp(lim) > 0 {
						t.Errorf("%s: %s request %s above limit %s", where, r, req.String(), lim.String())
					}
				}
				sc := c.SecurityContext
				switch {
				case sc == nil:
					t.Errorf("%s: no container securityContext", where)
					continue
				case sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation:
					t.Errorf("%s: allowPrivilegeEscalation is not false", where)
				case sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem:
					t.Errorf("%s: readOnlyRootFilesystem is not true", where)
				case sc.Privileged != nil && *sc.Privileged:
					t.Errorf("%s: privileged", where)
				case sc.Capabilities == nil || len(sc.Capabilities.Drop) != 1 || sc.Capabilities.Drop[0] != "ALL" || len(sc.Capabilities.Add) > 0:
					t.Errorf("%s: capabilities must drop ALL and add none", where)
				case sc.SeccompProfile == nil || sc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault:
					t.Errorf("%s: container seccompProfile is not RuntimeDefault", where)
				}
				for _, vm := range c.VolumeMounts {
					if vm.MountPath == "/tmp" && emptyDirs[vm.Name] {
						tmp = true
					}
				}
				if c.ImagePullPolicy == "" {
					t.Errorf("%s: no imagePullPolicy", where)
				}
			}
			if !tmp {
				t.Errorf("%s: no emptyDir at /tmp (the root filesystem is read-only)", where)
			}
		}
	}
}

// The services fail readiness at SIGTERM and then drain; the pod spec must leave them the time.
func TestServicesShutDownGracefully(t *testing.T) {
	for _, set := range slices.Sorted(maps.Keys(valuesSets)) {
		m := rendered(t, set)
		for _, svc := range services(t) {
			d, ok := m.Get("Deployment", svc).(*appsv1.Deployment)
			if !ok {
				continue // reported by TestEveryServiceIsDeployed
			}
			spec := d.Spec.Template.Spec
			c := spec.Containers[0]
			cfg, _ := m.Get("ConfigMap", svc).(*corev1.ConfigMap)
			if cfg == nil {
				t.Fatalf("%s: no ConfigMap %s", set, svc)
			}
			var shutdown int
			if _, err := fmt.Sscanf(cfg.Data["SHUTDOWN_TIMEOUT"], "%ds", &shutdown); err != nil {
				t.Errorf("%s: %s SHUTDOWN_TIMEOUT %q is not whole seconds", set, svc, cfg.Data["SHUTDOWN_TIMEOUT"])
				continue
			}
			if c.Lifecycle == nil || c.Lifecycle.PreStop == nil || c.Lifecycle.PreStop.Sleep == nil || c.Lifecycle.PreStop.Sleep.Seconds < 1 {
				t.Errorf("%s: %s needs a preStop sleep, so endpoints drop the pod before SIGTERM", set, svc)
				continue
			}
			preStop := c.Lifecycle.PreStop.Sleep.Seconds
			grace := *spec.TerminationGracePeriodSeconds
			if grace < preStop+int64(shutdown)+5 {
				t.Errorf("%s: %s grace %ds < preStop %ds + SHUTDOWN_TIMEOUT %ds + 5s to close connections", set, svc, grace, preStop, shutdown)
			}
			if p := c.ReadinessProbe; p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/readyz" {
				t.Errorf("%s: %s readiness probe must call /readyz", set, svc)
			}
			if p := c.LivenessProbe; p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/healthz" {
				t.Errorf("%s: %s liveness probe must call /healthz", set, svc)
			}
			if p := c.StartupProbe; p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/healthz" || p.PeriodSeconds*p.FailureThreshold < 30 {
				t.Errorf("%s: %s startup probe must call /healthz and allow at least 30s (migrations)", set, svc)
			}
			if u := d.Spec.Strategy.RollingUpdate; u == nil || u.MaxUnavailable == nil || u.MaxUnavailable.IntValue() != 0 {
				t.Errorf("%s: %s rolling update should keep every old pod until its replacement is ready", set, svc)
			}
		}
	}
}

// Only the gateway is reachable from outside: one Ingress, to the gateway Service.
func TestOnlyGatewayIsPublic(t *testing.T) {
	for _, set := range slices.Sorted(maps.Keys(valuesSets)) {
		m := rendered(t, set)
		for _, ing := range OfKind[networkingv1.Ingress](m, "Ingress") {
			for _, rule := range ing.Spec.Rules {
				for _, p := range rule.HTTP.Paths {
					if p.Backend.Service == nil || p.Backend.Service.Name != "gateway" {
						t.Errorf("%s: Ingress %s routes %s to %+v; only the gateway may be behind the Ingress", set, ing.Name, p.Path, p.Backend)
					}
				}
			}
			if ing.Spec.DefaultBackend != nil && (ing.Spec.DefaultBackend.Service == nil || ing.Spec.DefaultBackend.Service.Name != "gateway") {
				t.Errorf("%s: default backend is not the gateway", set)
			}
		}
		for _, s := range OfKind[corev1.Service](m, "Service") {
			if s.Spec.Type != "" && s.Spec.Type != corev1.ServiceTypeClusterIP {
				t.Errorf("%s: Service %s is %s", set, s.Name, s.Spec.Type)
			}
		}
	}
	m := rendered(t, "prod")
	ings := OfKind[networkingv1.Ingress](m, "Ingress")
	if len(ings) != 1 {
		t.Fatalf("prod: want exactly one Ingress, got %d", len(ings))
	}
	if len(ings[0].Spec.TLS) != 1 || ings[0].Spec.TLS[0].SecretName == "" {
		t.Errorf("prod: the Ingress should terminate TLS")
	}
	if len(OfKind[networkingv1.Ingress](rendered(t, "default"), "Ingress")) != 0 {
		t.Errorf("default: no Ingress expected unless ingress.enabled")
	}
	// The local cluster's Ingress: Traefik's class (deploy/cluster/ingress.yaml), on a host name,
	// over HTTPS with the certificate cert-manager makes from the local CA.
	ings = OfKind[networkingv1.Ingress](rendered(t, "cluster"), "Ingress")
	if len(ings) != 1 {
		t.Fatalf("cluster: want exactly one Ingress, got %d", len(ings))
	}
	if c := ings[0].Spec.IngressClassName; c == nil || *c != "traefik" || ings[0].Spec.Rules[0].Host != "santa.localtest" {
		t.Errorf("cluster: the Ingress should be of class traefik on santa.localtest: %+v", ings[0].Spec)
	}
	if tls := ings[0].Spec.TLS; len(tls) != 1 || tls[0].SecretName != "gateway-tls" || ings[0].Annotations["cert-manager.io/cluster-issuer"] != "santa-local-ca" {
		t.Errorf("cluster: the Ingress should terminate TLS with santa-local-ca's certificate in gateway-tls: tls %+v, annotations %v", tls, ings[0].Annotations)
	}
}

func peerNames(peers []networkingv1.NetworkPolicyPeer) []string {
	var out []string
	for _, p := range peers {
		switch {
		case p.IPBlock != nil:
			out = append(out, "ipBlock:"+p.IPBlock.CIDR)
		case p.PodSelector != nil && p.NamespaceSelector == nil:
			out = append(out, p.PodSelector.MatchLabels["app.kubernetes.io/name"])
		case p.NamespaceSelector != nil:
			ns := p.NamespaceSelector.MatchLabels["kubernetes.io/metadata.name"]
			pod := ""
			if p.PodSelector != nil {
				pod = p.PodSelector.MatchLabels["app.kubernetes.io/name"] + p.PodSelector.MatchLabels["k8s-app"]
			}
			out = append(out, "ns:"+ns+"/"+pod)
		}
	}
	return out
}

// Who may reach each service, and what each service may reach, exactly as
// docs/conventions.md and the brief's "uses" say.
func TestNetworkPolicies(t *testing.T) {
	wantIngress := map[string][]string{
		"gateway":      {"ns:ingress-nginx/ingress-nginx"},
		"wishlist":     {"gateway"},
		"vision":       {"gateway"},
		"media":        {"gateway", "vision", "wishlist"},
		"notification": {"gateway"},
		"family":       {"gateway"},
	}
	// Egress peers besides DNS, per service, with in-chart dependencies (default values).
	wantEgress := map[string][]string{
		"gateway":      {"wishlist", "vision", "media", "notification", "family", "redis", "nats", "ipBlock:0.0.0.0/0"},
		"wishlist":     {"media", "postgresql", "nats"},
		"vision":       {"media", "redis", "nats", "ipBlock:0.0.0.0/0"},
		"media":        {"nats", "minio"},
		"notification": {"postgresql", "nats", "ipBlock:0.0.0.0/0"}, // Web Push: HTTPS to the push services
		"family":       {"postgresql", "nats"},
	}
	for _, svc := range services(t) {
		if _, ok := wantIngress[svc]; !ok {
			t.Errorf("services/%s has no expected NetworkPolicy here: add it to this test", svc)
		}
	}
	for _, set := range []string{"default", "dev"} {
		m := rendered(t, set)
		for svc, want := range wantIngress {
			np, _ := m.Get("NetworkPolicy", svc).(*networkingv1.NetworkPolicy)
			if np == nil {
				t.Errorf("%s: no NetworkPolicy %s", set, svc)
				continue
			}
			if np.Spec.PodSelector.MatchLabels["app.kubernetes.io/name"] != svc {
				t.Errorf("%s: NetworkPolicy %s does not select its pods", set, svc)
			}
			if len(np.Spec.PolicyTypes) != 2 {
				t.Errorf("%s: NetworkPolicy %s must restrict both Ingress and Egress", set, svc)
			}
			var from []string
			for _, rule := range np.Spec.Ingress {
				for _, p := range rule.Ports {
					if p.Port == nil || (p.Port.IntValue() != 8080 && p.Port.IntValue() != 9090) {
						t.Errorf("%s: %s admits a port other than 8080 (API) and 9090 (admin, scrapers only)", set, svc)
					}
				}
				from = append(from, peerNames(rule.From)...)
			}
			if strings.Join(from, ",") != strings.Join(want, ",") {
				t.Errorf("%s: %s admits %v, want %v", set, svc, from, want)
			}
			var to []string
			dns := false
			for _, rule := range np.Spec.Egress {
				names := peerNames(rule.To)
				if len(names) == 1 && names[0] == "ns:kube-system/kube-dns" {
					dns = true
					continue
				}
				to = append(to, names...)
				for _, n := range names {
					if !strings.HasPrefix(n, "ipBlock:") {
						continue
					}
					// Only vision fetches product data and shop pages (HTTP and HTTPS); the
					// gateway fetches Google's token keys over HTTPS; nobody else goes out.
					var ports []string
					for _, p := range rule.Ports {
						ports = append(ports, p.Port.String())
					}
					wantPorts := "443"
					if svc == "vision" {
						wantPorts = "80,443"
					}
					if strings.Join(ports, ",") != wantPorts {
						t.Errorf("%s: %s reaches the internet on ports %v, want %s", set, svc, ports, wantPorts)
					}
					for _, private := range []string{"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16"} {
						if !slices.Contains(rule.To[0].IPBlock.Except, private) {
							t.Errorf("%s: %s's internet egress does not except %s", set, svc, private)
						}
					}
				}
			}
			if !dns {
				t.Errorf("%s: %s cannot ask the cluster DNS", set, svc)
			}
			wantTo := wantEgress[svc]
			if set == "dev" && svc == "gateway" {
				wantTo = append(append([]string{}, wantTo...), "firebase-auth-emulator")
			}
			if set == "dev" && svc == "notification" { // emails go to Mailpit (its rule comes before HTTPS out); addresses come from the emulator
				wantTo = []string{"postgresql", "nats", "mailpit", "ipBlock:0.0.0.0/0", "firebase-auth-emulator"}
			}
			if strings.Join(to, ",") != strings.Join(wantTo, ",") {
				t.Errorf("%s: %s may reach %v, want %v", set, svc, to, wantTo)
			}
		}
		// Dependencies admit only their clients and reach nothing.
		depClients := map[string][]string{
			"postgresql": {"family", "notification", "wishlist"}, "redis": {"gateway", "vision"},
			"nats": {"family", "gateway", "media", "notification", "vision", "wishlist"}, "minio": {"media"},
		}
		if set == "dev" {
			depClients["firebase-auth-emulator"] = []string{"gateway", "notification"}
			depClients["mailpit"] = []string{"notification"}
		}
		for dep, want := range depClients {
			np, _ := m.Get("NetworkPolicy", dep).(*networkingv1.NetworkPolicy)
			if np == nil {
				t.Errorf("%s: no NetworkPolicy for %s", set, dep)
				continue
			}
			var from []string
			for _, rule := range np.Spec.Ingress {
				from = append(from, peerNames(rule.From)...)
			}
			if strings.Join(from, ",") != strings.Join(want, ",") {
				t.Errorf("%s: %s admits %v, want %v", set, dep, from, want)
			}
			if len(np.Spec.Egress) != 0 {
				t.Errorf("%s: %s may reach out; it calls nothing", set, dep)
			}
		}
	}
	// The local cluster's extraEgress lets vision, and only vision, reach the in-cluster fakes.
	cluster := rendered(t, "cluster")
	for _, svc := range services(t) {
		np, _ := cluster.Get("NetworkPolicy", svc).(*networkingv1.NetworkPolicy)
		if np == nil {
			t.Fatalf("cluster: no NetworkPolicy %s", svc)
		}
		fakes := ""
		for _, rule := range np.Spec.Egress {
			if names := peerNames(rule.To); len(names) == 1 && names[0] == "fake-internet" {
				for _, p := range rule.Ports {
					fakes += fmt.Sprint(p.Port.IntValue(), " ")
				}
			}
		}
		want := ""
		if svc == "vision" {
			want = "8095 8096 "
		}
		if fakes != want {
			t.Errorf("cluster: %s reaches the fakes on %q, want %q", svc, fakes, want)
		}
	}
	// The local cluster's ingress controller is Traefik (deploy/cluster/ingress.yaml): its
	// pods, in its namespace, and nothing else may reach the gateway.
	gw, _ := cluster.Get("NetworkPolicy", "gateway").(*networkingv1.NetworkPolicy)
	var gwFrom []string
	for _, rule := range gw.Spec.Ingress {
		if len(rule.Ports) == 1 && rule.Ports[0].Port.IntValue() == 8080 {
			for _, name := range peerNames(rule.From) {
				if strings.HasPrefix(name, "ns:") {
					gwFrom = append(gwFrom, name)
				}
			}
		}
	}
	if fmt.Sprint(gwFrom) != "[ns:ingress/traefik]" {
		t.Errorf("cluster: the gateway admits %v from other namespaces, want [ns:ingress/traefik]", gwFrom)
	}
	// In production the dependencies are outside the chart: egress goes to the peers given.
	m := rendered(t, "prod")
	np, _ := m.Get("NetworkPolicy", "wishlist").(*networkingv1.NetworkPolicy)
	if np == nil {
		t.Fatal("prod: no NetworkPolicy wishlist")
	}
	got := ""
	for _, rule := range np.Spec.Egress {
		got += fmt.Sprint(peerNames(rule.To), rule.Ports[0].Port.IntValue(), ";")
	}
	for _, want := range []string{"[ipBlock:10.20.0.0/24] 5432", "[ns:nats/nats] 4222", "[media] 8080"} {
		if !strings.Contains(got, want) {
			t.Errorf("prod: wishlist egress %q lacks %q", got, want)
		}
	}
	if m.Get("NetworkPolicy", "postgresql") != nil || m.Get("StatefulSet", "postgresql") != nil {
		t.Error("prod: in-chart PostgreSQL rendered although disabled")
	}
	// Invitation emails: notification may reach the mail provider's SMTP port outside the
	// private ranges, and nothing else on the internet; nobody else reaches SMTP.
	for _, svc := range services(t) {
		np, _ := m.Get("NetworkPolicy", svc).(*networkingv1.NetworkPolicy)
		if np == nil {
			t.Fatalf("prod: no NetworkPolicy %s", svc)
		}
		smtp := 0
		for _, rule := range np.Spec.Egress {
			for _, p := range rule.Ports {
				if p.Port.IntValue() != 587 {
					continue
				}
				smtp++
				if names := peerNames(rule.To); svc != "notification" || len(names) != 1 || names[0] != "ipBlock:0.0.0.0/0" ||
					!slices.Contains(rule.To[0].IPBlock.Except, "10.0.0.0/8") || len(rule.Ports) != 1 {
					t.Errorf("prod: %s reaches SMTP through %v %v", svc, names, rule.Ports)
				}
			}
		}
		if (svc == "notification") != (smtp == 1) {
			t.Errorf("prod: %s has %d SMTP egress rules", svc, smtp)
		}
	}
	if m.Get("Deployment", "mailpit") != nil {
		t.Error("prod: Mailpit rendered; it is for development only")
	}
}

// SMTP_URL carries credentials: in production it comes from the Secret, never a ConfigMap;
// in dev it is Mailpit's address; by default there is none (no email is sent).
func TestSMTPURLComesFromASecret(t *testing.T) {
	for set, want := range map[string]string{"prod": "secret:santa-wishlist-secrets/SMTP_URL", "dev": "config:smtp://mailpit:1025", "default": ""} {
		m := rendered(t, set)
		d, _ := m.Get("Deployment", "notification").(*appsv1.Deployment)
		cfg, _ := m.Get("ConfigMap", "notification").(*corev1.ConfigMap)
		if d == nil || cfg == nil {
			t.Fatalf("%s: no notification Deployment or ConfigMap", set)
		}
		got := ""
		if v, ok := cfg.Data["SMTP_URL"]; ok {
			got = "config:" + v
		}
		for _, e := range d.Spec.Template.Spec.Containers[0].Env {
			if e.Name == "SMTP_URL" && e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
				got += "secret:" + e.ValueFrom.SecretKeyRef.Name + "/" + e.ValueFrom.SecretKeyRef.Key
			}
		}
		if got != want {
			t.Errorf("%s: notification's SMTP_URL from %q, want %q", set, got, want)
		}
		for _, svc := range services(t) {
			if c, _ := m.Get("ConfigMap", svc).(*corev1.ConfigMap); svc != "notification" && c != nil && c.Data["SMTP_URL"] != "" {
				t.Errorf("%s: %s gets SMTP_URL", set, svc)
			}
		}
	}
	if cfg, _ := rendered(t, "prod").Get("ConfigMap", "notification").(*corev1.ConfigMap); cfg == nil ||
		cfg.Data["PUBLIC_URL"] != "https://wishlist.example.com" || cfg.Data["MAIL_FROM"] == "" {
		t.Errorf("prod: notification's email settings %v", cfg)
	}
}

// envReadByCode collects the upper-case string literals of a service's and pkg/'s non-test Go
// files: the names its code could read from the environment (directly or through a helper).
func envReadByCode(t *testing.T, root, svc string) map[string]bool {
	t.Helper()
	lit := regexp.MustCompile(`"([A-Z][A-Z0-9_]{2,})"`)
	names := map[string]bool{}
	for _, dir := range []string{"pkg", filepath.Join("services", svc)} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			src, err := os.ReadFile(p)
			for _, m := range lit.FindAllStringSubmatch(string(src), -1) {
				names[m[1]] = true
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return names
}

// The environment of each service holds what docs/conventions.md says it reads, and nothing
// that neither the documentation nor the service's code knows (config keys nothing reads).
func TestServiceEnvironmentMatchesConventions(t *testing.T) {
	conv := conventions(t)
	root := repoRoot(t)
	code := map[string]map[string]bool{}
	for _, svc := range services(t) {
		code[svc] = envReadByCode(t, root, svc)
	}
	// Every documented variable is either set by the chart for the services that read it, or
	// deliberately left to the service's default (operators can still set it through
	// services.<name>.env). A new variable in docs/conventions.md fails here until it is sorted.
	chartSets := map[string]bool{
		"PORT": true, "ADMIN_PORT": true, "LOG_LEVEL": true, "SHUTDOWN_TIMEOUT": true, "GOMEMLIMIT": true,
		"DATABASE_URL": true, "REDIS_URL": true, "NATS_URL": true, "FIREBASE_PROJECT_ID": true,
		"WISHLIST_URL": true, "VISION_URL": true, "MEDIA_URL": true, "NOTIFICATION_URL": true, "FAMILY_URL": true, "WEB_DIR": true,
		"MINIO_ENDPOINT": true, "MINIO_ACCESS_KEY": true, "MINIO_SECRET_KEY": true, "MINIO_BUCKET": true, "MINIO_USE_SSL": true,
		"IDENTITY_SIGNING_KEY": true, "IDENTITY_PUBLIC_KEYS": true, "MEDIA_URL_SECRET": true, "VAPID_PRIVATE_KEY": true,
		"MEDIA_NONCURRENT_VERSION_DAYS": true, // services.media.env, so the values show the photo versions kept
	}
	leftOptional := map[string]string{
		"OUTBOX_RETENTION":               "service default (24h)",
		"REMINDER_EMPTY_LIST_QUIET":      "service default (72h)",
		"FIREBASE_AUTH_EMULATOR_HOST":    "set only with authEmulator.enabled",
		"GOOGLE_APPLICATION_CREDENTIALS": "set when firebase.credentials.existingSecret is given (prod.yaml)",
		"GEMINI_API_KEY":                 "set when a key is given (secrets)",
		"GEMINI_MODEL":                   "set when gemini.model is given",
		"GEMINI_BASE_URL":                "set when gemini.baseUrl is given",
		"GEMINI_TIMEOUT":                 "service default",
		"VISION_DAILY_QUOTA_PER_USER":    "service default",
		"VISION_DAILY_QUOTA_PER_IP":      "service default",
		"VISION_CACHE_TTL":               "service default",
		"GEMINI_DAILY_BUDGET":            "service default",
		"LOOKUP_OPENFOODFACTS_URL":       "service default (the real database)",
		"LOOKUP_OPENPRODUCTSFACTS_URL":   "service default (the real database)",
		"LOOKUP_UPCITEMDB_URL":           "service default (the real database)",
		"LOOKUP_TIMEOUT":                 "service default",
		"LOOKUP_CACHE_TTL":               "service default",
		"LOOKUP_NOT_FOUND_TTL":           "service default",
		"LOOKUP_DAILY_QUOTA_PER_USER":    "service default",
		"LOOKUP_DAILY_QUOTA_PER_IP":      "service default",
		"LOOKUP_FETCH_TEST_ALLOW":        "test stacks only: the schema refuses it",
		"PUSH_ALLOW":                     "test stacks only: the schema refuses it",
		"EMAIL_DIGEST_WINDOW":            "service default (1h); services.notification.env may set it",
		"EMAIL_SEND_EVERY":               "service default (15s)",
		"VAPID_SUBJECT":                  "service default (a mailto: of the product); services.notification.env may set it",
		"RATE_LIMIT_IP_PER_MINUTE":       "service default",
		"RATE_LIMIT_USER_PER_MINUTE":     "service default",
		"REDIS_KEY_PREFIX":               "service default",
		"RATE_LIMIT_SYNC_INTERVAL":       "service default",
		"HSTS_MAX_AGE":                   "service default (a year); services.gateway.env may set it",
		"HSTS_INCLUDE_SUBDOMAINS":        "service default (true); services.gateway.env may set it",
		"GODEBUG":                        "the images set it (Dockerfiles)",
		"GOGC":                           "Go's default; the local stacks pass a developer's through",
		"TRUSTED_PROXIES":                "cluster-specific: prod.yaml shows it under services.gateway.env",
		"PPROF_ADDR":                     "the profiler stays off in the cluster",
		"EVENTS_NAMESPACE":               "set when nats.namespace is given",
		"EVENTS_REPLICAS":                "set when nats.replicas (or nats.external.streamReplicas) is over 1",
		"MEDIA_DECODE_MEMORY":            "service default: half of GOMEMLIMIT, which the chart sets",
		"MEDIA_UPLOADS_PER_MINUTE":       "service default",
		"MEDIA_UPLOAD_BURST":             "service default",
		"IDEMPOTENCY_TTL":                "service default",
		"IDEMPOTENCY_MAX_KEYS_PER_USER":  "service default",
		"IDEMPOTENCY_MAX_STORED_BODY":    "service default",
		"SMTP_URL":                       "set with smtp.enabled (from a Secret) or smtp.mailpit.enabled (dev); otherwise no email is sent",
		"MAIL_FROM":                      "set when smtp.from is given",
		"PUBLIC_URL":                     "set from smtp.publicUrl or the Ingress host when email is on",
		"IDENTITY_ASSERTION_TTL":         "service default",
		"REDIS_PASSWORD":                 "with the in-chart Redis only; an external one's REDIS_URL carries its own credentials",
		"NATS_PASSWORD":                  "with the in-chart NATS only; an external one's NATS_URL carries its own credentials",
		"LISTEN_HOST":                    "all interfaces in a pod; the local stacks bind to 127.0.0.1",
		"MEDIA_QUOTA_BYTES":              "service default",
		"MEDIA_QUOTA_IMAGES":             "service default",
		"MEDIA_UNATTACHED_TTL":           "service default",
		"REMINDER_INTERVAL":              "service default",
	}
	for v := range conv.EnvUsedBy {
		if !chartSets[v] && leftOptional[v] == "" {
			t.Errorf("docs/conventions.md lists %s: add it to chartSets (and the chart) or to leftOptional in this test", v)
		}
	}
	// DATABASE_PASSWORD only feeds $(DATABASE_PASSWORD) in DATABASE_URL.
	internal := map[string]bool{"DATABASE_PASSWORD": true}
	for _, set := range slices.Sorted(maps.Keys(valuesSets)) {
		m := rendered(t, set)
		for _, svc := range services(t) {
			d, ok := m.Get("Deployment", svc).(*appsv1.Deployment)
			if !ok {
				continue
			}
			cfg, _ := m.Get("ConfigMap", svc).(*corev1.ConfigMap)
			if cfg == nil {
				t.Fatalf("%s: no ConfigMap %s", set, svc)
			}
			have := map[string]bool{}
			for k := range cfg.Data {
				have[k] = true
			}
			c := d.Spec.Template.Spec.Containers[0]
			if len(c.EnvFrom) != 1 || c.EnvFrom[0].ConfigMapRef == nil || c.EnvFrom[0].ConfigMapRef.Name != svc {
				t.Errorf("%s: %s does not load its ConfigMap", set, svc)
			}
			for _, e := range c.Env {
				if have[e.Name] {
					t.Errorf("%s: %s sets %s twice", set, svc, e.Name)
				}
				have[e.Name] = true
			}
			for _, v := range conv.EnvFor(svc) {
				if !have[v] && chartSets[v] {
					t.Errorf("%s: %s lacks %s (docs/conventions.md)", set, svc, v)
				}
			}
			for v := range have {
				users, documented := conv.EnvUsedBy[v]
				switch {
				case internal[v]:
				case documented && !slices.Contains(users, "all") && !slices.Contains(users, svc):
					t.Errorf("%s: %s gets %s, which only %v read", set, svc, v, users)
				case !documented && !code[svc][v]:
					t.Errorf("%s: %s gets %s, which neither docs/conventions.md nor its code mentions", set, svc, v)
				}
			}
			var memLimitMiB int64
			if _, err := fmt.Sscanf(cfg.Data["GOMEMLIMIT"], "%dMiB", &memLimitMiB); err != nil {
				t.Errorf("%s: %s GOMEMLIMIT %q is not <n>MiB", set, svc, cfg.Data["GOMEMLIMIT"])
			} else if lim := c.Resources.Limits.Memory().Value() >> 20; memLimitMiB >= lim || memLimitMiB < lim/2 {
				t.Errorf("%s: %s GOMEMLIMIT %dMiB should sit below its %dMiB memory limit, with room for non-heap memory", set, svc, memLimitMiB, lim)
			}
			if cfg.Data["PORT"] != "8080" {
				t.Errorf("%s: %s PORT is %q, want 8080 (each service's own default differs)", set, svc, cfg.Data["PORT"])
			}
		}
	}
	// The emulator is a development switch only.
	gw := func(set string) map[string]string {
		cfg, _ := rendered(t, set).Get("ConfigMap", "gateway").(*corev1.ConfigMap)
		if cfg == nil {
			t.Fatalf("%s: no gateway ConfigMap", set)
		}
		return cfg.Data
	}
	if d := gw("dev"); d["FIREBASE_AUTH_EMULATOR_HOST"] != "firebase-auth-emulator:9099" || d["ALLOW_AUTH_EMULATOR"] != "true" ||
		d["AUTH_EMULATOR_PUBLIC_URL"] != "http://127.0.0.1:9099" {
		t.Errorf("dev: gateway should use the in-chart Auth emulator, got %v", d)
	}
	// The local cluster's browser reaches it over HTTPS through the ingress: from the app's HTTPS
	// page a plain http:// emulator would be mixed content.
	if d := gw("cluster"); d["AUTH_EMULATOR_PUBLIC_URL"] != "https://auth.santa.localtest" {
		t.Errorf("cluster: AUTH_EMULATOR_PUBLIC_URL %q, want https://auth.santa.localtest", d["AUTH_EMULATOR_PUBLIC_URL"])
	}
	for _, set := range []string{"default", "prod"} {
		if d := gw(set); d["FIREBASE_AUTH_EMULATOR_HOST"] != "" || d["ALLOW_AUTH_EMULATOR"] != "" || d["AUTH_EMULATOR_PUBLIC_URL"] != "" {
			t.Errorf("%s: gateway must not use the Auth emulator", set)
		}
	}
	if gw("prod")["FIREBASE_PROJECT_ID"] == "demo-santa" {
		t.Error("prod: FIREBASE_PROJECT_ID is the emulator's demo project")
	}
	if gw("default")["WEB_DIR"] != "/app/web" {
		t.Error("gateway WEB_DIR should be /app/web, where its image carries the web app")
	}
}

// Image references come from values: override them and see them rendered.
func TestImagesComeFromValues(t *testing.T) {
	needHelm(t)
	root := repoRoot(t)
	args := []string{"--set", "image.registry=registry.example.com/team"}
	for _, svc := range services(t) {
		args = append(args,
			"--set", fmt.Sprintf("services.%s.image.repository=santa/%s-custom", svc, svc),
			"--set", fmt.Sprintf("services.%s.image.tag=t-%s", svc, svc))
	}
	digest := "sha256:" + strings.Repeat("ab", 32)
	args = append(args, "--set", "services.gateway.image.digest="+digest)
	out, err := Template(root, nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, svc := range services(t) {
		d, ok := m.Get("Deployment", svc).(*appsv1.Deployment)
		if !ok {
			t.Errorf("no Deployment %s", svc)
			continue
		}
		want := fmt.Sprintf("registry.example.com/team/santa/%s-custom:t-%s", svc, svc)
		if svc == "gateway" {
			want += "@" + digest
		}
		if got := d.Spec.Template.Spec.Containers[0].Image; got != want {
			t.Errorf("%s image %q, want %q", svc, got, want)
		}
	}
	// Defaults: the chart's appVersion, no registry.
	for _, svc := range services(t) {
		d, _ := rendered(t, "default").Get("Deployment", svc).(*appsv1.Deployment)
		if d == nil {
			continue
		}
		if got, want := d.Spec.Template.Spec.Containers[0].Image, "santa-wishlist/"+svc+":0.1.0"; got != want {
			t.Errorf("default %s image %q, want %q", svc, got, want)
		}
	}
	// The global tag applies where a service sets none.
	out, err = Template(root, nil, "--set", "image.tag=2024.12.24")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `image: "santa-wishlist/wishlist:2024.12.24"`) {
		t.Error("image.tag is not used as the default tag")
	}
	// A tag of digits only (a short commit can be: 6187300) reaches the chart as a number from
	// --set, which the schema refuses rather than render it as 6.1873e+06; the scripts and docs
	// pass tags with --set-string, which keeps it a string (k8s-test failed CI on such a commit).
	if _, err := Template(root, nil, "--set", "image.tag=6187300"); err == nil || !strings.Contains(err.Error(), "/image/tag") {
		t.Errorf("a numeric image.tag is not refused by the schema: %v", err)
	}
	out, err = Template(root, nil, "--set-string", "image.tag=6187300")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `image: "santa-wishlist/wishlist:6187300"`) {
		t.Error("a digits-only image.tag from --set-string is not used as it is")
	}
}

var secretish = regexp.MustCompile(`(?i)(password|secret|api[_-]?key|token|://[^/\s:@]+:[^@\s$]+@)`)

// No secret ships with the chart: the defaults name none, render no Secret of the app's own,
// and the in-chart dependencies' passwords are generated per install.
func TestNoSecretValuesInDefaults(t *testing.T) {
	root := repoRoot(t)
	var values map[string]any
	if err := yaml.Unmarshal([]byte(readFile(t, root, "charts/santa-wishlist/values.yaml")), &values); err != nil {
		t.Fatal(err)
	}
	secrets, _ := values["secrets"].(map[string]any)
	for k, v := range secrets {
		if s, _ := v.(string); s != "" && k != "existingSecret" {
			t.Errorf("values.yaml sets secrets.%s", k)
		}
	}
	for _, path := range [][]string{{"postgresql", "password"}, {"minio", "rootUser"}, {"minio", "rootPassword"}} {
		dep, _ := values[path[0]].(map[string]any)
		if s, _ := dep[path[1]].(string); s != "" {
			t.Errorf("values.yaml sets %s.%s", path[0], path[1])
		}
	}
	for _, f := range []string{"deploy/values/dev.yaml", "deploy/values/prod.yaml", "deploy/values/external-postgres-example.yaml"} {
		var v map[string]any
		if err := yaml.Unmarshal([]byte(readFile(t, root, f)), &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		s, _ := v["secrets"].(map[string]any)
		for k, val := range s {
			if str, _ := val.(string); str != "" && k != "existingSecret" {
				t.Errorf("%s sets secrets.%s in git", f, k)
			}
		}
	}

	first := rendered(t, "default")
	out, err := Template(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	secretsRendered := OfKind[corev1.Secret](first, "Secret")
	if len(secretsRendered) == 0 {
		t.Fatal("default: expected generated Secrets for the in-chart PostgreSQL and MinIO")
	}
	for _, s := range secretsRendered {
		if s.Name == "app-secrets" {
			t.Errorf("default: Secret app-secrets rendered with no secrets configured")
		}
		if len(s.StringData) > 0 {
			t.Errorf("default: Secret %s has stringData", s.Name)
		}
		other, _ := second.Get("Secret", s.Name).(*corev1.Secret)
		if other == nil {
			t.Fatalf("Secret %s missing from the second render", s.Name)
		}
		for k, v := range s.Data {
			if len(v) < 16 {
				t.Errorf("default: Secret %s key %s holds a short value", s.Name, k)
			}
			if string(other.Data[k]) == string(v) {
				t.Errorf("default: Secret %s key %s is the same in two renders: a fixed value, not a generated one", s.Name, k)
			}
		}
		if s.Annotations["helm.sh/resource-policy"] != "keep" {
			t.Errorf("Secret %s should outlive an uninstall, like the volume its password protects", s.Name)
		}
	}
	// Credentials reach containers only through secretKeyRef, never as literal env values.
	for _, set := range slices.Sorted(maps.Keys(valuesSets)) {
		m := rendered(t, set)
		for name, tpl := range m.PodSpecs() {
			for _, c := range tpl.Spec.Containers {
				for _, e := range c.Env {
					if e.Value != "" && secretish.MatchString(e.Name+"="+e.Value) && !strings.Contains(e.Value, "$(") {
						t.Errorf("%s: %s env %s carries a literal credential", set, name, e.Name)
					}
				}
			}
		}
		for _, cm := range OfKind[corev1.ConfigMap](m, "ConfigMap") {
			for k, v := range cm.Data {
				if k == "FIREBASE_WEB_API_KEY" {
					continue // public by design: the gateway hands it to every browser
				}
				if k == "GOOGLE_APPLICATION_CREDENTIALS" && strings.HasPrefix(v, "/var/run/secrets/google/") {
					continue // where the key from a Secret volume is mounted, not the key
				}
				if secretish.MatchString(k) || secretish.MatchString(v) {
					t.Errorf("%s: ConfigMap %s key %s looks like a credential", set, cm.Name, k)
				}
			}
		}
	}
	// With existingSecret the chart makes no Secret of its own, but for the identity keys it
	// generates (nothing an operator gives: the services' own Ed25519 keys).
	for _, s := range OfKind[corev1.Secret](rendered(t, "prod"), "Secret") {
		if s.Name != "identity-keys" {
			t.Errorf("prod: Secret %s rendered; credentials come from secrets.existingSecret", s.Name)
		}
	}
	// Given at install time, credentials go into the chart's Secret and are referenced.
	out, err = Template(root, []string{"deploy/values/prod.yaml"}, "--set", "secrets.existingSecret=",
		"--set", "secrets.databaseUrl=postgres://u:p@db:5432/santa", "--set", "secrets.minioAccessKey=a",
		"--set", "secrets.minioSecretKey=b", "--set", "secrets.geminiApiKey=k", "--set", "secrets.smtpUrl=smtp://u:p@mail:587")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := m.Get("Secret", "app-secrets").(*corev1.Secret)
	if s == nil || len(s.Data) != 5 || string(s.Data["DATABASE_URL"]) != "postgres://u:p@db:5432/santa" || string(s.Data["SMTP_URL"]) != "smtp://u:p@mail:587" {
		t.Fatalf("app-secrets not rendered from secrets.*: %+v", s)
	}
	d, _ := m.Get("Deployment", "vision").(*appsv1.Deployment)
	found := false
	for _, e := range d.Spec.Template.Spec.Containers[0].Env {
		if e.Name == "GEMINI_API_KEY" && e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil && e.ValueFrom.SecretKeyRef.Name == "app-secrets" {
			found = true
		}
	}
	if !found {
		t.Error("vision does not take GEMINI_API_KEY from app-secrets")
	}
	d, _ = m.Get("Deployment", "notification").(*appsv1.Deployment)
	found = false
	for _, e := range d.Spec.Template.Spec.Containers[0].Env {
		if e.Name == "SMTP_URL" && e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil && e.ValueFrom.SecretKeyRef.Name == "app-secrets" {
			found = true
		}
	}
	if !found {
		t.Error("notification does not take SMTP_URL from app-secrets")
	}
	// Email on without a Secret to read SMTP_URL from is refused at install, not discovered later.
	if _, err := Template(root, []string{"deploy/values/prod.yaml"}, "--set", "secrets.existingSecret=",
		"--set", "secrets.databaseUrl=postgres://u:p@db:5432/santa", "--set", "secrets.minioAccessKey=a",
		"--set", "secrets.minioSecretKey=b"); err == nil || !strings.Contains(err.Error(), "SMTP_URL") {
		t.Errorf("smtp.enabled without SMTP_URL: %v", err)
	}
}

// The optional ServiceMonitor is off by default and, when on, scrapes every service.
func TestServiceMonitor(t *testing.T) {
	if n := rendered(t, "default").Count()["ServiceMonitor"]; n != 0 {
		t.Errorf("default: ServiceMonitor rendered (%d); it must be opt-in", n)
	}
	sms := OfKind[ServiceMonitor](rendered(t, "prod"), "ServiceMonitor")
	if len(sms) != 1 {
		t.Fatalf("prod: want one ServiceMonitor, got %d", len(sms))
	}
	sm := sms[0]
	if sm.Spec.JobLabel != "app.kubernetes.io/name" || len(sm.Spec.Endpoints) != 1 || sm.Spec.Endpoints[0].Path != "/metrics" || sm.Spec.Endpoints[0].Port != "admin" {
		t.Errorf("ServiceMonitor should scrape /metrics on port admin with job = service name: %+v", sm.Spec)
	}
	for _, s := range OfKind[corev1.Service](rendered(t, "prod"), "Service") {
		for k, v := range sm.Spec.Selector.MatchLabels {
			if s.Labels[k] != v {
				t.Errorf("ServiceMonitor does not select Service %s (%s=%s)", s.Name, k, v)
			}
		}
	}
}

// The in-chart dependencies are single-replica StatefulSets with a volume; production has none.
func TestDependencies(t *testing.T) {
	m := rendered(t, "dev")
	for _, dep := range []string{"postgresql", "redis", "nats", "minio"} {
		ss, _ := m.Get("StatefulSet", dep).(*appsv1.StatefulSet)
		if ss == nil {
			t.Errorf("dev: no StatefulSet %s", dep)
			continue
		}
		if ss.Spec.Replicas == nil || *ss.Spec.Replicas != 1 || len(ss.Spec.VolumeClaimTemplates) != 1 {
			t.Errorf("dev: %s should be one replica with one volume claim", dep)
		}
	}
	ss, _ := m.Get("StatefulSet", "nats").(*appsv1.StatefulSet)
	if ss != nil && !slices.Contains(ss.Spec.Template.Spec.Containers[0].Args, "-js") {
		t.Error("dev: NATS must run with JetStream (-js)")
	}
	if m.Get("Deployment", "firebase-auth-emulator") == nil {
		t.Error("dev: no Auth emulator")
	}
	// Redis has a memory cap below its container's limit, and a policy that never evicts
	// (an evicted rate-limit count would silently lift a limit).
	for _, set := range []string{"default", "dev"} {
		rs, _ := rendered(t, set).Get("StatefulSet", "redis").(*appsv1.StatefulSet)
		if rs == nil {
			t.Errorf("%s: no Redis", set)
			continue
		}
		c := rs.Spec.Template.Spec.Containers[0]
		args := strings.Join(c.Args, " ")
		var capMB int64
		if i := strings.Index(args, "--maxmemory "); i >= 0 {
			fmt.Sscanf(args[i+len("--maxmemory "):], "%dmb", &capMB)
		}
		if !strings.Contains(args, "--maxmemory-policy noeviction") || capMB == 0 ||
			capMB<<20 >= c.Resources.Limits.Memory().Value() {
			t.Errorf("%s: Redis args %q: want --maxmemory <n>mb below its %s limit and --maxmemory-policy noeviction",
				set, args, c.Resources.Limits.Memory())
		}
	}
	for _, set := range []string{"prod"} {
		if n := rendered(t, set).Count()["StatefulSet"]; n != 0 {
			t.Errorf("%s: %d in-chart dependencies rendered; production uses external ones", set, n)
		}
	}
	if rendered(t, "default").Get("Deployment", "firebase-auth-emulator") != nil {
		t.Error("default: the Auth emulator must be off unless asked for")
	}
}

// nats.replicas 3 (the local cluster): a JetStream cluster of three servers that find each
// other by name through a headless Service, start together, go one at a time, talk to each
// other only on the route port, and every service asks for a stream on all three. One server
// (dev) has none of it; production's external three-server cluster gets three copies too.
func TestNATSCluster(t *testing.T) {
	m := rendered(t, "cluster")
	ss, _ := m.Get("StatefulSet", "nats").(*appsv1.StatefulSet)
	if ss == nil || ss.Spec.Replicas == nil || *ss.Spec.Replicas != 3 {
		t.Fatalf("cluster: NATS StatefulSet %v, want 3 replicas", ss)
	}
	if ss.Spec.PodManagementPolicy != appsv1.ParallelPodManagement || ss.Spec.ServiceName != "nats-peers" {
		t.Errorf("cluster: NATS pods %q through %q, want Parallel through nats-peers", ss.Spec.PodManagementPolicy, ss.Spec.ServiceName)
	}
	if args := strings.Join(ss.Spec.Template.Spec.Containers[0].Args, " "); !strings.Contains(args, "-n $(POD_NAME)") {
		t.Errorf("cluster: NATS args %q: each server needs its own name", args)
	}
	peers, _ := m.Get("Service", "nats-peers").(*corev1.Service)
	if peers == nil || peers.Spec.ClusterIP != "None" || !peers.Spec.PublishNotReadyAddresses || len(peers.Spec.Ports) != 1 || peers.Spec.Ports[0].Port != 6222 {
		t.Errorf("cluster: peers Service %+v, want headless, not-ready addresses published, port 6222", peers)
	}
	if pdb, _ := m.Get("PodDisruptionBudget", "nats").(*policyv1.PodDisruptionBudget); pdb == nil || pdb.Spec.MaxUnavailable == nil || pdb.Spec.MaxUnavailable.IntValue() != 1 {
		t.Errorf("cluster: NATS PodDisruptionBudget %v, want maxUnavailable 1", pdb)
	}
	conf := string(m.Get("Secret", "nats").(*corev1.Secret).Data["nats.conf"])
	for i := 0; i < 3; i++ {
		if !strings.Contains(conf, fmt.Sprintf("@nats-%d.nats-peers:6222", i)) {
			t.Errorf("cluster: nats.conf has no route to nats-%d:\n%s", i, conf)
		}
	}
	np, _ := m.Get("NetworkPolicy", "nats").(*networkingv1.NetworkPolicy)
	routeRules := 0
	for _, r := range np.Spec.Ingress {
		for _, p := range r.Ports {
			if p.Port.IntValue() == 6222 && len(r.From) == 1 && r.From[0].PodSelector.MatchLabels["app.kubernetes.io/name"] == "nats" {
				routeRules++
			}
		}
	}
	for _, r := range np.Spec.Egress {
		for _, p := range r.Ports {
			if p.Port.IntValue() == 6222 && len(r.To) == 1 && r.To[0].PodSelector.MatchLabels["app.kubernetes.io/name"] == "nats" {
				routeRules++
			}
		}
	}
	if routeRules != 2 {
		t.Errorf("cluster: NATS NetworkPolicy %+v: want route port 6222 in from and out to the NATS pods only", np.Spec)
	}
	for set, want := range map[string]string{"cluster": "3", "dev": "", "prod": "3"} {
		for _, svc := range services(t) {
			cfg, _ := rendered(t, set).Get("ConfigMap", svc).(*corev1.ConfigMap)
			if cfg == nil || cfg.Data["EVENTS_REPLICAS"] != want {
				t.Errorf("%s: %s EVENTS_REPLICAS in %v, want %q", set, svc, cfg, want)
			}
		}
	}
	dev := rendered(t, "dev")
	if dev.Get("Service", "nats-peers") != nil || dev.Get("PodDisruptionBudget", "nats") != nil {
		t.Error("dev: a single NATS server has no peers Service and no disruption budget")
	}
}

// Migrations need no Job: the values say why, and nothing renders one.
func TestMigrationsRunInTheServices(t *testing.T) {
	values := readFile(t, repoRoot(t), "charts/santa-wishlist/values.yaml")
	for _, want := range []string{"advisory lock", "migration Job"} {
		if !strings.Contains(values, want) {
			t.Errorf("values.yaml should explain that migrations run at start (missing %q)", want)
		}
	}
}

// namePrefix renames every object and every reference to it together.
func TestNamePrefixKeepsReferencesConsistent(t *testing.T) {
	needHelm(t)
	out, err := Template(repoRoot(t), []string{"deploy/values/dev.yaml"}, "--set", "namePrefix=xmas-")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, o := range m.All {
		if !strings.HasPrefix(o.Name, "xmas-") {
			t.Errorf("%s %s is not prefixed", o.Kind, o.Name)
		}
		names[o.Kind+"/"+o.Name] = true
	}
	cfg, _ := m.Get("ConfigMap", "xmas-gateway").(*corev1.ConfigMap)
	if cfg == nil {
		t.Fatal("no ConfigMap xmas-gateway")
	}
	for k, want := range map[string]string{
		"WISHLIST_URL":                "http://xmas-wishlist:80",
		"FIREBASE_AUTH_EMULATOR_HOST": "xmas-firebase-auth-emulator:9099",
	} {
		if cfg.Data[k] != want {
			t.Errorf("%s = %q, want %q", k, cfg.Data[k], want)
		}
	}
	redisURLs := 0
	for _, tpl := range m.PodSpecs() {
		for _, c := range tpl.Spec.Containers {
			for _, e := range c.Env {
				if e.Name == "REDIS_URL" {
					redisURLs++
					if e.Value != "redis://:$(REDIS_PASSWORD)@xmas-redis:6379/0" {
						t.Errorf("REDIS_URL = %q, want the password and xmas-redis", e.Value)
					}
				}
			}
		}
	}
	if redisURLs != 2 {
		t.Errorf("%d containers get REDIS_URL, want gateway and vision", redisURLs)
	}
	for name, tpl := range m.PodSpecs() {
		spec := tpl.Spec
		if !names["ServiceAccount/"+spec.ServiceAccountName] {
			t.Errorf("%s runs as missing service account %s", name, spec.ServiceAccountName)
		}
		for _, c := range spec.Containers {
			for _, e := range c.Env {
				if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil && !names["Secret/"+e.ValueFrom.SecretKeyRef.Name] {
					t.Errorf("%s env %s refers to missing Secret %s", name, e.Name, e.ValueFrom.SecretKeyRef.Name)
				}
			}
			for _, ef := range c.EnvFrom {
				if ef.ConfigMapRef != nil && !names["ConfigMap/"+ef.ConfigMapRef.Name] {
					t.Errorf("%s loads missing ConfigMap %s", name, ef.ConfigMapRef.Name)
				}
			}
		}
		for _, v := range spec.Volumes {
			if v.ConfigMap != nil && !names["ConfigMap/"+v.ConfigMap.Name] {
				t.Errorf("%s mounts missing ConfigMap %s", name, v.ConfigMap.Name)
			}
		}
	}
	for _, svc := range OfKind[corev1.Service](m, "Service") {
		matched := false
		for name, tpl := range m.PodSpecs() {
			ok := len(svc.Spec.Selector) > 0
			for k, v := range svc.Spec.Selector {
				ok = ok && tpl.Labels[k] == v
			}
			if ok {
				matched = true
				if name[strings.Index(name, "/")+1:] != svc.Name {
					t.Errorf("Service %s selects %s", svc.Name, name)
				}
			}
		}
		if !matched {
			t.Errorf("Service %s selects no pods", svc.Name)
		}
	}
}

// adminSDKIdentity says, in one line, what a service's objects give the Firebase Admin SDK as
// its Google identity: GOOGLE_APPLICATION_CREDENTIALS (in the ConfigMap or the container's
// env), every volume but /tmp's and where it is mounted, its ServiceAccount's annotations,
// a mounted ServiceAccount token, and egress to link-local addresses (a metadata server).
// Empty: nothing, as for every service that does not use Firebase.
func adminSDKIdentity(t *testing.T, m *Manifests, svc string) string {
	t.Helper()
	d, _ := m.Get("Deployment", svc).(*appsv1.Deployment)
	cfg, _ := m.Get("ConfigMap", svc).(*corev1.ConfigMap)
	sa, _ := m.Get("ServiceAccount", svc).(*corev1.ServiceAccount)
	np, _ := m.Get("NetworkPolicy", svc).(*networkingv1.NetworkPolicy)
	if d == nil || cfg == nil || sa == nil || np == nil {
		t.Fatalf("no Deployment, ConfigMap, ServiceAccount or NetworkPolicy %s", svc)
	}
	var got []string
	if v, ok := cfg.Data["GOOGLE_APPLICATION_CREDENTIALS"]; ok {
		got = append(got, "GOOGLE_APPLICATION_CREDENTIALS="+v)
	}
	pod := d.Spec.Template.Spec
	for _, e := range pod.Containers[0].Env {
		if e.Name == "GOOGLE_APPLICATION_CREDENTIALS" {
			got = append(got, "env GOOGLE_APPLICATION_CREDENTIALS")
		}
	}
	for _, v := range pod.Volumes {
		if v.Name == "tmp" {
			continue
		}
		desc := "volume " + v.Name
		if s := v.Secret; s != nil {
			desc += " from Secret " + s.SecretName
			for _, it := range s.Items {
				desc += fmt.Sprintf(" %s as %s", it.Key, it.Path)
			}
			if s.DefaultMode != nil {
				desc += fmt.Sprintf(" mode %#o", *s.DefaultMode)
			}
		}
		for _, mnt := range pod.Containers[0].VolumeMounts {
			if mnt.Name == v.Name {
				desc += " at " + mnt.MountPath
				if mnt.ReadOnly {
					desc += " read-only"
				}
			}
		}
		got = append(got, desc)
	}
	for _, k := range slices.Sorted(maps.Keys(sa.Annotations)) {
		got = append(got, fmt.Sprintf("annotation %s=%s", k, sa.Annotations[k]))
	}
	if sa.AutomountServiceAccountToken == nil || *sa.AutomountServiceAccountToken ||
		pod.AutomountServiceAccountToken == nil || *pod.AutomountServiceAccountToken {
		got = append(got, "token mounted")
	}
	for _, rule := range np.Spec.Egress {
		for _, peer := range rule.To {
			if peer.IPBlock == nil || !strings.HasPrefix(peer.IPBlock.CIDR, "169.254.") {
				continue
			}
			for _, p := range rule.Ports {
				got = append(got, fmt.Sprintf("egress %s:%s", peer.IPBlock.CIDR, p.Port))
			}
		}
	}
	return strings.Join(got, "; ")
}

// The Firebase Admin SDK's Google identity (firebase.credentials) reaches the services that use
// Firebase, gateway and notification, and no other service gets any part of it. prod.yaml's
// way: its key from the Secret, mounted read-only and named in GOOGLE_APPLICATION_CREDENTIALS.
// workload-identity-example.yaml's way: the annotation on their ServiceAccounts and egress to
// GKE's metadata server, with no key and (unless asked for) no token. With the emulator
// (dev, the local cluster): nothing at all.
func TestAdminSDKCredentials(t *testing.T) {
	users := map[string]bool{"gateway": true, "notification": true}
	key := "GOOGLE_APPLICATION_CREDENTIALS=/var/run/secrets/google/firebase-admin.json; " +
		"volume google-credentials from Secret santa-wishlist-secrets firebase-admin.json as firebase-admin.json mode 0440 at /var/run/secrets/google read-only"
	annotation := "annotation iam.gke.io/gcp-service-account=santa-firebase@santa-wishlist-prod.iam.gserviceaccount.com"
	metadataEgress := "egress 169.254.169.252/32:988; egress 169.254.169.254/32:80"
	workloadIdentity := annotation + "; " + metadataEgress
	check := func(set string, m *Manifests, want string) {
		t.Helper()
		for _, svc := range services(t) {
			w := ""
			if users[svc] {
				w = want
			}
			if got := adminSDKIdentity(t, m, svc); got != w {
				t.Errorf("%s: %s's Admin SDK identity:\n got  %q\n want %q", set, svc, got, w)
			}
		}
	}
	check("prod", rendered(t, "prod"), key)
	check("prod-workload-identity", rendered(t, "prod-workload-identity"), workloadIdentity)
	for _, set := range []string{"dev", "cluster", "default"} {
		check(set, rendered(t, set), "")
	}

	// A platform whose identity agent reads the ServiceAccount token gets it in those two only.
	out, err := Template(repoRoot(t), valuesSets["prod-workload-identity"],
		"--set", "firebase.credentials.automountServiceAccountToken=true")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	check("automountServiceAccountToken=true", m, annotation+"; token mounted; "+metadataEgress)
	// The token is never mounted for the key: the setting belongs to the workload identity.
	out, err = Template(repoRoot(t), valuesSets["prod"], "--set", "firebase.credentials.automountServiceAccountToken=true")
	if err != nil {
		t.Fatal(err)
	}
	if m, err = Decode(out); err != nil {
		t.Fatal(err)
	}
	check("prod with automountServiceAccountToken=true", m, key)
}

// A real project without the Auth emulator needs exactly one of the two ways: none, or both,
// fails the render with a message naming the values to set. The schema checks the values'
// shapes, and a demo- project (the emulator's) or a release without the two services needs none.
func TestAdminSDKIdentityIsChosenExactlyOnce(t *testing.T) {
	needHelm(t)
	root := repoRoot(t)
	const wi = `firebase.credentials.serviceAccountAnnotations={"iam.gke.io/gcp-service-account":"s@p.iam.gserviceaccount.com"}`
	refused := []struct {
		name, want string
		files      []string
		args       []string
	}{
		{"prod.yaml without its key", "Set firebase.credentials.serviceAccountAnnotations (a workload identity",
			valuesSets["prod"], []string{"--set", "firebase.credentials.existingSecret="}},
		{"a real project on the defaults", `firebase.projectId is "santa-wishlist-prod" and authEmulator.enabled is false`,
			nil, []string{"--set", "firebase.projectId=santa-wishlist-prod"}},
		{"only notification using Firebase", "or firebase.credentials.existingSecret and firebase.credentials.key",
			valuesSets["prod"], []string{"--set", "firebase.credentials.existingSecret=", "--set", "services.gateway.enabled=false"}},
		{"both ways", "give the Admin SDK one identity, not two: either serviceAccountAnnotations",
			valuesSets["prod"], []string{"--set-json", wi}},
		{"both ways, the key from --set", "not two",
			valuesSets["prod-workload-identity"], []string{"--set", "firebase.credentials.existingSecret=other"}},
		// Shapes, from the schema.
		{"a key that is no file name", "/firebase/credentials/key': '../x.json' does not match", valuesSets["prod"], []string{"--set", "firebase.credentials.key=../x.json"}},
		{"a Secret name Kubernetes refuses", "/firebase/credentials/existingSecret", valuesSets["prod"], []string{"--set", "firebase.credentials.existingSecret=My_Secret"}},
		{"an annotation that is no string", "/firebase/credentials/serviceAccountAnnotations/a", valuesSets["prod-workload-identity"],
			[]string{"--set-json", `firebase.credentials.serviceAccountAnnotations={"a":1}`}},
		{"a malformed metadata egress rule", "/firebase/credentials/workloadIdentityEgress/metadataServer", valuesSets["prod-workload-identity"],
			[]string{"--set", "firebase.credentials.workloadIdentityEgress.metadataServer.port=80"}},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Template(root, tc.files, tc.args...)
			if err == nil {
				t.Fatalf("rendered; want a failure naming %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("failed without naming %q:\n%v", tc.want, err)
			}
		})
	}
	accepted := []struct {
		name  string
		files []string
		args  []string
	}{
		{"the emulator's demo- project", nil, nil},
		{"a demo- project without the emulator", nil, []string{"--set", "firebase.projectId=demo-other"}},
		{"no service using Firebase", valuesSets["prod"],
			[]string{"--set", "firebase.credentials.existingSecret=", "--set", "services.gateway.enabled=false", "--set", "services.notification.enabled=false"}},
		{"a metadata egress rule dropped", valuesSets["prod-workload-identity"],
			[]string{"--set", "firebase.credentials.workloadIdentityEgress.gkeMetadataServer=null"}},
	}
	for _, tc := range accepted {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Template(root, tc.files, tc.args...); err != nil {
				t.Errorf("refused: %v", err)
			}
		})
	}
}

// The repository's helm commands (scripts and docs) pass image tags with --set-string: --set
// would hand the chart a digits-only tag as a number, which its schema refuses.
func TestHelmCommandsSetTagsAsStrings(t *testing.T) {
	root := repoRoot(t)
	numericTag := regexp.MustCompile(`--set\s+\S*tag=`)
	files := []string{"Makefile", "README.md", "skaffold.yaml"}
	for _, dir := range []string{"charts", "deploy", "docs"} { // where helm commands are written
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() && slices.Contains([]string{".sh", ".md", ".yaml", ".yml"}, filepath.Ext(p)) {
				rel, _ := filepath.Rel(root, p)
				files = append(files, rel)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range files {
		for i, line := range strings.Split(readFile(t, root, rel), "\n") {
			if numericTag.MatchString(line) {
				t.Errorf("%s:%d passes a tag with --set, not --set-string: %s", rel, i+1, strings.TrimSpace(line))
			}
		}
	}
}
