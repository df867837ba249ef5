// Package stackplan checks the local port plan (deploy/local/ports.env) as stack.sh resolves it:
// every profile (a developer's `make dev`, the test stack, the smoke stack) runs beside the
// others on one machine, so no two listeners may share a port.
package stackplan

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

type listener struct{ profile, name, port string }

// plan is `stack.sh ports`: what the script itself will listen on, not a copy of the file.
func plan(t *testing.T) []listener {
	t.Helper()
	cmd := exec.Command("bash", filepath.Join(root(t), "deploy/local/stack.sh"), "ports")
	cmd.Env = append(os.Environ(), "STACK=dev", "SANTA_TOOLS="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("stack.sh ports: %v", err)
	}
	var ls []listener
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("stack.sh ports: unexpected line %q", line)
		}
		ls = append(ls, listener{f[0], f[1], f[2]})
	}
	return ls
}

// clashes names every port held by two listeners or more.
func clashes(ls []listener) []string {
	holders := map[string][]string{}
	var order []string
	for _, l := range ls {
		if holders[l.port] == nil {
			order = append(order, l.port)
		}
		holders[l.port] = append(holders[l.port], l.profile+" "+l.name)
	}
	var out []string
	for _, p := range order {
		if len(holders[p]) > 1 {
			out = append(out, p+": "+strings.Join(holders[p], ", "))
		}
	}
	return out
}

func TestNoTwoListenersShareAPort(t *testing.T) {
	ls := plan(t)
	for _, c := range clashes(ls) {
		t.Errorf("port %s (deploy/local/ports.env)", c)
	}
	// Every profile has its six services, their admin ports, its NATS and its shop.
	per := map[string]int{}
	for _, l := range ls {
		per[l.profile]++
	}
	for _, p := range []string{"dev", "test", "smoke"} {
		if per[p] != 14 {
			t.Errorf("profile %s has %d listeners, want 14", p, per[p])
		}
	}
	if per["shared"] < 10 {
		t.Errorf("only %d shared listeners", per["shared"])
	}
}

// The checker itself: the clash the plan was made for (family's admin port in the dev profile
// was 8085 + 10, the fake Gemini's port) is found.
func TestClashesFindsASharedPort(t *testing.T) {
	got := clashes([]listener{{"shared", "fake-gemini", "8095"}, {"dev", "gateway", "8080"}, {"dev", "family-admin", "8095"}})
	if len(got) != 1 || got[0] != "8095: shared fake-gemini, dev family-admin" {
		t.Fatalf("clashes = %q", got)
	}
}

// stack.sh takes every port from the plan: a port number written into the script, into the
// parts it sources or into the Go program that resolves the plan for it (deploy/local/stackplan)
// would be a listener the test above cannot see.
func TestStackScriptWritesNoPortOfItsOwn(t *testing.T) {
	files := []string{"deploy/local/stack.sh", "deploy/local/stack-deps.sh", "deploy/local/stack-install.sh"}
	gofiles, err := filepath.Glob(filepath.Join(root(t), "deploy/local/stackplan/*.go"))
	if err != nil || len(gofiles) == 0 {
		t.Fatalf("deploy/local/stackplan: %v", err)
	}
	for _, f := range gofiles {
		if !strings.HasSuffix(f, "_test.go") { // the tests' fixtures are plans of their own
			rel, _ := filepath.Rel(root(t), f)
			files = append(files, rel)
		}
	}
	comment := map[bool]*regexp.Regexp{false: regexp.MustCompile(`(?m)#.*$`), true: regexp.MustCompile(`(?m)(^|\s)//.*$`)}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root(t), f))
		if err != nil {
			t.Fatal(err)
		}
		code := comment[strings.HasSuffix(f, ".go")].ReplaceAllString(string(b), "") // comments may cite one
		for _, m := range regexp.MustCompile(`[:\s=]([0-9]{4,5})\b`).FindAllStringSubmatch(code, -1) {
			t.Errorf("%s names port %s itself; put it in deploy/local/ports.env", f, m[1])
		}
	}
}
