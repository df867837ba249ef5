package chartcheck

import (
	"bytes"
	"debug/elf"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/moby/buildkit/frontend/dockerfile/instructions"
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

// serviceImage is one service's image as skaffold.yaml builds it: its artifact's Dockerfile,
// target and build arguments, read by BuildKit's parser.
type serviceImage struct {
	*Image
	file       string
	build      *GoBuild
	buildStage *instructions.Stage
}

func loadServiceImage(t *testing.T, root, svc string) *serviceImage {
	t.Helper()
	var art *SkaffoldArtifact
	for _, a := range loadSkaffold(t, "").Build.Artifacts {
		if a.Image == "santa-wishlist/"+svc {
			art = &a
		}
	}
	if art == nil || art.Docker == nil {
		t.Fatalf("skaffold.yaml: no docker artifact santa-wishlist/%s", svc)
	}
	rel := filepath.Join(art.Context, art.Docker.Dockerfile)
	src, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	img, err := ParseDockerfile(src, art.Docker.Target, art.Docker.BuildArgs)
	if err != nil {
		t.Fatalf("%s (target %q): %v", rel, art.Docker.Target, err)
	}
	si := &serviceImage{Image: img, file: rel}
	for i := range img.Stages {
		if gb, err := img.FindGoBuild(&img.Stages[i]); err == nil {
			if si.build != nil {
				t.Fatalf("%s: go build in more than one stage", rel)
			}
			si.build, si.buildStage = gb, &img.Stages[i]
		} else if !strings.HasPrefix(err.Error(), "no go build") {
			t.Fatalf("%s: %v", rel, err)
		}
	}
	if si.build == nil {
		t.Fatalf("%s: no stage runs go build", rel)
	}
	return si
}

func runLine(t *testing.T, img *Image, st *instructions.Stage, run *instructions.RunCommand) string {
	t.Helper()
	words, err := img.RunWords(st, run)
	if err != nil {
		t.Fatalf("line %d: %v", Line(run), err)
	}
	return strings.Join(words, " ")
}

// Each service's image follows the house pattern: multi-stage, go.work-aware cached module
// layer, static build, distroless nonroot final image, no HEALTHCHECK (Kubernetes probes).
func TestDockerfiles(t *testing.T) {
	root := repoRoot(t)
	goVersion, _ := workspaceModules(t, root)
	goMinor := regexp.MustCompile(`^\d+\.\d+`).FindString(goVersion)
	for _, svc := range services(t) {
		t.Run(svc, func(t *testing.T) {
			d := loadServiceImage(t, root, svc)
			if len(d.Stages) < 2 {
				t.Fatalf("want a multi-stage build, got %d stage(s)", len(d.Stages))
			}
			if d.Base != finalImage {
				t.Errorf("final image %q, want %q", d.Base, finalImage)
			}
			if m := regexp.MustCompile(`^golang:(\d+\.\d+)`).FindStringSubmatch(d.buildStage.BaseName); m == nil || m[1] != goMinor {
				t.Errorf("build image %q should be golang:%s (go.work says go %s)", d.buildStage.BaseName, goMinor, goVersion)
			}
			for _, st := range d.Stages {
				for _, c := range st.Commands {
					if _, ok := c.(*instructions.HealthCheckCommand); ok {
						t.Errorf("line %d: HEALTHCHECK; Kubernetes probes do that job", Line(c))
					}
				}
			}

			// The module layer: a stage keeps only go.work, go.work.sum and the go.mod/go.sum
			// files of the context (so every module go.work lists, wherever it lives); the build
			// stage copies that, runs `go mod download`, and only then copies the sources.
			modStage := ""
			for i := range d.Stages {
				st := &d.Stages[i]
				var copiesAll, keepsModFiles bool
				for _, c := range st.Commands {
					switch c := c.(type) {
					case *instructions.CopyCommand:
						copiesAll = copiesAll || (c.From == "" && slices.Equal(c.SourcePaths, []string{"."}) && c.DestPath == ".")
					case *instructions.RunCommand:
						line := runLine(t, d.Image, st, c)
						keepsModFiles = keepsModFiles || (strings.Contains(line, "-delete") &&
							strings.Contains(line, "! -name go.mod") && strings.Contains(line, "! -name go.sum") &&
							strings.Contains(line, "! -name go.work ") && strings.Contains(line, "! -name go.work.sum"))
					}
				}
				if copiesAll && keepsModFiles {
					modStage = st.Name
				}
			}
			if modStage == "" {
				t.Fatal("no stage that keeps only go.work and the go.mod/go.sum files for the module download layer")
			}
			fromMods, download, firstSource := -1, -1, -1
			for i, c := range d.buildStage.Commands {
				switch c := c.(type) {
				case *instructions.CopyCommand:
					if c.From == modStage {
						fromMods = i
					} else if c.From == "" && firstSource < 0 {
						firstSource = i
					}
				case *instructions.RunCommand:
					if runLine(t, d.Image, d.buildStage, c) == "go mod download" {
						download = i
					}
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
			if !slices.Contains(b.Flags, "-trimpath") {
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

			// The target image runs that binary as nonroot.
			var entry, user string
			copiedBinary := ""
			exposes8080 := false
			for _, c := range d.Commands() {
				switch c := c.(type) {
				case *instructions.CopyCommand:
					if c.From == d.buildStage.Name && slices.Equal(c.SourcePaths, []string{b.Output}) {
						copiedBinary = c.DestPath
					}
				case *instructions.EntrypointCommand:
					entry = ""
					if !c.PrependShell && len(c.CmdLine) == 1 {
						entry = c.CmdLine[0]
					}
				case *instructions.UserCommand:
					user = c.User
				case *instructions.ExposeCommand:
					exposes8080 = exposes8080 || slices.Contains(c.Ports, "8080")
				}
			}
			if copiedBinary == "" {
				t.Errorf("target image does not copy %s from the %s stage", b.Output, d.buildStage.Name)
			} else if entry != copiedBinary {
				t.Errorf("ENTRYPOINT %q should exec %s directly (exec form, no shell in distroless)", entry, copiedBinary)
			}
			if user != "nonroot:nonroot" && user != "65532:65532" {
				t.Errorf("USER %q, want nonroot:nonroot", user)
			}
			if !exposes8080 {
				t.Error("no EXPOSE 8080")
			}

			web := webStage(d.Image)
			if svc == "gateway" {
				checkWebStage(t, d.Image, web)
			} else if web != nil && slices.ContainsFunc(d.Chain, func(st instructions.Stage) bool { return copiesFrom(st, web.Name) }) {
				t.Errorf("%s's image carries the web app; only the gateway serves it", svc)
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

func webStage(img *Image) *instructions.Stage {
	for i := range img.Stages {
		if strings.HasPrefix(img.Stages[i].BaseName, "node:") {
			return &img.Stages[i]
		}
	}
	return nil
}

func copiesFrom(st instructions.Stage, from string) bool {
	return slices.ContainsFunc(st.Commands, func(c instructions.Command) bool {
		cp, ok := c.(*instructions.CopyCommand)
		return ok && cp.From == from
	})
}

// The gateway image carries the web app, built in a node stage with npm ci && npm run build.
func checkWebStage(t *testing.T, img *Image, web *instructions.Stage) {
	if web == nil {
		t.Fatal("gateway: no node stage building web/")
	}
	var ci, build bool
	for _, c := range web.Commands {
		if run, ok := c.(*instructions.RunCommand); ok {
			line := runLine(t, img, web, run)
			ci = ci || strings.Contains(line, "npm ci")
			build = build || strings.Contains(line, "npm run build")
		}
	}
	if !ci || !build {
		t.Errorf("gateway: web stage should run npm ci and npm run build (ci=%v build=%v)", ci, build)
	}
	var copiesDist, webDir bool
	for _, c := range img.Commands() {
		switch c := c.(type) {
		case *instructions.CopyCommand:
			copiesDist = copiesDist || (c.From == web.Name && slices.Equal(c.SourcePaths, []string{"/web/dist"}) && c.DestPath == "/app/web")
		case *instructions.EnvCommand:
			webDir = webDir || slices.ContainsFunc(c.Env, func(kv instructions.KeyValuePair) bool { return kv.Key == "WEB_DIR" && kv.Value == "/app/web" })
		}
	}
	if !copiesDist || !webDir {
		t.Errorf("gateway: image should hold web/dist at /app/web with WEB_DIR=/app/web (copy=%v env=%v)", copiesDist, webDir)
	}
}

// Each Dockerfile's go build, run here with the same flags, yields a statically linked
// binary: no program interpreter, no dynamic section, stripped, no build paths.
func TestServiceBinariesAreStatic(t *testing.T) {
	root := repoRoot(t)
	out := t.TempDir()
	for _, svc := range services(t) {
		t.Run(svc, func(t *testing.T) {
			d := loadServiceImage(t, root, svc)
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

// No service's binary links the fakes (fake Gemini, fake product databases, test images):
// they are a module of their own that only tests and the local stacks import, and an import
// from non-test code would ship them in the image.
func TestServiceBinariesLeaveOutTheFakes(t *testing.T) {
	root := repoRoot(t)
	for _, svc := range services(t) {
		t.Run(svc, func(t *testing.T) {
			d := loadServiceImage(t, root, svc)
			args := append(append([]string{"list", "-deps"}, d.build.Flags...), d.build.Package)
			cmd := exec.Command("go", args...)
			cmd.Dir = root
			cmd.Env = append(append(os.Environ(), d.build.Env...), "GOWORK="+filepath.Join(root, "go.work"), "GOOS=linux", "GOARCH="+runtime.GOARCH, "GOFLAGS=-buildvcs=false")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
			}
			for _, pkg := range strings.Fields(string(out)) {
				if pkg == fakesModule || strings.HasPrefix(pkg, fakesModule+"/") {
					t.Errorf("%s depends on %s: the fakes are for tests and the local stacks only", d.build.Package, pkg)
				}
			}
		})
	}
}

// fakesModule is the module path of fakes/.
const fakesModule = "github.com/santa-wishlist/santa/fakes"

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
		"services/wishlist/internal/app/app_test.go", "pkg/config/config_test.go", "Dockerfile",
		"deploy/chartcheck/render_test.go",
	} {
		if !excluded(rel) {
			t.Errorf(".dockerignore lets %s into the build context", rel)
		}
	}
	// Every file an image copies from the context exists and is not ignored.
	for _, svc := range services(t) {
		d := loadServiceImage(t, root, svc)
		for _, st := range d.Stages {
			for _, c := range st.Commands {
				cp, ok := c.(*instructions.CopyCommand)
				if !ok || cp.From != "" {
					continue
				}
				for _, src := range cp.SourcePaths {
					clean := strings.TrimSuffix(src, "/")
					if clean == "." || strings.ContainsAny(clean, "*?[") {
						continue // optional globs such as go.sum*
					}
					if _, err := os.Stat(filepath.Join(root, clean)); err != nil {
						t.Errorf("%s line %d (SERVICE=%s) copies %s, which does not exist", d.file, Line(c), svc, src)
					} else if excluded(clean) {
						t.Errorf("%s line %d (SERVICE=%s) copies %s, which .dockerignore drops", d.file, Line(c), svc, src)
					}
				}
			}
		}
	}
}

// BuildKit's parser reads continuations, RUN flags, quoting, ENV and build arguments; the
// go build is found in the shell line with everything expanded.
func TestParseGoBuild(t *testing.T) {
	src := "ARG APP=x\nFROM golang:1.26 AS b\nARG APP\nENV GOTOOLCHAIN=local\nRUN --mount=type=cache,target=/x \\\n    CGO_ENABLED=0 go build -trimpath -ldflags=\"-s -w\" -o /out/$APP ./cmd/${APP}\nFROM scratch AS final\nCOPY --from=b /out/y /y\n"
	img, err := ParseDockerfile([]byte(src), "", map[string]string{"APP": "y"})
	if err != nil {
		t.Fatal(err)
	}
	gb, err := img.FindGoBuild(img.Stage("b"))
	if err != nil {
		t.Fatal(err)
	}
	if gb.Output != "/out/y" || gb.Package != "./cmd/y" || ldflags(gb.Flags) != "-s -w" || !slices.Contains(gb.Flags, "-trimpath") {
		t.Fatalf("parsed %+v", gb)
	}
	if v, _ := EnvValue(gb.Env, "CGO_ENABLED"); v != "0" {
		t.Fatalf("env %v", gb.Env)
	}
	if v, _ := EnvValue(gb.Env, "GOTOOLCHAIN"); v != "local" {
		t.Fatalf("stage ENV not carried: %v", gb.Env)
	}
	if img.Base != "scratch" || len(img.Chain) != 1 || img.Chain[0].Name != "final" {
		t.Fatalf("target resolved to %q via %d stage(s)", img.Base, len(img.Chain))
	}
	chained, err := ParseDockerfile([]byte("FROM golang:1.26 AS b\nRUN go build ./a && go build ./b\n"), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chained.FindGoBuild(&chained.Stages[0]); err == nil {
		t.Error("a RUN chaining two commands was accepted")
	}
	for name, bad := range map[string]string{
		"unknown instruction": "FROM scratch\nRUNN true\n",
		"no FROM":             "RUN true\n",
		"bad flag":            "FROM scratch\nCOPY --frm=x a b\n",
	} {
		if _, err := ParseDockerfile([]byte(bad), "", nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := ParseDockerfile([]byte(src), "nope", nil); err == nil {
		t.Error("an unknown target was accepted")
	}
}
