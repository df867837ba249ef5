package chartcheck

import (
	"bytes"
	"debug/elf"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"
)

const finalImage = "gcr.io/distroless/static-debian12:nonroot"

// workspaceModules reads the `use` directories of go.work.
func workspaceModules(t *testing.T, root string) (goVersion string, dirs []string) {
	t.Helper()
	src := readFile(t, root, "go.work")
	inUse := false
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "go "):
			goVersion = strings.TrimPrefix(line, "go ")
		case line == "use (":
			inUse = true
		case inUse && line == ")":
			inUse = false
		case inUse && line != "":
			dirs = append(dirs, path.Clean(strings.TrimPrefix(line, "./")))
		case strings.HasPrefix(line, "use "):
			dirs = append(dirs, path.Clean(strings.TrimPrefix(strings.TrimPrefix(line, "use "), "./")))
		}
	}
	if goVersion == "" || len(dirs) == 0 {
		t.Fatalf("go.work: no go version or use directives")
	}
	return goVersion, dirs
}

type parsedDockerfile struct {
	stages            []Stage
	build             *GoBuild
	buildStage, final Stage
}

func loadDockerfile(t *testing.T, root, svc string) *parsedDockerfile {
	t.Helper()
	rel := filepath.Join("services", svc, "Dockerfile")
	src, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	stages, err := ParseDockerfile(string(src))
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	p := &parsedDockerfile{stages: stages, final: stages[len(stages)-1]}
	for _, st := range stages {
		if gb, err := FindGoBuild(st); err == nil {
			if p.build != nil {
				t.Fatalf("%s: go build in more than one stage", rel)
			}
			p.build, p.buildStage = gb, st
		}
	}
	if p.build == nil {
		t.Fatalf("%s: no stage runs go build", rel)
	}
	return p
}

// Each service's Dockerfile follows the house pattern: multi-stage, go.work-aware cached module
// layer, static build, distroless nonroot final image, no HEALTHCHECK (Kubernetes probes).
func TestDockerfiles(t *testing.T) {
	root := repoRoot(t)
	goVersion, _ := workspaceModules(t, root)
	goMinor := regexp.MustCompile(`^\d+\.\d+`).FindString(goVersion)
	for _, svc := range services(t) {
		t.Run(svc, func(t *testing.T) {
			d := loadDockerfile(t, root, svc)
			if len(d.stages) < 2 {
				t.Fatalf("want a multi-stage build, got %d stage(s)", len(d.stages))
			}
			if d.final.Image != finalImage {
				t.Errorf("final image %q, want %q", d.final.Image, finalImage)
			}
			if m := regexp.MustCompile(`^golang:(\d+\.\d+)`).FindStringSubmatch(d.buildStage.Image); m == nil || m[1] != goMinor {
				t.Errorf("build image %q should be golang:%s (go.work says go %s)", d.buildStage.Image, goMinor, goVersion)
			}
			for _, st := range d.stages {
				for _, in := range st.Instructions {
					if in.Cmd == "HEALTHCHECK" {
						t.Errorf("line %d: HEALTHCHECK; Kubernetes probes do that job", in.Line)
					}
				}
			}

			// The module layer: a stage keeps only go.work, go.work.sum and the go.mod/go.sum
			// files of the context (so every module go.work lists, wherever it lives); the build
			// stage copies that, runs `go mod download`, and only then copies the sources.
			modStage := ""
			for _, st := range d.stages {
				var copiesAll, keepsModFiles bool
				for _, in := range st.Instructions {
					copiesAll = copiesAll || (in.Cmd == "COPY" && strings.Join(strings.Fields(in.Args), " ") == ". .")
					keepsModFiles = keepsModFiles || (in.Cmd == "RUN" && strings.Contains(in.Args, "-delete") &&
						strings.Contains(in.Args, "! -name go.mod") && strings.Contains(in.Args, "! -name go.sum") &&
						strings.Contains(in.Args, "! -name go.work ") && strings.Contains(in.Args, "! -name go.work.sum"))
				}
				if copiesAll && keepsModFiles {
					modStage = st.Name
				}
			}
			if modStage == "" {
				t.Fatal("no stage that keeps only go.work and the go.mod/go.sum files for the module download layer")
			}
			fromMods, download, firstSource := -1, -1, -1
			for i, in := range d.buildStage.Instructions {
				switch {
				case in.Cmd == "COPY" && strings.HasPrefix(in.Args, "--from="+modStage+" "):
					fromMods = i
				case in.Cmd == "COPY" && firstSource < 0 && !strings.HasPrefix(in.Args, "--from="):
					firstSource = i
				case in.Cmd == "RUN" && strings.TrimSpace(in.Args) == "go mod download":
					download = i
				}
			}
			if fromMods < 0 || download < fromMods || firstSource < download {
				t.Errorf("build stage must copy the module files, run `go mod download`, then copy sources (at %d, %d, %d)", fromMods, download, firstSource)
			}
			// (That every module go.work lists reaches the context is TestDockerignore's job.)

			// The build command itself.
			b := d.build
			if v, _ := EnvValue(b.Env, "CGO_ENABLED"); v != "0" {
				t.Errorf("go build without CGO_ENABLED=0 (env %v)", b.Env)
			}
			if !contains(b.Flags, "-trimpath") {
				t.Errorf("go build without -trimpath: %v", b.Flags)
			}
			ld := ldflags(b.Flags)
			if !regexp.MustCompile(`(^|\s)-s(\s|$)`).MatchString(ld) || !regexp.MustCompile(`(^|\s)-w(\s|$)`).MatchString(ld) {
				t.Errorf("go build -ldflags %q should hold -s -w", ld)
			}
			if want := "./services/" + svc + "/cmd/" + svc; b.Package != want {
				t.Errorf("builds %q, want %q", b.Package, want)
			}
			if b.Output == "" {
				t.Fatal("go build without -o")
			}

			// The final stage runs that binary as nonroot.
			var entry, user string
			copiedBinary := ""
			exposes8080 := false
			for _, in := range d.final.Instructions {
				switch in.Cmd {
				case "COPY":
					w := strings.Fields(in.Args)
					if len(w) == 3 && w[0] == "--from="+d.buildStage.Name && w[1] == b.Output {
						copiedBinary = w[2]
					}
				case "ENTRYPOINT":
					entry = in.Args
				case "USER":
					user = in.Args
				case "EXPOSE":
					exposes8080 = exposes8080 || strings.Contains(in.Args, "8080")
				}
			}
			if copiedBinary == "" {
				t.Errorf("final stage does not copy %s from the %s stage", b.Output, d.buildStage.Name)
			} else if entry != fmt.Sprintf(`["%s"]`, copiedBinary) {
				t.Errorf("ENTRYPOINT %s should exec %s directly (exec form, no shell in distroless)", entry, copiedBinary)
			}
			if user != "nonroot:nonroot" && user != "65532:65532" {
				t.Errorf("USER %q, want nonroot:nonroot", user)
			}
			if !exposes8080 {
				t.Error("no EXPOSE 8080")
			}

			if svc == "gateway" {
				checkWebStage(t, d)
			}
		})
	}
}

func ldflags(flags []string) string {
	for i, f := range flags {
		if v, ok := strings.CutPrefix(f, "-ldflags="); ok {
			return v
		}
		if f == "-ldflags" && i+1 < len(flags) {
			return flags[i+1]
		}
	}
	return ""
}

// The gateway image carries the web app, built in a node stage with npm ci && npm run build.
func checkWebStage(t *testing.T, d *parsedDockerfile) {
	var web *Stage
	for i := range d.stages {
		if strings.HasPrefix(d.stages[i].Image, "node:") {
			web = &d.stages[i]
		}
	}
	if web == nil {
		t.Fatal("gateway: no node stage building web/")
	}
	var ci, build bool
	for _, in := range web.Instructions {
		if in.Cmd == "RUN" {
			ci = ci || strings.Contains(in.Args, "npm ci")
			build = build || strings.Contains(in.Args, "npm run build")
		}
	}
	if !ci || !build {
		t.Errorf("gateway: web stage should run npm ci and npm run build (ci=%v build=%v)", ci, build)
	}
	var copiesDist, webDir bool
	for _, in := range d.final.Instructions {
		if in.Cmd == "COPY" && strings.HasPrefix(in.Args, "--from="+web.Name+" ") && strings.HasSuffix(in.Args, "/dist /app/web") {
			copiesDist = true
		}
		if in.Cmd == "ENV" && strings.Contains(in.Args, "WEB_DIR=/app/web") {
			webDir = true
		}
	}
	if !copiesDist || !webDir {
		t.Errorf("gateway: final image should hold web/dist at /app/web with WEB_DIR=/app/web (copy=%v env=%v)", copiesDist, webDir)
	}
}

// Each Dockerfile's go build, run here with the same flags, yields a statically linked
// binary: no program interpreter, no dynamic section, stripped, no build paths.
func TestServiceBinariesAreStatic(t *testing.T) {
	root := repoRoot(t)
	out := t.TempDir()
	for _, svc := range services(t) {
		t.Run(svc, func(t *testing.T) {
			d := loadDockerfile(t, root, svc)
			pkgDir := filepath.Join(root, filepath.FromSlash(d.build.Package))
			if _, err := os.Stat(pkgDir); err != nil {
				t.Fatalf("%s does not exist yet: the service has no main package to build", d.build.Package)
			}
			bin := filepath.Join(out, svc)
			args := append([]string{"build"}, d.build.Flags...)
			args = append(args, "-o", bin, d.build.Package)
			cmd := exec.Command("go", args...)
			cmd.Dir = root
			// The workspace build, as in the image (this module itself runs outside go.work).
			cmd.Env = append(append(os.Environ(), d.build.Env...), "GOWORK="+filepath.Join(root, "go.work"), "GOOS=linux", "GOARCH="+runtime.GOARCH, "GOFLAGS=-buildvcs=false")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			start := time.Now()
			if err := cmd.Run(); err != nil {
				t.Fatalf("go %s (env %v): %v\n%s", strings.Join(args, " "), d.build.Env, err, stderr.String())
			}
			t.Logf("built %s in %s", d.build.Package, time.Since(start).Round(time.Millisecond))
			checkStatic(t, bin, root)
		})
	}
}

func checkStatic(t *testing.T, bin, root string) {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("%s has a %s program header: dynamically linked", filepath.Base(bin), p.Type)
		}
	}
	for _, name := range []string{".interp", ".dynamic", ".dynsym"} {
		if f.Section(name) != nil {
			t.Errorf("%s has a %s section: dynamically linked", filepath.Base(bin), name)
		}
	}
	if f.Section(".symtab") != nil {
		t.Errorf("%s keeps its symbol table: -ldflags=-s had no effect", filepath.Base(bin))
	}
	for _, s := range f.Sections {
		if strings.HasPrefix(s.Name, ".debug_") || strings.HasPrefix(s.Name, ".zdebug_") {
			t.Errorf("%s keeps DWARF section %s: -ldflags=-w had no effect", filepath.Base(bin), s.Name)
			break
		}
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(root+"/")) {
		t.Errorf("%s contains the build directory %s: -trimpath had no effect", filepath.Base(bin), root)
	}
}

// .dockerignore keeps the build context small without dropping anything a Dockerfile copies.
func TestDockerignore(t *testing.T) {
	root := repoRoot(t)
	f, err := os.Open(filepath.Join(root, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	patterns, err := ignorefile.ReadAll(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	pm, err := patternmatcher.New(patterns)
	if err != nil {
		t.Fatal(err)
	}
	excluded := func(rel string) bool {
		ex, err := pm.MatchesOrParentMatches(rel)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		return ex
	}

	// Needed: go.work, every module's go.mod/go.sum, the Go sources (and what they embed), web/.
	_, modules := workspaceModules(t, root)
	need := []string{"go.work", "web/package.json", "web/package-lock.json"}
	for _, m := range modules {
		need = append(need, m+"/go.mod")
		if _, err := os.Stat(filepath.Join(root, m, "go.sum")); err == nil {
			need = append(need, m+"/go.sum")
		}
	}
	if _, err := os.Stat(filepath.Join(root, "go.work.sum")); err == nil {
		need = append(need, "go.work.sum")
	}
	embed := regexp.MustCompile(`(?m)^//go:embed (.+)$`)
	for _, dir := range []string{"pkg", "services", "web"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() && e.Name() == "node_modules" {
				return filepath.SkipDir
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if e.IsDir() {
				return nil
			}
			switch {
			case dir == "web" && (strings.HasPrefix(rel, "web/src/") || strings.HasPrefix(rel, "web/public/") || path.Dir(rel) == "web"):
				if !strings.HasPrefix(rel, "web/dist") {
					need = append(need, rel)
				}
			case strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go"):
				need = append(need, rel)
				src, _ := os.ReadFile(p)
				for _, m := range embed.FindAllStringSubmatch(string(src), -1) {
					for _, pat := range strings.Fields(m[1]) {
						matches, _ := filepath.Glob(filepath.Join(filepath.Dir(p), pat))
						for _, mm := range matches {
							r, _ := filepath.Rel(root, mm)
							need = append(need, filepath.ToSlash(r))
						}
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range need {
		if excluded(rel) {
			t.Errorf(".dockerignore drops %s, which the images need", rel)
		}
	}
	// Not wanted in the context.
	for _, rel := range []string{
		".git/HEAD", "web/node_modules/react/index.js", "web/dist/index.html", "bin/gateway", ".dev/pg/PG_VERSION",
		"charts/santa-wishlist/values.yaml", "docs/conventions.md", "deploy/values/prod.yaml",
		"services/wishlist/internal/app/app_test.go", "pkg/config/config_test.go", "services/gateway/Dockerfile",
		"deploy/chartcheck/render_test.go",
	} {
		if !excluded(rel) {
			t.Errorf(".dockerignore lets %s into the build context", rel)
		}
	}
	// Every file a Dockerfile copies from the context exists and is not ignored.
	for _, svc := range services(t) {
		d := loadDockerfile(t, root, svc)
		for _, st := range d.stages {
			for _, in := range st.Instructions {
				if in.Cmd != "COPY" || strings.Contains(in.Args, "--from=") {
					continue
				}
				words := strings.Fields(in.Args)
				for _, src := range words[:len(words)-1] {
					if strings.HasPrefix(src, "--") {
						continue
					}
					clean := strings.TrimSuffix(src, "/")
					if clean == "." || strings.ContainsAny(clean, "*?[") {
						continue // optional globs such as go.sum*
					}
					if _, err := os.Stat(filepath.Join(root, clean)); err != nil {
						t.Errorf("services/%s/Dockerfile line %d copies %s, which does not exist", svc, in.Line, src)
					} else if excluded(clean) {
						t.Errorf("services/%s/Dockerfile line %d copies %s, which .dockerignore drops", svc, in.Line, src)
					}
				}
			}
		}
	}
}

func TestParseGoBuild(t *testing.T) {
	st, err := ParseDockerfile("FROM golang:1.26 AS b\nENV GOTOOLCHAIN=local\nRUN --mount=type=cache,target=/x \\\n    CGO_ENABLED=0 go build -trimpath -ldflags=\"-s -w\" -o /out/x ./cmd/x\nFROM scratch\n")
	if err != nil {
		t.Fatal(err)
	}
	gb, err := FindGoBuild(st[0])
	if err != nil {
		t.Fatal(err)
	}
	if gb.Output != "/out/x" || gb.Package != "./cmd/x" || ldflags(gb.Flags) != "-s -w" || !contains(gb.Flags, "-trimpath") {
		t.Fatalf("parsed %+v", gb)
	}
	if v, _ := EnvValue(gb.Env, "CGO_ENABLED"); v != "0" {
		t.Fatalf("env %v", gb.Env)
	}
	if v, _ := EnvValue(gb.Env, "GOTOOLCHAIN"); v != "local" {
		t.Fatalf("stage ENV not carried: %v", gb.Env)
	}
	if _, err := FindGoBuild(Stage{Instructions: []Instruction{{Cmd: "RUN", Args: "go build ./a && go build ./b"}}}); err == nil {
		t.Error("a RUN chaining two commands was accepted")
	}
}
