package main

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/yaml"

	cmapi "github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"
	cmscheme "github.com/cert-manager/cert-manager/pkg/client/clientset/versioned/scheme"
)

// The CRDs file is a copy of the module's deploy/crds files at the version go.mod requires:
// changing one without the other fails here.
func TestCRDsAreTheModules(t *testing.T) {
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/cert-manager/cert-manager")
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	crds := filepath.Join(strings.TrimSpace(string(out)), "deploy", "crds")
	var want []byte
	for _, n := range []string{"certificates", "certificaterequests", "issuers", "clusterissuers"} {
		b, err := os.ReadFile(filepath.Join(crds, "cert-manager.io_"+n+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, b...)
	}
	got, err := os.ReadFile("../cert-manager-crds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The file's own header is comment lines before the first document.
	if i := bytes.Index(got, []byte("\n---\n")); i < 0 || !bytes.Equal(got[i+1:], want) {
		t.Errorf("../cert-manager-crds.yaml is not the header plus %s's files joined; make it again (its header says how)", crds)
	}
}

// manifest decodes cert-manager.yaml strictly (an unknown or misspelt field fails) into the
// Kubernetes and cert-manager API types.
func manifest(t *testing.T) []runtime.Object {
	t.Helper()
	b, err := os.ReadFile("../cert-manager.yaml")
	if err != nil {
		t.Fatal(err)
	}
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{kscheme.AddToScheme, cmscheme.AddToScheme} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	var objs []runtime.Object
	for _, doc := range strings.Split(strings.ReplaceAll(string(b), "@VERSION@", "v0"), "\n---\n") {
		var tm struct{ APIVersion, Kind string }
		if err := yaml.Unmarshal([]byte(doc), &tm); err != nil {
			t.Fatal(err)
		}
		gv, err := schema.ParseGroupVersion(tm.APIVersion)
		if err != nil {
			t.Fatal(err)
		}
		obj, err := scheme.New(gv.WithKind(tm.Kind))
		if err != nil {
			t.Fatalf("%s: %v", tm.Kind, err)
		}
		if err := yaml.UnmarshalStrict([]byte(doc), obj); err != nil {
			t.Fatalf("%s: %v", tm.Kind, err)
		}
		objs = append(objs, obj)
	}
	return objs
}

// The bootstrap of the local CA holds together: the controller reads ClusterIssuers' Secrets
// from the namespace where the CA Certificate writes santa-local-ca, that Certificate is a CA
// signed by the self-signed ClusterIssuer of this file, its key survives renewals, and the
// controller's flags are ones it has.
func TestTheLocalCAHoldsTogether(t *testing.T) {
	var dep *appsv1.Deployment
	var ca *cmapi.Certificate
	issuers := map[string]*cmapi.ClusterIssuer{}
	leases := map[string]bool{} // namespaces where the controller may hold a Lease
	for _, o := range manifest(t) {
		switch o := o.(type) {
		case *appsv1.Deployment:
			dep = o
		case *cmapi.Certificate:
			ca = o
		case *cmapi.ClusterIssuer:
			issuers[o.Name] = o
		case *rbacv1.Role:
			for _, r := range o.Rules {
				if strings.Join(r.Resources, ",") == "leases" && strings.Contains(strings.Join(r.Verbs, ","), "update") {
					leases[o.Namespace] = true
				}
			}
		}
	}
	if dep == nil || ca == nil {
		t.Fatal("cert-manager.yaml has no Deployment or no Certificate")
	}
	o, err := parseFlags(flag.NewFlagSet("manifest", flag.ContinueOnError), dep.Spec.Template.Spec.Containers[0].Args)
	if err != nil {
		t.Fatalf("the Deployment's args: %v", err)
	}
	if ca.Namespace != o.clusterResourceNamespace {
		t.Errorf("the CA's Secret is in %q, ClusterIssuers read theirs from %q", ca.Namespace, o.clusterResourceNamespace)
	}
	if o.leaderElect && !leases[o.leaseNamespace] {
		t.Errorf("leader election in %q, but no Role there lets the controller update Leases", o.leaseNamespace)
	}
	if !ca.Spec.IsCA || ca.Spec.PrivateKey == nil || ca.Spec.PrivateKey.RotationPolicy != cmapi.RotationPolicyNever {
		t.Errorf("the CA Certificate: isCA %v, private key %+v; want a CA whose key is kept", ca.Spec.IsCA, ca.Spec.PrivateKey)
	}
	if self := issuers[ca.Spec.IssuerRef.Name]; self == nil || self.Spec.SelfSigned == nil || ca.Spec.IssuerRef.Kind != "ClusterIssuer" {
		t.Errorf("the CA Certificate is issued by %+v, not by a self-signed ClusterIssuer of this file", ca.Spec.IssuerRef)
	}
	local := issuers["santa-local-ca"]
	if local == nil || local.Spec.CA == nil || local.Spec.CA.SecretName != ca.Spec.SecretName {
		t.Errorf("ClusterIssuer santa-local-ca is %+v; want a CA issuer of Secret %q", local, ca.Spec.SecretName)
	}
}
