package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// shell runs script with bash, as images.sh ran it before this program, and returns its output.
func shell(t *testing.T, script string, env ...string) string {
	t.Helper()
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	return strings.TrimRight(string(out), "\n")
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// imageFixture is a checkout with the files images are made of and a cache with Debian
// rootfs markers and a NATS build.
func imageFixture(t *testing.T) (*Plan, Root) {
	root, cache := t.TempDir(), t.TempDir()
	here := filepath.Join(root, "deploy", "cluster")
	write(t, filepath.Join(here, "pause", "go.mod"), "module pause\n")
	write(t, filepath.Join(here, "pause", "main.go"), "package main\n")
	write(t, filepath.Join(here, "podwatch", "go.mod"), "module podwatch\n")
	write(t, filepath.Join(here, "podwatch", "main.go"), "package main\n")
	write(t, filepath.Join(here, "podwatch", "main_test.go"), "package main\n\n")
	write(t, filepath.Join(here, "postgres-entrypoint.sh"), "#!/bin/sh\nexec postgres\n")
	write(t, filepath.Join(here, "images-debian.sh"), "deps() { :; }\n")
	write(t, filepath.Join(cache, "nats-server-v2.15.2", "nats-server"), "\x7fELF...")
	for i, done := range []string{"debian-bookworm/.done", "debian-bookworm-prometheus/.done"} {
		write(t, filepath.Join(cache, done), "")
		when := time.Unix(1764400000+int64(i), 0)
		if err := os.Chtimes(filepath.Join(cache, done), when, when); err != nil {
			t.Fatal(err)
		}
	}
	p := NewPlan(cache, "", nil, current)
	return p, Root(root)
}

func key(t *testing.T, p *Plan, root Root, name string) string {
	t.Helper()
	k, err := p.ImageKey(root, name)
	if err != nil {
		t.Fatalf("key %s: %v", name, err)
	}
	return k
}

// Each key is what images.sh's own line made of the same files (run here by bash), so that an
// image imported before this program is still fresh; and pinned as a value, so that the
// formula cannot drift with the shell's tools.
func TestImageKeysAsTheShellMadeThem(t *testing.T) {
	p, root := imageFixture(t)
	env := []string{"HERE=" + filepath.Join(string(root), "deploy", "cluster"), "CACHE=" + p.Cache,
		"deb=" + p.Cache + "/debian-bookworm", "NATS_PIN=v2.15.2"}
	for _, c := range []struct{ name, shell, pinned string }{
		{"pause", `cat "$HERE"/pause/* | sha1sum | cut -c1-16`, "b075e65815b3142e"},
		{"postgres", `echo "$(stat -c %Y "$deb/.done")-$(sha1sum < "$HERE/postgres-entrypoint.sh" | cut -c1-16)-$(sha1sum < "$HERE/images-debian.sh" | cut -c1-16)"`, "1764400000-5cdaffb0b7a3b71f-9ec162d62a864c14"},
		{"redis", `stat -c %Y "$deb/.done"`, "1764400000"},
		{"nats", `echo "$NATS_PIN-$(sha1sum < "$CACHE/nats-server-$NATS_PIN/nats-server" | cut -c1-16)"`, "v2.15.2-473c2990852989a7"},
		{"prometheus", `deb=$CACHE/debian-bookworm-prometheus; echo "$(stat -c %Y "$deb/.done")-$(cat "$HERE"/podwatch/* | sha1sum | cut -c1-16)"`, "1764400001-e8390f354c7585d7"},
		{"coredns", `echo v1.12.1`, "v1.12.1"},
		{"metrics-server", `echo v0.7.2`, "v0.7.2"},
		{"local-path-provisioner", `echo v0.0.30`, "v0.0.30"},
		{"traefik", `echo v3.6.12`, "v3.6.12"},
		{"keda", `echo v2.20.2`, "v2.20.2"},
	} {
		got, want := key(t, p, root, c.name), shell(t, c.shell, env...)
		if got != want {
			t.Errorf("key %s = %q, the shell's %q", c.name, got, want)
		}
		if c.pinned != "" && got != c.pinned {
			t.Errorf("key %s = %q, pinned %q", c.name, got, c.pinned)
		}
	}
	if _, err := exec.LookPath("node"); err == nil {
		want := shell(t, `echo "$(stat -c %Y "$deb/.done")-15.34.2-$(node --version)"`, env...)
		if got := key(t, p, root, "firebase-auth-emulator"); got != want {
			t.Errorf("key firebase-auth-emulator = %q, the shell's %q", got, want)
		}
	}
	if _, err := p.ImageKey(root, "nothing"); err == nil {
		t.Error("an unknown image has a key")
	}
}

// The services' tag, clean and with uncommitted changes, as images.sh's tree_tag made it.
func TestTreeTag(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed to compute the tag (images.sh uses it too)")
	}
	root := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	write(t, filepath.Join(root, "services", "a.go"), "package a\n")
	write(t, filepath.Join(root, "README.md"), "hello\n")
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "one")
	treeTag := `t=$(git -C "$ROOT" rev-parse --short=12 HEAD)
if ! git -C "$ROOT" diff --quiet HEAD -- services pkg fakes web/src go.work 2>/dev/null; then
  t="$t-$(git -C "$ROOT" diff HEAD -- services pkg fakes web/src go.work | sha1sum | cut -c1-8)"
fi
echo "$t"`
	for _, change := range []struct{ path, text string }{
		{"", ""}, {"README.md", "not a path of the images\n"}, {"services/a.go", "package a // changed\n"},
	} {
		if change.path != "" {
			write(t, filepath.Join(root, change.path), change.text)
		}
		got, err := Root(root).TreeTag()
		if want := shell(t, treeTag, "ROOT="+root); err != nil || got != want {
			t.Errorf("after %q: tag %q %v, the shell's %q", change.path, got, err, want)
		}
	}
	if got, _ := Root(root).TreeTag(); len(got) != 12+1+8 {
		t.Errorf("tag with a change: %q", got)
	}
}

func TestStamps(t *testing.T) {
	p := NewPlan(t.TempDir(), "", nil, current)
	ref := "docker.io/santa-wishlist/gateway:0123456789ab-deadbeef"
	// echo "$ref" | tr '/:' '__'
	if got, want := p.StampPath(ref), p.Cache+"/image-stamps/docker.io_santa-wishlist_gateway_0123456789ab-deadbeef"; got != want {
		t.Errorf("stamp of %s: %s, want %s", ref, got, want)
	}
	if p.Stamped(ref, "k") || !p.Stamped(ref, "") {
		t.Error("a missing stamp reads as empty")
	}
	if err := p.Stamp(ref, "k"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p.StampPath(ref)); string(b) != "k\n" { // echo "$key" > stamp
		t.Errorf("stamp holds %q", b)
	}
	if !p.Stamped(ref, "k") || p.Stamped(ref, "k2") {
		t.Error("Stamped after Stamp")
	}
	// Written before this program: read as $(cat) read it, without its trailing newlines.
	write(t, p.StampPath("santa.local/pause:1"), "abc\n\n")
	if !p.Stamped("santa.local/pause:1", "abc") {
		t.Error("an old stamp is not fresh")
	}
}

func TestBusyboxKey(t *testing.T) {
	for _, out := range []string{
		"BusyBox v1.35.0 (Debian 1:1.35.0-4+b3) multi-call binary.\nBusyBox is copyrighted\n",
		"BusyBox v1.36.1\n", "no version\nBusyBox v1.2.3 (x)\n", "",
	} {
		want := shell(t, `printf '%s' "$OUT" | sed -n '1s/^BusyBox \(v[^ ]*\).*/\1/p'`, "OUT="+out)
		if got := busyboxKey(out); got != want {
			t.Errorf("busybox key of %q: %q, the shell's %q", out, got, want)
		}
	}
	if busyboxKey("BusyBox v1.35.0 (Debian) multi-call binary.\n") != "v1.35.0" {
		t.Error("busybox v1.35.0")
	}
}
