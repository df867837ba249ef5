package chartcheck

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"
)

// Strict decoding proves the shape; these are the apiserver's own rules for names, labels,
// ports, env names and selectors, plus the cross-references a typo would break.
func TestObjectsPassAPIValidationRules(t *testing.T) {
	for _, set := range slices.Sorted(maps.Keys(valuesSets)) {
		m := rendered(t, set)
		errs := field.ErrorList{}
		names := map[string]bool{}
		for _, o := range m.All {
			names[o.Kind+"/"+o.Name] = true
		}
		if existing := existingSecretOf(t, set); existing != "" {
			names["Secret/"+existing] = true // the operator's, named in the values
		}
		for _, o := range m.All {
			meta := objectMeta(o.Obj)
			nameFn := apivalidation.NameIsDNSSubdomain
			if o.Kind == "Service" {
				nameFn = apivalidation.NameIsDNS1035Label
			}
			errs = append(errs, apivalidation.ValidateObjectMeta(meta, false, nameFn, field.NewPath(o.Kind+"/"+o.Name, "metadata"))...)
		}
		for name, tpl := range m.PodSpecs() {
			errs = append(errs, validatePod(name, tpl, names)...)
		}
		for _, d := range OfKind[appsv1.Deployment](m, "Deployment") {
			errs = append(errs, validateSelector("Deployment/"+d.Name, d.Spec.Selector, d.Spec.Template.Labels)...)
		}
		for _, s := range OfKind[appsv1.StatefulSet](m, "StatefulSet") {
			errs = append(errs, validateSelector("StatefulSet/"+s.Name, s.Spec.Selector, s.Spec.Template.Labels)...)
			if !names["Service/"+s.Spec.ServiceName] {
				errs = append(errs, field.NotFound(field.NewPath("StatefulSet/"+s.Name, "spec", "serviceName"), s.Spec.ServiceName))
			}
		}
		for _, s := range OfKind[corev1.Service](m, "Service") {
			errs = append(errs, validateServicePorts(m, s)...)
		}
		for _, h := range OfKind[autoscalingv2.HorizontalPodAutoscaler](m, "HorizontalPodAutoscaler") {
			p := field.NewPath("HorizontalPodAutoscaler/" + h.Name)
			if h.Spec.MinReplicas == nil || *h.Spec.MinReplicas < 1 || *h.Spec.MinReplicas > h.Spec.MaxReplicas {
				errs = append(errs, field.Invalid(p.Child("spec"), h.Spec.MaxReplicas, "needs 1 <= minReplicas <= maxReplicas"))
			}
			if !names[h.Spec.ScaleTargetRef.Kind+"/"+h.Spec.ScaleTargetRef.Name] {
				errs = append(errs, field.NotFound(p.Child("spec", "scaleTargetRef"), h.Spec.ScaleTargetRef.Name))
			}
		}
		for _, np := range OfKind[networkingv1.NetworkPolicy](m, "NetworkPolicy") {
			p := field.NewPath("NetworkPolicy/" + np.Name)
			errs = append(errs, metav1validation.ValidateLabelSelector(&np.Spec.PodSelector, metav1validation.LabelSelectorValidationOptions{}, p.Child("spec", "podSelector"))...)
		}
		for _, cm := range OfKind[corev1.ConfigMap](m, "ConfigMap") {
			for k := range cm.Data {
				for _, msg := range validation.IsConfigMapKey(k) {
					errs = append(errs, field.Invalid(field.NewPath("ConfigMap/"+cm.Name, "data"), k, msg))
				}
			}
		}
		for _, e := range errs {
			t.Errorf("%s: %v", set, e)
		}
	}
}

func objectMeta(obj any) *metav1.ObjectMeta {
	switch o := obj.(type) {
	case metav1.ObjectMetaAccessor:
		return o.GetObjectMeta().(*metav1.ObjectMeta)
	}
	panic(fmt.Sprintf("%T has no ObjectMeta", obj))
}

func validateSelector(where string, sel *metav1.LabelSelector, podLabels map[string]string) field.ErrorList {
	p := field.NewPath(where, "spec", "selector")
	errs := metav1validation.ValidateLabelSelector(sel, metav1validation.LabelSelectorValidationOptions{}, p)
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil || s.Empty() || !s.Matches(labels.Set(podLabels)) {
		errs = append(errs, field.Invalid(p, sel, "must be non-empty and match the pod template's labels"))
	}
	return errs
}

func validatePod(where string, tpl *corev1.PodTemplateSpec, objects map[string]bool) field.ErrorList {
	p := field.NewPath(where, "spec", "template")
	errs := metav1validation.ValidateLabels(tpl.Labels, p.Child("metadata", "labels"))
	errs = append(errs, apivalidation.ValidateAnnotations(tpl.Annotations, p.Child("metadata", "annotations"))...)
	spec := tpl.Spec
	volumes := map[string]bool{}
	for _, v := range spec.Volumes {
		if volumes[v.Name] {
			errs = append(errs, field.Duplicate(p.Child("spec", "volumes"), v.Name))
		}
		volumes[v.Name] = true
		if v.ConfigMap != nil && !objects["ConfigMap/"+v.ConfigMap.Name] {
			errs = append(errs, field.NotFound(p.Child("spec", "volumes", v.Name), v.ConfigMap.Name))
		}
	}
	if spec.ServiceAccountName != "" && !objects["ServiceAccount/"+spec.ServiceAccountName] {
		errs = append(errs, field.NotFound(p.Child("spec", "serviceAccountName"), spec.ServiceAccountName))
	}
	for _, c := range spec.Containers {
		cp := p.Child("spec", "containers").Key(c.Name)
		for _, msg := range validation.IsDNS1123Label(c.Name) {
			errs = append(errs, field.Invalid(cp.Child("name"), c.Name, msg))
		}
		if c.Image == "" {
			errs = append(errs, field.Required(cp.Child("image"), ""))
		}
		ports := map[string]bool{}
		for _, port := range c.Ports {
			for _, msg := range validation.IsValidPortName(port.Name) {
				errs = append(errs, field.Invalid(cp.Child("ports"), port.Name, msg))
			}
			for _, msg := range validation.IsValidPortNum(int(port.ContainerPort)) {
				errs = append(errs, field.Invalid(cp.Child("ports"), port.ContainerPort, msg))
			}
			ports[port.Name] = true
		}
		for _, probe := range []*corev1.Probe{c.StartupProbe, c.LivenessProbe, c.ReadinessProbe} {
			if probe == nil {
				continue
			}
			var port *intstr.IntOrString
			switch {
			case probe.HTTPGet != nil:
				port = &probe.HTTPGet.Port
			case probe.TCPSocket != nil:
				port = &probe.TCPSocket.Port
			case probe.Exec != nil:
				if len(probe.Exec.Command) == 0 {
					errs = append(errs, field.Required(cp.Child("probe", "exec", "command"), ""))
				}
			default:
				errs = append(errs, field.Required(cp.Child("probe"), "a handler"))
			}
			if port != nil && port.Type == intstr.String && !ports[port.StrVal] {
				errs = append(errs, field.NotFound(cp.Child("probe", "port"), port.StrVal))
			}
		}
		for _, e := range c.Env {
			for _, msg := range validation.IsEnvVarName(e.Name) {
				errs = append(errs, field.Invalid(cp.Child("env"), e.Name, msg))
			}
			if ref := e.ValueFrom; ref != nil && ref.SecretKeyRef != nil && !objects["Secret/"+ref.SecretKeyRef.Name] {
				errs = append(errs, field.NotFound(cp.Child("env", e.Name), ref.SecretKeyRef.Name))
			}
		}
		for _, vm := range c.VolumeMounts {
			if !volumes[vm.Name] && vm.Name != "data" { // data: the StatefulSet's volume claim
				errs = append(errs, field.NotFound(cp.Child("volumeMounts"), vm.Name))
			}
		}
	}
	return errs
}

// Each Service port targets a named port the selected pods declare.
func validateServicePorts(m *Manifests, s *corev1.Service) field.ErrorList {
	p := field.NewPath("Service/"+s.Name, "spec")
	var errs field.ErrorList
	var selected []*corev1.PodTemplateSpec
	for _, tpl := range m.PodSpecs() {
		if len(s.Spec.Selector) > 0 && labels.SelectorFromSet(s.Spec.Selector).Matches(labels.Set(tpl.Labels)) {
			selected = append(selected, tpl)
		}
	}
	if len(selected) != 1 {
		return append(errs, field.Invalid(p.Child("selector"), s.Spec.Selector, fmt.Sprintf("selects %d workloads, want 1", len(selected))))
	}
	for _, port := range s.Spec.Ports {
		for _, msg := range validation.IsValidPortName(port.Name) {
			errs = append(errs, field.Invalid(p.Child("ports"), port.Name, msg))
		}
		if port.TargetPort.Type != intstr.String {
			continue
		}
		found := false
		for _, c := range selected[0].Spec.Containers {
			for _, cport := range c.Ports {
				found = found || cport.Name == port.TargetPort.StrVal
			}
		}
		if !found {
			errs = append(errs, field.NotFound(p.Child("ports", port.Name, "targetPort"), port.TargetPort.StrVal))
		}
	}
	return errs
}

// existingSecretOf returns secrets.existingSecret as the values set's files leave it.
func existingSecretOf(t *testing.T, set string) string {
	t.Helper()
	name := ""
	for _, f := range valuesSets[set] {
		var v struct {
			Secrets struct {
				ExistingSecret *string `json:"existingSecret"`
			} `json:"secrets"`
		}
		if err := yaml.Unmarshal([]byte(readFile(t, repoRoot(t), f)), &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if v.Secrets.ExistingSecret != nil {
			name = *v.Secrets.ExistingSecret
		}
	}
	return name
}
