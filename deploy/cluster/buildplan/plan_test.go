package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// current are the pins of versions.env and pins.env when this program replaced build.sh's own
// spelling of the cache; the tests below pin the folders and commands made from them.
var current = Versions{
	"K8S_VERSION": "v1.33.13", "K8S_STAGING_VERSION": "v0.33.13", "COREDNS_VERSION": "v1.12.1",
	"METRICS_SERVER_VERSION": "v0.7.2", "SKAFFOLD_VERSION": "v2.16.1", "CRANE_VERSION": "v0.20.3",
	"LOCAL_PATH_PROVISIONER_VERSION": "v0.0.30", "KUBE_ROUTER_VERSION": "v2.1.0",
	"TRAEFIK_VERSION": "v3.6.12", "KEDA_VERSION": "v2.20.2",
	"MINIO_PIN": "v0.0.0-20260212201848-7aac2a2c5b7c", "NATS_PIN": "v2.15.2",
	"FIREBASE_TOOLS_PIN": "15.34.2", "MAILPIT_PIN": "v1.27.11", "CERT_MANAGER_VERSION": "v1.21.2",
}

// checkout is a checkout whose deploy/cluster/cert-manager holds two small files, so that the
// controller's folder key (pinned below) does not change with the real controller's code.
const checkout = Root("testdata/checkout")

// fakePlan is a plan over the cache /c whose executable files are the ones listed.
func fakePlan(v Versions, executables ...string) *Plan {
	p := NewPlan("/c", "/h/.cache/santa/bin", []string{"buildplan"}, v)
	p.executable = func(path string) bool { return slices.Contains(executables, path) }
	p.static = func(path string) bool { return strings.HasSuffix(path, "/minio") }
	return p
}

// The cache folders and the binaries in them, byte for byte as build.sh spelled them before:
// a different string is a cold cache (a 40 to 60 minute build in CI).
func TestCacheFoldersPinned(t *testing.T) {
	cs, err := Components(current, checkout)
	if err != nil {
		t.Fatal(err)
	}
	p := fakePlan(current)
	var got []string
	for _, c := range cs {
		for _, o := range c.Outputs {
			got = append(got, p.Dir(c)+"/"+o)
		}
	}
	want := []string{
		"/c/kubernetes-v1.33.13/kube-apiserver", "/c/kubernetes-v1.33.13/kube-controller-manager",
		"/c/kubernetes-v1.33.13/kube-scheduler", "/c/kubernetes-v1.33.13/kubelet",
		"/c/kubernetes-v1.33.13/kube-proxy", "/c/kubernetes-v1.33.13/kubectl",
		"/c/skaffold-v2.16.1/skaffold", "/c/traefik-v3.6.12/traefik",
		"/c/keda-v2.20.2/keda", "/c/keda-v2.20.2/keda-adapter",
		"/c/crane-v0.20.3/crane", "/c/coredns-v1.12.1/coredns",
		"/c/metrics-server-v0.7.2/metrics-server", "/c/kube-router-v2.1.0/kube-router",
		"/c/local-path-provisioner-v0.0.30/local-path-provisioner", "/c/nats-server-v2.15.2/nats-server",
		"/c/minio-v0.0.0-20260212201848-7aac2a2c5b7c/minio", "/c/mailpit-v1.27.11/mailpit",
		// The pin and `cat deploy/cluster/cert-manager/* | sha1sum | cut -c1-16`.
		"/c/cert-manager-v1.21.2-9edafdad1b7caa20/cert-manager-controller",
	}
	if !slices.Equal(got, want) {
		t.Errorf("cache paths:\n got %q\nwant %q", got, want)
	}
	// A warm cache: every one of them there, nothing to do.
	if steps := fakePlan(current, want...).Steps(cs); len(steps) != 0 {
		t.Errorf("warm cache, steps:\n%s", Script(steps))
	}
}

// The commands of a cold build, as build.sh ran them before (testdata/cold.sh; compared with
// the old script's commands when this program was written, the same go build and go install
// lines, folders, environment and flags).
func TestColdBuildPinned(t *testing.T) {
	cs, _ := Components(current, checkout)
	got := Script(fakePlan(current).Steps(cs))
	if os.Getenv("UPDATE_GOLDEN") != "" { // only after checking the new commands by hand
		os.WriteFile(filepath.Join("testdata", "cold.sh"), []byte(got), 0o644)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "cold.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("cold build steps differ from testdata/cold.sh:\n%s", got)
	}
}

// One binary of a folder missing builds the folder again; the local stack's static MinIO is
// copied, its dynamic Mailpit is not.
func TestPartlyBuilt(t *testing.T) {
	cs, _ := Components(current, checkout)
	var built []string
	p := fakePlan(current)
	for _, c := range cs {
		for _, o := range c.Outputs {
			if o != "kubelet" && c.Name != "minio" && c.Name != "mailpit" {
				built = append(built, p.Dir(c)+"/"+o)
			}
		}
	}
	built = append(built, "/h/.cache/santa/bin/minio", "/h/.cache/santa/bin/mailpit")
	got := Script(fakePlan(current, built...).Steps(cs))
	for _, want := range []string{
		"log 'building Kubernetes v1.33.13 from the Go module proxy (about 40 min on two cores, once)'\n",
		"mkdir -p /c/minio-v0.0.0-20260212201848-7aac2a2c5b7c\ncp /h/.cache/santa/bin/minio /c/minio-v0.0.0-20260212201848-7aac2a2c5b7c/minio\n",
		"log 'building mailpit v1.27.11 from the Go module proxy (once)'\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "skaffold") || strings.Contains(got, "building minio") {
		t.Errorf("built again:\n%s", got)
	}
}

func TestMissingPin(t *testing.T) {
	v := Versions{}
	for k, s := range current {
		v[k] = s
	}
	delete(v, "KEDA_VERSION")
	if _, err := Components(v, checkout); err == nil || !strings.Contains(err.Error(), "KEDA_VERSION") {
		t.Errorf("without KEDA_VERSION: %v", err)
	}
	v["KEDA_VERSION"] = current["KEDA_VERSION"]
	delete(v, "CERT_MANAGER_VERSION")
	if _, err := Components(v, checkout); err == nil || !strings.Contains(err.Error(), "CERT_MANAGER_VERSION") {
		t.Errorf("without CERT_MANAGER_VERSION: %v", err)
	}
}

// The controller is built where it is, from the checkout, GOWORK=off; an edit of any file of
// its folder is a new version (a new cache folder, so it is built again), and images.sh's
// image key is that version.
func TestCertManagerFromTheCheckout(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "deploy", "cluster", "cert-manager")
	write(t, filepath.Join(dir, "go.mod"), "module santa.local/cert-manager-controller\n")
	write(t, filepath.Join(dir, "main.go"), "package main\n")
	steps := func() (string, string) {
		cs, err := Components(current, Root(root))
		if err != nil {
			t.Fatal(err)
		}
		c := cs[len(cs)-1]
		if c.Name != "cert-manager" || c.Kind != Local {
			t.Fatalf("last component %+v", c)
		}
		return c.Version, Script(fakePlan(current).Steps(cs[len(cs)-1:]))
	}
	before, script := steps()
	want := "(cd " + dir + " && CGO_ENABLED=0 GOWORK=off GOFLAGS=-mod=mod go build -trimpath -ldflags '-s -w' -o /c/cert-manager-" +
		before + ".tmp/cert-manager-controller .)\n"
	if !strings.Contains(script, want) || !strings.HasPrefix(script, "log 'building the cert-manager controller "+before+" from "+dir) {
		t.Errorf("steps:\n%s\nwant the line %s", script, want)
	}
	if k, err := fakePlan(current).ImageKey(Root(root), "cert-manager"); err != nil || k != before {
		t.Errorf("image key %q %v, want the version %s", k, err, before)
	}
	write(t, filepath.Join(dir, "main.go"), "package main // changed\n")
	if after, _ := steps(); after == before || !strings.HasPrefix(after, "v1.21.2-") {
		t.Errorf("after an edit of main.go: version %s, before %s", after, before)
	}
}

// CERT_MANAGER_VERSION is the version of cert-manager's packages the controller's go.mod
// requires: the image is named after the one, the binary is built from the other.
func TestCertManagerPinIsTheModules(t *testing.T) {
	v, err := LoadVersions("../versions.env", "../../local/pins.env")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile("../cert-manager/go.mod")
	if err != nil {
		t.Fatal(err)
	}
	// The require line, alone or in a require block (not a // indirect one of another module).
	m := regexp.MustCompile(`(?m)^\s*(?:require\s+)?` + regexp.QuoteMeta(certManagerMod) + `\s+(v\S+)`).FindSubmatch(mod)
	var required string
	if m != nil {
		required = string(m[1])
	}
	if required == "" || required != v["CERT_MANAGER_VERSION"] {
		t.Errorf("deploy/cluster/cert-manager/go.mod requires %s %q, versions.env says CERT_MANAGER_VERSION=%q", certManagerMod, required, v["CERT_MANAGER_VERSION"])
	}
}

// The repository's pin files load, with every pin the plan needs.
func TestTheRepositorysPins(t *testing.T) {
	v, err := LoadVersions("../versions.env", "../../local/pins.env")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Components(v, Root("../../..")); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Get("K8S_STAGING_VERSION"); err != nil {
		t.Fatal(err)
	}
}

func TestLoadVersions(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.env"), filepath.Join(dir, "b.env")
	os.WriteFile(a, []byte("# pins\nX=v1\n\n  Y=v2 \n"), 0o644)
	os.WriteFile(b, []byte("X=v3\n"), 0o644)
	v, err := LoadVersions(a, b)
	if err != nil || v["X"] != "v3" || v["Y"] != "v2" {
		t.Errorf("LoadVersions = %v, %v", v, err)
	}
	os.WriteFile(b, []byte(`X="v3"`+"\n"), 0o644)
	if _, err := LoadVersions(a, b); err == nil {
		t.Error("a quoted value was taken")
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{"a/b-1.2@v": "a/b-1.2@v", "-s -w": "'-s -w'", "it's": `'it'\''s'`, "": "''"} {
		if got := quote(in); got != want {
			t.Errorf("quote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestStatic(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s")
	os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755)
	if !static(script) {
		t.Error("not ELF: ldd says not dynamic")
	}
	for _, dyn := range []string{"/bin/ls", "/usr/bin/env"} {
		if _, err := os.Stat(dyn); err == nil && static(dyn) {
			t.Errorf("%s taken for static", dyn)
		}
	}
}
