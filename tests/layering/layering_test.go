// Package layering_test holds every service to one rule about its rooms under internal/
// (docs/architecture.md, "The layering rule"): domain declares what the service needs (its types
// and the interfaces of the stores and clients it uses); app uses domain; adapters implement
// domain's interfaces; ports call app; service wires everything. It reads the imports with
// `go list`, so it sees what the compiler sees, test files included.
package layering_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// allowed is, for each room, the other rooms of the same service its code may import. Any
// room may import its own packages, pkg/ and third-party modules; any other directory under
// internal/ is a violation, unless it is test support below.
var allowed = map[string][]string{
	"domain":   {},
	"app":      {"domain"},
	"adapters": {"domain"},
	"ports":    {"app", "domain"},
	"service":  {"domain", "app", "adapters", "ports"},
}

// testSupport are the packages under internal/ that only tests import (no binary links them),
// by service, with the rooms each may import. Any room's tests may import them; no room's code.
var testSupport = map[string]map[string][]string{
	// storetest gives media's tests a MinIO store on a fresh bucket.
	"media": {"storetest": {"domain", "adapters"}},
}

// externalTestsMayAlsoImport: a room's black-box tests (package <room>_test) run it over the
// real stores, as this project's tests do (no mocks), so they may also build the adapters.
// A room's code and its in-package _test.go files follow allowed alone.
var externalTestsMayAlsoImport = []string{"adapters"}

// services are the services the rule must cover: a renamed or missing one fails the test
// instead of quietly dropping out of it. A new directory under services/ is checked without
// being listed here.
var services = []string{"family", "gateway", "media", "notification", "vision", "wishlist"}

func TestEveryServiceFollowsTheLayeringRule(t *testing.T) {
	root, err := filepath.Abs("../../services")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(root, e.Name(), "go.mod")); e.IsDir() && err == nil {
			found = append(found, e.Name())
		}
	}
	for _, name := range services {
		if !slices.Contains(found, name) {
			t.Errorf("services/%s: no Go module there any more; update the list in tests/layering", name)
		}
	}
	for _, name := range found {
		t.Run(name, func(t *testing.T) { checkService(t, filepath.Join(root, name), name) })
	}
}

// pkg is the part of `go list -json` this test reads.
type pkg struct {
	ImportPath   string
	Imports      []string // the package's code
	TestImports  []string // its in-package _test.go files
	XTestImports []string // its package <name>_test files
	Error        *struct{ Err string }
}

func checkService(t *testing.T, dir, service string) {
	internal := modulePath(t, dir) + "/internal/"
	out := goList(t, dir, "list", "-e", "-json=ImportPath,Imports,TestImports,XTestImports,Error", "./internal/...")
	rooms := map[string]bool{}
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("services/%s: reading go list: %v", service, err)
		}
		if p.Error != nil {
			t.Errorf("services/%s: %s: %s", service, p.ImportPath, p.Error.Err)
			continue
		}
		room := roomOf(internal, p.ImportPath)
		rooms[room] = true
		may, isRoom := allowed[room]
		if support, ok := testSupport[service][room]; ok {
			may, isRoom = support, true
		}
		if !isRoom {
			t.Errorf("services/%s: %s is in %q, which is none of the rooms domain, app, adapters, ports, service: "+
				"move its code into them (or, if only tests use it, name it as test support in tests/layering)",
				service, p.ImportPath, room)
			continue
		}
		check := func(imports []string, whose string, alsoMay []string) {
			for _, imp := range imports {
				to, ok := strings.CutPrefix(imp, internal)
				if !ok {
					continue
				}
				to, _, _ = strings.Cut(to, "/")
				if to == room || slices.Contains(may, to) || slices.Contains(alsoMay, to) {
					continue
				}
				t.Errorf("services/%s: %s%s imports %s, but %s %s",
					service, p.ImportPath, whose, imp, room, mayImport(append(slices.Clone(may), alsoMay...)))
			}
		}
		support := keys(testSupport[service])
		check(p.Imports, "", nil)
		check(p.TestImports, " (its _test.go files)", support)
		check(p.XTestImports, " (its package "+room+"_test)", append(support, externalTestsMayAlsoImport...))
	}
	t.Logf("services/%s: rooms %s", service, strings.Join(keys(rooms), ", "))
	if len(rooms) == 0 {
		t.Errorf("services/%s: no package under internal/", service)
	}
}

// roomOf is the first directory under internal/ of an import path.
func roomOf(internal, importPath string) string {
	room, _, _ := strings.Cut(strings.TrimPrefix(importPath, internal), "/")
	return room
}

// modulePath is the module line of dir's go.mod (`go list -m` would list the whole workspace).
func modulePath(t *testing.T, dir string) string {
	t.Helper()
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(mod), "\n") {
		if path, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(path), `"`)
		}
	}
	t.Fatalf("%s/go.mod: no module line", dir)
	return ""
}

func goList(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, stderr.String())
	}
	return string(out)
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func mayImport(rooms []string) string {
	if len(rooms) == 0 {
		return "may import none of the other rooms"
	}
	return "may import only " + strings.Join(rooms, ", ")
}
