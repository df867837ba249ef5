package main

import (
	"encoding/json"
	"strings"
	"testing"
)

const pods = `{"items": [
  {"metadata": {"name": "family-1", "namespace": "ns", "uid": "u2",
                "labels": {"app.kubernetes.io/name": "family", "app.kubernetes.io/component": "service"},
                "annotations": {"prometheus.io/port": "9090"}},
   "spec": {"nodeName": "node", "containers": [{"name": "family", "ports": [
     {"name": "http", "containerPort": 8080, "protocol": "TCP"}, {"name": "admin", "containerPort": 9090, "protocol": "TCP"}]}]},
   "status": {"phase": "Running", "podIP": "10.0.0.2", "conditions": [{"type": "Ready", "status": "True"}],
              "containerStatuses": [{"name": "family", "restartCount": 4}]}},
  {"metadata": {"name": "gateway-1", "namespace": "ns", "uid": "u1"},
   "spec": {"containers": [{"name": "gateway"}]},
   "status": {"phase": "Running", "podIP": "10.0.0.1", "containerStatuses": [{"name": "gateway", "restartCount": 0}]}},
  {"metadata": {"name": "pending", "namespace": "ns", "uid": "u3"},
   "spec": {"containers": [{"name": "x", "ports": [{"name": "admin", "containerPort": 9090}]}]}, "status": {"phase": "Pending"}}]}`

func parse(t *testing.T) *podList {
	t.Helper()
	var list podList
	if err := json.Unmarshal([]byte(pods), &list); err != nil {
		t.Fatal(err)
	}
	return &list
}

func TestRestartsAreKubeStateMetricsSeries(t *testing.T) {
	got := restarts(parse(t))
	want := `# HELP kube_pod_container_status_restarts_total The number of container restarts per container.
# TYPE kube_pod_container_status_restarts_total counter
kube_pod_container_status_restarts_total{namespace="ns",pod="family-1",uid="u2",container="family"} 4
kube_pod_container_status_restarts_total{namespace="ns",pod="gateway-1",uid="u1",container="gateway"} 0
`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if strings.Contains(got, "pending") {
		t.Fatal("a pod without container statuses has no series")
	}
}

func TestTargetsAreThePodRolesOnes(t *testing.T) {
	groups := targets(parse(t))
	// family's two ports; gateway declares none and the pending pod has no address yet.
	if len(groups) != 2 {
		t.Fatalf("got %d targets, want 2: %+v", len(groups), groups)
	}
	admin := groups[1]
	if admin.Targets[0] != "10.0.0.2:9090" {
		t.Fatalf("target %v, want 10.0.0.2:9090", admin.Targets)
	}
	for k, v := range map[string]string{
		"__meta_kubernetes_namespace":                             "ns",
		"__meta_kubernetes_pod_name":                              "family-1",
		"__meta_kubernetes_pod_label_app_kubernetes_io_name":      "family",
		"__meta_kubernetes_pod_label_app_kubernetes_io_component": "service",
		"__meta_kubernetes_pod_annotation_prometheus_io_port":     "9090",
		"__meta_kubernetes_pod_container_name":                    "family",
		"__meta_kubernetes_pod_container_port_name":               "admin",
		"__meta_kubernetes_pod_phase":                             "Running",
		"__meta_kubernetes_pod_ready":                             "true",
	} {
		if admin.Labels[k] != v {
			t.Errorf("%s = %q, want %q", k, admin.Labels[k], v)
		}
	}
}
