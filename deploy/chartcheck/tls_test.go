package chartcheck

import (
	"slices"
	"strings"
	"testing"

	networkingv1 "k8s.io/api/networking/v1"
)

// ingressOf renders the chart with values files and --set pairs and returns its one Ingress.
func ingressOf(t *testing.T, files []string, set ...string) *networkingv1.Ingress {
	t.Helper()
	needHelm(t)
	var args []string
	for _, s := range set {
		args = append(args, "--set", s)
	}
	out, err := Template(repoRoot(t), files, args...)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(out)
	if err != nil {
		t.Fatalf("objects do not decode strictly: %v", err)
	}
	ings := OfKind[networkingv1.Ingress](m, "Ingress")
	if len(ings) != 1 {
		t.Fatalf("want one Ingress, got %d", len(ings))
	}
	return ings[0]
}

// ingress.tls.certManager names the issuer cert-manager's ingress-shim reads from the Ingress's
// annotations; it then makes a Certificate for the tls section's hosts into its secretName.
// The local cluster names its own CA (deploy/cluster/cert-manager.yaml), production an ACME
// ClusterIssuer of the operator's cert-manager (deploy/values/prod.yaml).
func TestIngressTLSFromCertManager(t *testing.T) {
	cluster := valuesSets["cluster"]
	for _, c := range []struct {
		name       string
		files, set []string
		annotation string // the one cert-manager annotation, key=value
		secret     string
		host       string
	}{
		// deploy/cluster/values.yaml itself, as k8s-test installs it.
		{"the local cluster's CA", cluster, nil,
			"cert-manager.io/cluster-issuer=santa-local-ca", "gateway-tls", "santa.localtest"},
		{"a namespaced Issuer, a Secret named", cluster, []string{"ingress.tls.certManager.clusterIssuer=", "ingress.tls.certManager.issuer=santa-ca", "ingress.tls.secretName=santa-tls"},
			"cert-manager.io/issuer=santa-ca", "santa-tls", "santa.localtest"},
		{"production's ACME issuer", valuesSets["prod"], nil,
			"cert-manager.io/cluster-issuer=letsencrypt", "santa-wishlist-tls", "wishlist.example.com"},
	} {
		ing := ingressOf(t, c.files, c.set...)
		var cm []string
		for k, v := range ing.Annotations {
			if strings.HasPrefix(k, "cert-manager.io/") {
				cm = append(cm, k+"="+v)
			}
		}
		if !slices.Equal(cm, []string{c.annotation}) {
			t.Errorf("%s: cert-manager annotations %v, want %s", c.name, cm, c.annotation)
		}
		if len(ing.Spec.TLS) != 1 || ing.Spec.TLS[0].SecretName != c.secret || !slices.Equal(ing.Spec.TLS[0].Hosts, []string{c.host}) {
			t.Errorf("%s: tls %+v, want %s for %s", c.name, ing.Spec.TLS, c.secret, c.host)
		}
		// The rule's host is the certificate's: a request for it is served with that Secret.
		if len(ing.Spec.Rules) != 1 || ing.Spec.Rules[0].Host != c.host {
			t.Errorf("%s: rules %+v, want host %s", c.name, ing.Spec.Rules, c.host)
		}
	}
	// The other annotations stay (production's ingress-nginx settings).
	if ing := ingressOf(t, valuesSets["prod"]); ing.Annotations["nginx.ingress.kubernetes.io/proxy-buffering"] != "off" {
		t.Errorf("prod: the Ingress lost its own annotations: %v", ing.Annotations)
	}
	// Without certManager and tls nothing of cert-manager's is added (plain HTTP).
	if ing := ingressOf(t, cluster, "ingress.tls.enabled=false", "ingress.tls.certManager.clusterIssuer="); len(ing.Spec.TLS) != 0 || len(ing.Annotations) != 0 {
		t.Errorf("cluster without TLS: tls %+v, annotations %v", ing.Spec.TLS, ing.Annotations)
	}
}

// Settings that cannot work are refused at install, with what to change.
func TestIngressTLSMistakesAreRefused(t *testing.T) {
	needHelm(t)
	cluster := valuesSets["cluster"]
	for _, c := range []struct {
		set  []string
		want string
	}{
		{[]string{"ingress.tls.certManager.issuer=b"}, "not both"},
		{[]string{"ingress.tls.enabled=false"}, "ingress.tls.enabled is false"},
		{[]string{"ingress.annotations.cert-manager\\.io/cluster-issuer=b"}, "keep only certManager"},
		{[]string{"ingress.tls.certManager.clusterIssuer="}, "ingress.tls.secretName is required"},
		{[]string{"ingress.tls.certManager.acme=true"}, "acme"}, // the schema knows no such key
	} {
		var args []string
		for _, s := range c.set {
			args = append(args, "--set", s)
		}
		_, err := Template(repoRoot(t), cluster, args...)
		if err == nil {
			t.Errorf("%v: rendered, want a refusal mentioning %q", c.set, c.want)
			continue
		}
		// Helm's own words, after the first line (which repeats the arguments).
		_, said, _ := strings.Cut(err.Error(), "\n")
		if !strings.Contains(said, c.want) {
			t.Errorf("%v: want a refusal mentioning %q, got %v", c.set, c.want, err)
		}
	}
}
