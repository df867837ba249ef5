package chartcheck

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// ServiceMonitor is the part of the Prometheus Operator's ServiceMonitor the chart uses. It is
// decoded as strictly as the built-in kinds: a field outside this subset is an error.
type ServiceMonitor struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              ServiceMonitorSpec `json:"spec"`
}

type ServiceMonitorSpec struct {
	JobLabel          string                 `json:"jobLabel,omitempty"`
	NamespaceSelector NamespaceSelector      `json:"namespaceSelector"`
	Selector          metav1.LabelSelector   `json:"selector"`
	Endpoints         []ServiceMonitorTarget `json:"endpoints"`
}

type NamespaceSelector struct {
	Any        bool     `json:"any,omitempty"`
	MatchNames []string `json:"matchNames,omitempty"`
}

type ServiceMonitorTarget struct {
	Port     string `json:"port"`
	Path     string `json:"path,omitempty"`
	Interval string `json:"interval,omitempty"`
}

// ScaledObject is the part of KEDA's ScaledObject (keda.sh/v1alpha1) the chart uses, decoded as
// strictly as ServiceMonitor. The live cluster of make k8s-test checks it against KEDA's CRD.
type ScaledObject struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              ScaledObjectSpec `json:"spec"`
}

type ScaledObjectSpec struct {
	ScaleTargetRef struct {
		Name string `json:"name"`
	} `json:"scaleTargetRef"`
	MinReplicaCount *int32 `json:"minReplicaCount"`
	MaxReplicaCount *int32 `json:"maxReplicaCount"`
	PollingInterval *int32 `json:"pollingInterval,omitempty"`
	Advanced        struct {
		HorizontalPodAutoscalerConfig struct {
			Name     string                                         `json:"name,omitempty"`
			Behavior *autoscalingv2.HorizontalPodAutoscalerBehavior `json:"behavior,omitempty"`
		} `json:"horizontalPodAutoscalerConfig"`
	} `json:"advanced"`
	Triggers []ScaleTrigger `json:"triggers"`
}

type ScaleTrigger struct {
	Type       string            `json:"type"`
	Name       string            `json:"name,omitempty"`
	MetricType string            `json:"metricType,omitempty"`
	Metadata   map[string]string `json:"metadata"`
}

// newObject maps apiVersion/kind to the Go type a rendered object must decode into. A kind
// missing here fails the check: the chart renders nothing unvetted.
func newObject(apiVersion, kind string) (any, bool) {
	switch apiVersion + "/" + kind {
	case "v1/ConfigMap":
		return &corev1.ConfigMap{}, true
	case "v1/Secret":
		return &corev1.Secret{}, true
	case "v1/Service":
		return &corev1.Service{}, true
	case "v1/ServiceAccount":
		return &corev1.ServiceAccount{}, true
	case "apps/v1/Deployment":
		return &appsv1.Deployment{}, true
	case "apps/v1/StatefulSet":
		return &appsv1.StatefulSet{}, true
	case "autoscaling/v2/HorizontalPodAutoscaler":
		return &autoscalingv2.HorizontalPodAutoscaler{}, true
	case "policy/v1/PodDisruptionBudget":
		return &policyv1.PodDisruptionBudget{}, true
	case "networking.k8s.io/v1/NetworkPolicy":
		return &networkingv1.NetworkPolicy{}, true
	case "networking.k8s.io/v1/Ingress":
		return &networkingv1.Ingress{}, true
	case "monitoring.coreos.com/v1/ServiceMonitor":
		return &ServiceMonitor{}, true
	case "keda.sh/v1alpha1/ScaledObject":
		return &ScaledObject{}, true
	}
	return nil, false
}

// Object is one rendered manifest, decoded.
type Object struct {
	Kind   string
	Name   string
	Source string // the chart template it came from
	Obj    any    // pointer to the k8s.io/api type
}

// Manifests holds a rendered release by kind and name.
type Manifests struct {
	All []Object
}

// Decode splits helm's output into documents and decodes each strictly: duplicate keys and
// fields unknown to the Kubernetes API types are errors.
func Decode(rendered []byte) (*Manifests, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(rendered)))
	m := &Manifests{}
	var problems []string
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("split documents: %w", err)
		}
		source := sourceOf(doc)
		js, err := yaml.YAMLToJSONStrict(doc)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", source, err))
			continue
		}
		if bytes.Equal(bytes.TrimSpace(js), []byte("null")) {
			continue // an empty document (comments only)
		}
		var meta struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(js, &meta); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", source, err))
			continue
		}
		obj, ok := newObject(meta.APIVersion, meta.Kind)
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: no Go type for %s %s", source, meta.APIVersion, meta.Kind))
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(js))
		dec.DisallowUnknownFields()
		if err := dec.Decode(obj); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %s %q: %v", source, meta.Kind, meta.Metadata.Name, err))
			continue
		}
		if meta.Metadata.Name == "" {
			problems = append(problems, fmt.Sprintf("%s: %s without a name", source, meta.Kind))
		}
		m.All = append(m.All, Object{Kind: meta.Kind, Name: meta.Metadata.Name, Source: source, Obj: obj})
	}
	if len(problems) > 0 {
		return m, errors.New(strings.Join(problems, "\n"))
	}
	return m, nil
}

func sourceOf(doc []byte) string {
	for _, line := range strings.Split(string(doc), "\n") {
		if s, ok := strings.CutPrefix(line, "# Source: "); ok {
			return s
		}
	}
	return "(unknown template)"
}

// Count returns how many objects of each kind were rendered.
func (m *Manifests) Count() map[string]int {
	c := map[string]int{}
	for _, o := range m.All {
		c[o.Kind]++
	}
	return c
}

// Get returns the object of a kind and name, or nil.
func (m *Manifests) Get(kind, name string) any {
	for _, o := range m.All {
		if o.Kind == kind && o.Name == name {
			return o.Obj
		}
	}
	return nil
}

// OfKind returns every object of a kind.
func OfKind[T any](m *Manifests, kind string) []*T {
	var out []*T
	for _, o := range m.All {
		if o.Kind == kind {
			if t, ok := o.Obj.(*T); ok {
				out = append(out, t)
			}
		}
	}
	return out
}

// PodSpecs returns the pod templates of every workload, by "Kind/name".
func (m *Manifests) PodSpecs() map[string]*corev1.PodTemplateSpec {
	out := map[string]*corev1.PodTemplateSpec{}
	for _, o := range m.All {
		switch w := o.Obj.(type) {
		case *appsv1.Deployment:
			out["Deployment/"+o.Name] = &w.Spec.Template
		case *appsv1.StatefulSet:
			out["StatefulSet/"+o.Name] = &w.Spec.Template
		}
	}
	return out
}
