package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"syscall"
)

// How a component is built from the Go module proxy.
type Kind int

const (
	// GoInstall: `go install module@version`, from /tmp (no module of ours around it).
	GoInstall Kind = iota
	// Throwaway: a module of our own that requires the component's (go.mod and tools.go written
	// by `buildplan prepare`), for modules `go install` refuses because of their replace lines.
	Throwaway
	// ModuleCopy: a writable copy of the component's module (`buildplan prepare`), built inside
	// it, where its own replace lines count.
	ModuleCopy
	// Local: a module of this repository with its own go.mod (not in go.work), built where it
	// is; its dependencies still come from the Go module proxy.
	Local
)

// A Component is a set of binaries built at one pinned version into its own cache folder,
// CACHE/<Name>-<Version>/, which is reused as long as every one of Outputs is there.
type Component struct {
	Name    string
	Version string
	Module  string
	Kind    Kind
	Source  string   // Local: the module's folder in the checkout
	Outputs []string // the binaries of the folder
	Pkgs    []string // what go build builds (Throwaway, ModuleCopy): packages or ./cmd/ folders
	LDFlags string   // go build's -ldflags
	Stack   bool     // GoInstall: a static copy the local stack built (~/.cache/santa/bin) is taken
	About   string   // how long a cold build takes, for the log
}

// kubeCmds are Kubernetes' binaries, all built by one go build (the packages they share
// compile once).
var kubeCmds = []string{"kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubelet", "kube-proxy", "kubectl"}

// Components are the cluster's binaries, in the order they are built: Kubernetes' own,
// skaffold (make skaffold-test), Traefik (ingress.yaml), KEDA (keda.yaml), crane (its `registry
// serve` is the cluster's registry), CoreDNS, metrics-server, kube-router (its network policy
// controller), local-path-provisioner (the storage class), the static NATS, MinIO and Mailpit
// the images are made of (images.sh deps), and our cert-manager controller (cert-manager.yaml),
// a module of the checkout at root. The folder names are the cache's keys: a warm cache stays
// warm only while they are spelled exactly so (plan_test.go pins them).
func Components(v Versions, root Root) ([]Component, error) {
	var err error
	get := func(key string) string {
		s, e := v.Get(key)
		if err == nil {
			err = e
		}
		return s
	}
	k8s := get("K8S_VERSION")
	kubePkgs := make([]string, len(kubeCmds))
	for i, c := range kubeCmds {
		kubePkgs[i] = "k8s.io/kubernetes/cmd/" + c
	}
	skaffold, traefik, keda := get("SKAFFOLD_VERSION"), get("TRAEFIK_VERSION"), get("KEDA_VERSION")
	const skaffoldMod, traefikMod, kedaMod = "github.com/GoogleContainerTools/skaffold/v2", "github.com/traefik/traefik/v3", "github.com/kedacore/keda/v2"
	cs := []Component{
		{Name: "kubernetes", Version: k8s, Module: "k8s.io/kubernetes", Kind: Throwaway, Outputs: kubeCmds,
			Pkgs: kubePkgs, LDFlags: "-s -w " + kubeVersionFlags(k8s), About: "about 40 min on two cores, once"},
		{Name: "skaffold", Version: skaffold, Module: skaffoldMod, Kind: Throwaway, Outputs: []string{"skaffold"},
			Pkgs: []string{skaffoldMod + "/cmd/skaffold"}, LDFlags: "-s -w -X " + skaffoldMod + "/pkg/skaffold/version.version=" + skaffold, About: "once"},
		// Its web UI stays the module's placeholder (the dashboard needs a yarn build); routing
		// does not use it.
		{Name: "traefik", Version: traefik, Module: traefikMod, Kind: ModuleCopy, Outputs: []string{"traefik"},
			Pkgs: []string{"./cmd/traefik"}, LDFlags: "-s -w -X " + traefikMod + "/pkg/version.Version=" + traefik, About: "about 20 min on two cores, once"},
		// The operator and the metrics adapter (the external metrics API its HPAs read). The
		// admission webhooks are left out: they only validate ScaledObjects.
		{Name: "keda", Version: keda, Module: kedaMod, Kind: ModuleCopy, Outputs: []string{"keda", "keda-adapter"},
			Pkgs: []string{"./cmd/operator", "./cmd/adapter"}, LDFlags: "-s -w -X " + kedaMod + "/version.Version=" + keda, About: "about 20 min on two cores, once"},
	}
	for _, g := range []struct {
		name, module, key string
		stack             bool
	}{
		{"crane", "github.com/google/go-containerregistry/cmd/crane", "CRANE_VERSION", false},
		{"coredns", "github.com/coredns/coredns", "COREDNS_VERSION", false},
		{"metrics-server", "sigs.k8s.io/metrics-server/cmd/metrics-server", "METRICS_SERVER_VERSION", false},
		{"kube-router", "github.com/cloudnativelabs/kube-router/v2/cmd/kube-router", "KUBE_ROUTER_VERSION", false},
		{"local-path-provisioner", "github.com/rancher/local-path-provisioner", "LOCAL_PATH_PROVISIONER_VERSION", false},
		// The in-cluster NATS, at the local stack's version (this machine's own may differ).
		{"nats-server", "github.com/nats-io/nats-server/v2", "NATS_PIN", false},
		// Static builds for the images: the local stack's copies link libc unless static.
		{"minio", "github.com/minio/minio", "MINIO_PIN", true},
		{"mailpit", "github.com/axllent/mailpit", "MAILPIT_PIN", true},
	} {
		cs = append(cs, Component{Name: g.name, Version: get(g.key), Module: g.module, Kind: GoInstall,
			Outputs: []string{g.name}, LDFlags: "-s -w", Stack: g.stack, About: "once"})
	}
	// Last: its first build takes ~15 min, and a build of it breaking must not keep the ones
	// above from being cached.
	cm, e := CertManagerVersion(v, root)
	if err == nil {
		err = e
	}
	cs = append(cs, Component{Name: "cert-manager", Version: cm, Module: certManagerMod, Kind: Local,
		Source: string(root) + "/" + certManagerDir, Outputs: []string{"cert-manager-controller"}, LDFlags: "-s -w",
		About: "about 15 min on two cores, again after each change of deploy/cluster/cert-manager"})
	return cs, err
}

// The controller of deploy/cluster/cert-manager: cert-manager's packages at CERT_MANAGER_VERSION
// (its go.mod requires that version; plan_test.go checks they agree).
const certManagerMod, certManagerDir = "github.com/cert-manager/cert-manager", "deploy/cluster/cert-manager"

// CertManagerVersion is the controller's version and cache key: CERT_MANAGER_VERSION and a key of
// its folder's files, so that an edit of main.go (or go.mod) builds it again into a new folder.
func CertManagerVersion(v Versions, root Root) (string, error) {
	pin, err := v.Get("CERT_MANAGER_VERSION")
	if err != nil {
		return "", err
	}
	k, err := filesKey(string(root) + "/" + certManagerDir)
	return pin + "-" + k, err
}

// kubeVersionFlags stamps the version Kubernetes' binaries report (kubectl version, the API
// server's /version), as its own build does from git: major and minor from v<major>.<minor>.
// The leading space is the shell's (ld="$ld -X ..."), kept so that the go build command is
// the very one build.sh ran before.
func kubeVersionFlags(version string) string {
	major, rest, _ := strings.Cut(strings.TrimPrefix(version, "v"), ".")
	minor, _, _ := strings.Cut(rest, ".")
	var b strings.Builder
	for _, p := range []string{"k8s.io/component-base/version", "k8s.io/client-go/pkg/version"} {
		fmt.Fprintf(&b, " -X %s.gitVersion=%s -X %s.gitMajor=%s -X %s.gitMinor=%s -X %s.gitTreeState=clean", p, version, p, major, p, minor, p)
	}
	return b.String()
}

// Plan is what build.sh does in one cache.
type Plan struct {
	Cache    string   // K8S_CACHE, ~/.cache/santa/k8s by default
	StackBin string   // the local stack's tools, ~/.cache/santa/bin
	Self     []string // this program and its -root, as the steps call it (buildplan prepare)
	Versions Versions
	// executable is [ -x path ], static is "ldd says it is not a dynamic executable"; tests
	// replace them.
	executable func(path string) bool
	static     func(path string) bool
}

func NewPlan(cache, stackBin string, self []string, v Versions) *Plan {
	return &Plan{Cache: cache, StackBin: stackBin, Self: self, Versions: v, executable: executable, static: static}
}

// Dir is a component's cache folder. Cache paths are joined as the shell joined them (not
// cleaned), so that they stay the same strings.
func (p *Plan) Dir(c Component) string { return p.Cache + "/" + c.Name + "-" + c.Version }

// Src is where a Throwaway or ModuleCopy component's module is written.
func (p *Plan) Src(c Component) string {
	return p.Cache + "/src/" + c.Name + "-" + c.Version
}

// Built is the cache hit: every binary of the folder is there and executable.
func (p *Plan) Built(c Component) bool {
	for _, o := range c.Outputs {
		if !p.executable(p.Dir(c) + "/" + o) {
			return false
		}
	}
	return true
}

// executable is the shell's [ -x path ]: access(2) with X_OK, as bash's test does it.
func executable(path string) bool { return syscall.Access(path, 1) == nil }

// A Step is one command of the build: Argv run in Dir (the current one when empty) with Env
// added; Argv[0] "log" is build.sh's log function.
type Step struct {
	Dir  string
	Env  []string
	Argv []string
}

func step(argv ...string) Step { return Step{Argv: argv} }

// Steps are the commands that build what is missing, in order; none when the cache is warm.
func (p *Plan) Steps(cs []Component) []Step {
	var out []Step
	for _, c := range cs {
		if !p.Built(c) {
			out = append(out, p.build(c)...)
		}
	}
	return out
}

var titles = map[string]string{"kubernetes": "Kubernetes", "traefik": "Traefik", "keda": "KEDA", "cert-manager": "the cert-manager controller"}

func (p *Plan) build(c Component) []Step {
	dir, tmp, src := p.Dir(c), p.Dir(c)+".tmp", p.Src(c)
	title := c.Name
	if t, ok := titles[c.Name]; ok {
		title = t
	}
	from := "the Go module proxy"
	if c.Kind == Local {
		from = c.Source
	}
	logStep := step("log", fmt.Sprintf("building %s %s from %s (%s)", title, c.Version, from, c.About))
	// The binaries land in a .tmp folder moved into place when all are built, so that an
	// interrupted build is never taken for a cache hit.
	done := []Step{step("rm", "-rf", dir), step("mv", tmp, dir)}
	var s []Step
	switch c.Kind {
	case GoInstall:
		if stack := p.StackBin + "/" + c.Name; c.Stack && p.executable(stack) && p.static(stack) {
			return []Step{step("mkdir", "-p", dir), step("cp", stack, dir+"/"+c.Name)}
		}
		s = []Step{logStep, step("mkdir", "-p", tmp),
			{Dir: "/tmp", Env: []string{"CGO_ENABLED=0", "GOBIN=" + tmp, "GOFLAGS=-buildvcs=false"},
				Argv: []string{"go", "install", "-trimpath", "-ldflags", c.LDFlags, c.Module + "@" + c.Version}}}
	case Throwaway:
		build := Step{Dir: src, Env: []string{"CGO_ENABLED=0", "GOFLAGS=-mod=mod"},
			Argv: []string{"go", "build", "-trimpath", "-ldflags", c.LDFlags, "-o"}}
		if len(c.Outputs) == 1 {
			build.Argv = append(build.Argv, tmp+"/"+c.Outputs[0])
		} else {
			build.Argv = append(build.Argv, tmp+"/")
		}
		build.Argv = append(build.Argv, c.Pkgs...)
		s = []Step{logStep, step("mkdir", "-p", src, tmp), step(slices.Concat(p.Self, []string{"prepare", c.Name})...),
			{Dir: src, Env: []string{"GOFLAGS=-mod=mod"}, Argv: []string{"go", "mod", "tidy"}}, build}
	case ModuleCopy:
		s = []Step{logStep, step(slices.Concat(p.Self, []string{"prepare", c.Name})...), step("mkdir", "-p", tmp)}
		for i, pkg := range c.Pkgs {
			s = append(s, Step{Dir: src, Env: []string{"CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=-mod=mod"},
				Argv: []string{"go", "build", "-trimpath", "-ldflags", c.LDFlags, "-o", tmp + "/" + c.Outputs[i], pkg}})
		}
	case Local:
		// GOWORK=off: the module is not in the workspace and keeps its own go.sum; -mod=mod, as
		// for the modules above, lets go fill in a go.sum line the checkout lacks.
		s = []Step{logStep, step("mkdir", "-p", tmp),
			{Dir: c.Source, Env: []string{"CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=-mod=mod"},
				Argv: []string{"go", "build", "-trimpath", "-ldflags", c.LDFlags, "-o", tmp + "/" + c.Outputs[0], "."}}}
	}
	return append(s, done...)
}

// Script is the steps as shell, one command a line, for build.sh to run.
func Script(steps []Step) string {
	var b strings.Builder
	for _, s := range steps {
		words := make([]string, 0, len(s.Env)+len(s.Argv))
		for _, e := range s.Env {
			k, v, _ := strings.Cut(e, "=")
			words = append(words, k+"="+quote(v))
		}
		for _, a := range s.Argv {
			words = append(words, quote(a))
		}
		line := strings.Join(words, " ")
		if s.Dir != "" {
			line = "(cd " + quote(s.Dir) + " && " + line + ")"
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

var plain = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// quote is s as one shell word.
func quote(s string) string {
	if plain.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
