// podwatch tells Debian's Prometheus about the pods of its namespace. Debian builds Prometheus
// 2.42 without Kubernetes service discovery (kubernetes_sd_configs is not in its binary), and
// kube-state-metrics is not served by the Go module proxy here, so this small program stands in
// for the two parts the local cluster's monitoring needs, with their names and labels so that
// the Prometheus configuration, deploy/observability/alerts.yaml and the dashboard stay as they
// would be with the real ones:
//
//	/targets  Prometheus HTTP service discovery (http_sd_configs): one target per container
//	          port of every pod, with the __meta_kubernetes_* labels kubernetes_sd_configs'
//	          role pod gives, so the same relabel_configs apply;
//	/metrics  kube-state-metrics' kube_pod_container_status_restarts_total{namespace, pod,
//	          uid, container}.
//
// It lists the pods from the API server with its service account (get/list pods in its own
// namespace) on every request, and listens on LISTEN_ADDR (default :9101).
package main

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

const account = "/var/run/secrets/kubernetes.io/serviceaccount/"

type pod struct {
	Metadata struct {
		Name        string            `json:"name"`
		Namespace   string            `json:"namespace"`
		UID         string            `json:"uid"`
		Labels      map[string]string `json:"labels"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
	Spec struct {
		NodeName   string `json:"nodeName"`
		Containers []struct {
			Name  string `json:"name"`
			Ports []struct {
				Name          string `json:"name"`
				ContainerPort int    `json:"containerPort"`
				Protocol      string `json:"protocol"`
			} `json:"ports"`
		} `json:"containers"`
	} `json:"spec"`
	Status struct {
		Phase      string `json:"phase"`
		PodIP      string `json:"podIP"`
		Conditions []struct {
			Type   string `json:"type"`
			Status string `json:"status"`
		} `json:"conditions"`
		ContainerStatuses []struct {
			Name         string `json:"name"`
			RestartCount int    `json:"restartCount"`
		} `json:"containerStatuses"`
	} `json:"status"`
}

type podList struct {
	Items []pod `json:"items"`
}

type apiClient struct {
	http      *http.Client
	base      string
	namespace string
}

func newAPIClient() (*apiClient, error) {
	ca, err := os.ReadFile(account + "ca.crt")
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		return nil, fmt.Errorf("no certificate in %sca.crt", account)
	}
	ns, err := os.ReadFile(account + "namespace")
	if err != nil {
		return nil, err
	}
	host, port := os.Getenv("KUBERNETES_SERVICE_HOST"), os.Getenv("KUBERNETES_SERVICE_PORT")
	if host == "" || port == "" {
		return nil, fmt.Errorf("KUBERNETES_SERVICE_HOST/PORT are not set: run this in a pod")
	}
	return &apiClient{
		http: &http.Client{Timeout: 4 * time.Second,
			Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}},
		base:      "https://" + net.JoinHostPort(host, port),
		namespace: strings.TrimSpace(string(ns)),
	}, nil
}

func (c *apiClient) pods() (*podList, error) {
	// The token is read each time: the kubelet rotates the projected token.
	token, err := os.ReadFile(account + "token")
	if err != nil {
		return nil, err
	}
	req, _ := http.NewRequest(http.MethodGet, c.base+"/api/v1/namespaces/"+c.namespace+"/pods", nil)
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(token)))
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("list pods: %s", resp.Status)
	}
	var list podList
	return &list, json.NewDecoder(resp.Body).Decode(&list)
}

// restarts writes the pods' restart counters in Prometheus' text format, sorted so that a
// scrape is stable. A pod with no container started yet has no series, as in kube-state-metrics.
func restarts(list *podList) string {
	var lines []string
	for _, p := range list.Items {
		for _, c := range p.Status.ContainerStatuses {
			lines = append(lines, fmt.Sprintf("kube_pod_container_status_restarts_total{namespace=%q,pod=%q,uid=%q,container=%q} %d",
				p.Metadata.Namespace, p.Metadata.Name, p.Metadata.UID, c.Name, c.RestartCount))
		}
	}
	sort.Strings(lines)
	return "# HELP kube_pod_container_status_restarts_total The number of container restarts per container.\n" +
		"# TYPE kube_pod_container_status_restarts_total counter\n" + strings.Join(lines, "\n") + "\n"
}

type targetGroup struct {
	Targets []string          `json:"targets"`
	Labels  map[string]string `json:"labels"`
}

var invalidLabelChars = regexp.MustCompile(`[^a-zA-Z0-9_]`)

// sanitize makes a Kubernetes label or annotation name a Prometheus label name, as Prometheus'
// Kubernetes discovery does (app.kubernetes.io/name -> app_kubernetes_io_name).
func sanitize(name string) string { return invalidLabelChars.ReplaceAllString(name, "_") }

// targets is what kubernetes_sd_configs' role pod finds: one target per declared container
// port of each pod that has an address, labelled with the pod's metadata.
func targets(list *podList) []targetGroup {
	groups := []targetGroup{}
	for _, p := range list.Items {
		if p.Status.PodIP == "" {
			continue
		}
		ready := "false"
		for _, c := range p.Status.Conditions {
			if c.Type == "Ready" {
				ready = strings.ToLower(c.Status)
			}
		}
		podLabels := map[string]string{
			"__meta_kubernetes_namespace":     p.Metadata.Namespace,
			"__meta_kubernetes_pod_name":      p.Metadata.Name,
			"__meta_kubernetes_pod_uid":       p.Metadata.UID,
			"__meta_kubernetes_pod_ip":        p.Status.PodIP,
			"__meta_kubernetes_pod_node_name": p.Spec.NodeName,
			"__meta_kubernetes_pod_phase":     p.Status.Phase,
			"__meta_kubernetes_pod_ready":     ready,
		}
		for k, v := range p.Metadata.Labels {
			podLabels["__meta_kubernetes_pod_label_"+sanitize(k)] = v
			podLabels["__meta_kubernetes_pod_labelpresent_"+sanitize(k)] = "true"
		}
		for k, v := range p.Metadata.Annotations {
			podLabels["__meta_kubernetes_pod_annotation_"+sanitize(k)] = v
			podLabels["__meta_kubernetes_pod_annotationpresent_"+sanitize(k)] = "true"
		}
		for _, c := range p.Spec.Containers {
			for _, port := range c.Ports {
				labels := map[string]string{
					"__meta_kubernetes_pod_container_name":          c.Name,
					"__meta_kubernetes_pod_container_port_name":     port.Name,
					"__meta_kubernetes_pod_container_port_number":   strconv.Itoa(port.ContainerPort),
					"__meta_kubernetes_pod_container_port_protocol": port.Protocol,
				}
				for k, v := range podLabels {
					labels[k] = v
				}
				groups = append(groups, targetGroup{
					Targets: []string{net.JoinHostPort(p.Status.PodIP, strconv.Itoa(port.ContainerPort))},
					Labels:  labels,
				})
			}
		}
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].Targets[0] < groups[j].Targets[0] })
	return groups
}

func main() {
	c, err := newAPIClient()
	if err != nil {
		log.Fatal(err)
	}
	addr := os.Getenv("LISTEN_ADDR")
	if addr == "" {
		addr = ":9101"
	}
	// A failed listing is an error answer (a failed scrape, up == 0; discovery keeps its last
	// targets), never an empty one that would read as "no pods".
	http.HandleFunc("/metrics", func(w http.ResponseWriter, _ *http.Request) {
		list, err := c.pods()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		fmt.Fprint(w, restarts(list))
	})
	http.HandleFunc("/targets", func(w http.ResponseWriter, _ *http.Request) {
		list, err := c.pods()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(targets(list))
	})
	log.Printf("podwatch: namespace %s, listening on %s", c.namespace, addr)
	log.Fatal(http.ListenAndServe(addr, nil))
}
