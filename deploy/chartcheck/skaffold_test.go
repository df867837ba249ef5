package chartcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"text/template"

	appsv1 "k8s.io/api/apps/v1"
)

var skaffoldProfiles = []string{"", "dev", "prod"}

func loadSkaffold(t *testing.T, profile string) *SkaffoldConfig {
	t.Helper()
	cfg, err := LoadSkaffold([]byte(readFile(t, repoRoot(t), "skaffold.yaml")), profile)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestSkaffoldConfig(t *testing.T) {
	root := repoRoot(t)
	base := loadSkaffold(t, "")
	m := regexp.MustCompile(`^skaffold/v4beta(\d+)$`).FindStringSubmatch(base.APIVersion)
	if m == nil {
		t.Fatalf("apiVersion %q, want skaffold/v4beta11 or newer", base.APIVersion)
	}
	if n, _ := strconv.Atoi(m[1]); n < 11 {
		t.Fatalf("apiVersion %q is older than skaffold/v4beta11", base.APIVersion)
	}
	if base.Kind != "Config" {
		t.Errorf("kind %q", base.Kind)
	}
	names := map[string]bool{}
	for _, p := range base.Profiles {
		names[p.Name] = true
	}
	for _, want := range []string{"dev", "prod"} {
		if !names[want] {
			t.Errorf("no %s profile", want)
		}
	}
	for _, profile := range skaffoldProfiles {
		label := profile
		if label == "" {
			label = "(no profile)"
		}
		t.Run(label, func(t *testing.T) {
			cfg := loadSkaffold(t, profile)
			byImage := map[string]SkaffoldArtifact{}
			for _, a := range cfg.Build.Artifacts {
				if byImage[a.Image].Image != "" {
					t.Errorf("artifact %s listed twice", a.Image)
				}
				byImage[a.Image] = a
				if !regexp.MustCompile(`^[a-z0-9]+([/-][a-z0-9]+)*$`).MatchString(a.Image) {
					t.Errorf("artifact image %q: keep to lower case, / and - (Skaffold's template names depend on it)", a.Image)
				}
				dockerfile := "Dockerfile"
				if a.Docker != nil && a.Docker.Dockerfile != "" {
					dockerfile = a.Docker.Dockerfile
				}
				// Skaffold resolves the Dockerfile inside the context.
				if _, err := os.Stat(filepath.Join(root, a.Context, dockerfile)); err != nil {
					t.Errorf("artifact %s: %v", a.Image, err)
				}
			}
			for _, svc := range services(t) {
				a, ok := byImage["santa-wishlist/"+svc]
				if !ok {
					t.Errorf("services/%s has no skaffold artifact santa-wishlist/%s", svc, svc)
					continue
				}
				// One Dockerfile for every service: SERVICE picks it, the gateway has its own target.
				wantTarget := "service"
				if svc == "gateway" {
					wantTarget = "gateway"
				}
				if a.Context != "." || a.Docker == nil || a.Docker.Dockerfile != "Dockerfile" || a.Docker.Target != wantTarget || a.Docker.BuildArgs["SERVICE"] != svc {
					t.Errorf("artifact %s should build the root Dockerfile (context ., target %s, SERVICE=%s), got context %q %+v", a.Image, wantTarget, svc, a.Context, a.Docker)
				}
			}
			if cfg.Deploy.Helm == nil || len(cfg.Deploy.Helm.Releases) != 1 {
				t.Fatal("want one Helm release")
			}
			rel := cfg.Deploy.Helm.Releases[0]
			if rel.ChartPath != "charts/santa-wishlist" {
				t.Errorf("chartPath %q", rel.ChartPath)
			}
			for _, f := range rel.ValuesFiles {
				if _, err := os.Stat(filepath.Join(root, f)); err != nil {
					t.Errorf("values file: %v", err)
				}
			}
			// Every artifact's image reaches the chart through setValueTemplates, and no
			// template names an artifact that is not built.
			vars := regexp.MustCompile(`\{\{\s*\.(IMAGE_(?:REPO|TAG|DIGEST)_[A-Za-z0-9_]+)\s*\}\}`)
			used := map[string]bool{}
			for key, tpl := range rel.SetValueTemplates {
				found := vars.FindAllStringSubmatch(tpl, -1)
				if len(found) == 0 {
					t.Errorf("setValueTemplates %s = %q uses no image variable", key, tpl)
				}
				for _, f := range found {
					used[f[1]] = true
				}
			}
			for _, a := range cfg.Build.Artifacts {
				s := SanitizeImageName(a.Image)
				for _, v := range []string{"IMAGE_REPO_", "IMAGE_TAG_", "IMAGE_DIGEST_"} {
					if !used[v+s] {
						t.Errorf("artifact %s: no setValueTemplates entry uses %s%s", a.Image, v, s)
					}
					delete(used, v+s)
				}
			}
			for v := range used {
				t.Errorf("setValueTemplates uses %s, but no artifact of this profile defines it", v)
			}
			checkSkaffoldRender(t, root, cfg, "sha256:"+strings.Repeat("0f", 32))
			checkSkaffoldRender(t, root, cfg, "") // local builds loaded into kind have no digest
		})
	}
	dev := loadSkaffold(t, "dev")
	if !slices.Contains(dev.Deploy.Helm.Releases[0].ValuesFiles, "deploy/values/dev.yaml") {
		t.Error("dev profile does not use deploy/values/dev.yaml")
	}
	forwards := map[string]int{}
	for _, pf := range dev.PortForward {
		forwards[pf.ResourceName] = pf.LocalPort
	}
	if forwards["gateway"] != 8080 || forwards["firebase-auth-emulator"] != 9099 {
		t.Errorf("dev profile should forward the gateway to :8080 and the Auth emulator to :9099, got %v", forwards)
	}
	activated := false
	for _, p := range base.Profiles {
		for _, a := range p.Activation {
			activated = activated || (p.Name == "dev" && a.Command == "dev")
		}
	}
	if !activated {
		t.Error("`skaffold dev` should turn the dev profile on by itself")
	}
	if !slices.Contains(loadSkaffold(t, "prod").Deploy.Helm.Releases[0].ValuesFiles, "deploy/values/prod.yaml") {
		t.Error("prod profile does not use deploy/values/prod.yaml")
	}
}

// checkSkaffoldRender does what Skaffold's Helm deployer does with fake build results — expand
// setValueTemplates, pass them as --set after the values files — and checks that every project
// image in the rendered workloads is one Skaffold just built.
func checkSkaffoldRender(t *testing.T, root string, cfg *SkaffoldConfig, digest string) {
	t.Helper()
	rel := cfg.Deploy.Helm.Releases[0]
	env := map[string]string{}
	want := map[string]string{}
	for _, a := range cfg.Build.Artifacts {
		s := SanitizeImageName(a.Image)
		repo, tag := "localhost:5000/"+a.Image, "t"+strings.ReplaceAll(s, "_", "")
		env["IMAGE_REPO_"+s], env["IMAGE_TAG_"+s], env["IMAGE_DIGEST_"+s] = repo, tag, digest
		want[a.Image] = repo + ":" + tag
		if digest != "" {
			want[a.Image] += "@" + digest
		}
	}
	var args []string
	for _, k := range slices.Sorted(maps.Keys(rel.SetValues)) {
		args = append(args, "--set", k+"="+rel.SetValues[k])
	}
	for _, k := range slices.Sorted(maps.Keys(rel.SetValueTemplates)) {
		tpl, err := template.New(k).Option("missingkey=error").Parse(rel.SetValueTemplates[k])
		if err != nil {
			t.Fatalf("setValueTemplates %s: %v", k, err)
		}
		var b bytes.Buffer
		if err := tpl.Execute(&b, env); err != nil {
			t.Fatalf("setValueTemplates %s: %v", k, err)
		}
		args = append(args, "--set", k+"="+strings.TrimSuffix(b.String(), "@"))
	}
	out, err := Template(root, rel.ValuesFiles, args...)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	rendered := map[string]string{}
	for name, tpl := range m.PodSpecs() {
		for _, c := range tpl.Spec.Containers {
			rendered[name] = c.Image
		}
	}
	built := map[string]bool{}
	for _, ref := range want {
		built[ref] = true
	}
	for name, img := range rendered {
		if strings.Contains(img, "santa-wishlist/") && !built[img] {
			t.Errorf("digest %q: %s runs %s, which this profile does not build", digest, name, img)
		}
	}
	for _, svc := range services(t) {
		d, _ := m.Get("Deployment", svc).(*appsv1.Deployment)
		if d == nil {
			t.Errorf("no Deployment %s", svc)
			continue
		}
		if got := d.Spec.Template.Spec.Containers[0].Image; got != want["santa-wishlist/"+svc] {
			t.Errorf("digest %q: %s runs %q, want the built %q", digest, svc, got, want["santa-wishlist/"+svc])
		}
	}
	var unused []string
	for image, ref := range want {
		found := false
		for _, img := range rendered {
			found = found || img == ref
		}
		if !found {
			unused = append(unused, image)
		}
	}
	sort.Strings(unused)
	if len(unused) > 0 {
		t.Errorf("built but not deployed: %s", fmt.Sprint(unused))
	}
}

func TestSkaffoldPatches(t *testing.T) {
	doc := []byte(`{"a":["x","y"],"m":{"k":"v"}}`)
	out, err := applyPatches(doc, []SkaffoldPatch{
		{Op: "add", Path: "/a/-", Value: []byte(`"z"`)},
		{Op: "remove", Path: "/a/0"},
		{Op: "replace", Path: "/m/k", Value: []byte(`"w"`)},
		{Op: "add", Path: "/m/a.b", Value: []byte(`1`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "map[a:[y z] m:map[a.b:1 k:w]]" {
		t.Fatalf("patched to %s", out)
	}
	if _, err := applyPatches(out, []SkaffoldPatch{{Op: "remove", Path: "/a/5"}}); err == nil {
		t.Error("removing a missing index succeeded")
	}
	// Skaffold's schema, not a home-made struct, rejects what Skaffold would.
	for name, bad := range map[string]string{
		"misspelt key":   "apiVersion: skaffold/v4beta13\nkind: Config\nbuild: {artifacts: [{image: x, contxt: .}]}\ndeploy: {}\n",
		"wrong type":     "apiVersion: skaffold/v4beta13\nkind: Config\nbuild: {local: {concurrency: two}, artifacts: [{image: x}]}\n",
		"no image":       "apiVersion: skaffold/v4beta13\nkind: Config\nbuild: {artifacts: [{context: .}]}\n",
		"misplaced key":  "apiVersion: skaffold/v4beta13\nkind: Config\ndeploy: {helm: {releases: [{name: s, chartPath: c, target: x}]}}\n",
		"other version":  "apiVersion: skaffold/v4beta11\nkind: Config\n",
		"duplicate keys": "apiVersion: skaffold/v4beta13\nkind: Config\nkind: Config\n",
	} {
		if _, err := LoadSkaffold([]byte(bad), ""); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := LoadSkaffold([]byte("apiVersion: skaffold/v4beta13\nkind: Config\nbuild: {artifacts: [{image: x, docker: {dockerfile: D, target: t, buildArgs: {A: b}}}]}\n"), ""); err != nil {
		t.Errorf("a valid config was refused: %v", err)
	}
	// A profile whose patches leave an invalid document fails too.
	bad := "apiVersion: skaffold/v4beta13\nkind: Config\nbuild: {artifacts: [{image: x}]}\nprofiles: [{name: p, patches: [{op: add, path: /build/artifacts/0/contxt, value: .}]}]\n"
	if _, err := LoadSkaffold([]byte(bad), "p"); err == nil {
		t.Error("a profile patch adding an unknown key was accepted")
	}
}
