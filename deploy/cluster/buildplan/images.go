package main

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Images are made by deploy/cluster/images.sh, each again only when what it is made of
// changed: its key, written to a stamp (CACHE/image-stamps/<ref>) when it is imported. A key
// names its inputs: a version, a hash of the files it is built from, the time a Debian rootfs
// was made. The keys are spelled exactly as images.sh spelled them before this program
// (plan_test.go pins them): a different spelling rebuilds every image once.

// Root is the checkout, for the files images are built from.
type Root string

// sha1Hex is `sha1sum | cut -c1-n` over data.
func sha1Hex(data []byte, n int) string {
	sum := sha1.Sum(data)
	return hex.EncodeToString(sum[:])[:n]
}

// filesKey is `cat dir/* | sha1sum | cut -c1-16`: the files of a folder, in the glob's order
// (by name; the folders hold only files with ASCII names, where every locale sorts alike).
func filesKey(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var all []byte
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue // not matched by the glob
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return "", err // cat fails on a folder too, and images.sh with it
		}
		all = append(all, b...)
	}
	return sha1Hex(all, 16), nil
}

// fileKey is `sha1sum < file | cut -c1-16`.
func fileKey(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return sha1Hex(b, 16), nil
}

// mtime is `stat -c %Y path`: when the Debian rootfs was made (its .done marker).
func mtime(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	return strconv.FormatInt(fi.ModTime().Unix(), 10), nil
}

func output(name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s: %w", strings.Join(append([]string{name}, args...), " "), err)
	}
	return string(out), nil
}

// treePaths are what the services' and fakes' images are built from.
var treePaths = []string{"services", "pkg", "fakes", "web/src", "go.work"}

// TreeTag is the tag of the services' images: the commit, plus a hash of uncommitted changes.
func (r Root) TreeTag() (string, error) {
	head, err := output("git", "-C", string(r), "rev-parse", "--short=12", "HEAD")
	if err != nil {
		return "", err
	}
	tag := strings.TrimRight(head, "\n")
	quiet := exec.Command("git", append([]string{"-C", string(r), "diff", "--quiet", "HEAD", "--"}, treePaths...)...)
	if quiet.Run() != nil { // a change, or no diff at all: as the shell's `if ! git diff --quiet`
		diff, err := output("git", append([]string{"-C", string(r), "diff", "HEAD", "--"}, treePaths...)...)
		if err != nil {
			return "", err
		}
		tag += "-" + sha1Hex([]byte(diff), 8)
	}
	return tag, nil
}

var busyboxVersion = regexp.MustCompile(`^BusyBox (v[^ ]*)`)

// busyboxKey is the version on the first line busybox prints (empty when there is none, as
// the shell's sed left it).
func busyboxKey(out string) string {
	first, _, _ := strings.Cut(out, "\n")
	if m := busyboxVersion.FindStringSubmatch(first); m != nil {
		return m[1]
	}
	return ""
}

// ImageKey is the key of one of images.sh's images, by a short name.
func (p *Plan) ImageKey(root Root, name string) (string, error) {
	here := filepath.Join(string(root), "deploy", "cluster")
	v := p.Versions
	deb := p.Cache + "/debian-bookworm/.done"
	switch name {
	case "pause": // santa.local/pause:1, the pod sandbox
		return filesKey(filepath.Join(here, "pause"))
	case "coredns", "metrics-server", "local-path-provisioner", "traefik", "keda":
		// The binaries build.sh built: their version.
		return v.Get(strings.ToUpper(strings.ReplaceAll(name, "-", "_")) + "_VERSION")
	case "cert-manager": // the controller build.sh built: the version of its folder
		return CertManagerVersion(v, root)
	case "busybox": // Debian's static busybox, the provisioner's helper
		out, err := output("/bin/busybox")
		return busyboxKey(out), err
	case "services", "fake-internet":
		return root.TreeTag()
	case "postgres": // the Debian rootfs, the entrypoint and the recipe that adds it (images-debian.sh)
		t, err := mtime(deb)
		if err != nil {
			return "", err
		}
		k, err := fileKey(filepath.Join(here, "postgres-entrypoint.sh"))
		if err != nil {
			return "", err
		}
		r, err := fileKey(filepath.Join(here, "images-debian.sh"))
		return t + "-" + k + "-" + r, err
	case "redis":
		return mtime(deb)
	case "nats", "minio", "mailpit": // the pinned static build of build.sh
		c := map[string]string{"nats": "nats-server", "minio": "minio", "mailpit": "mailpit"}[name]
		pin, err := v.Get(strings.ToUpper(name) + "_PIN")
		if err != nil {
			return "", err
		}
		k, err := fileKey(p.Cache + "/" + c + "-" + pin + "/" + c)
		return pin + "-" + k, err
	case "firebase-auth-emulator": // the Debian rootfs, firebase-tools and this machine's Node
		t, err := mtime(deb)
		if err != nil {
			return "", err
		}
		pin, err := v.Get("FIREBASE_TOOLS_PIN")
		if err != nil {
			return "", err
		}
		node, err := output("node", "--version")
		return t + "-" + pin + "-" + strings.TrimRight(node, "\n"), err
	case "prometheus": // its own Debian rootfs and podwatch
		t, err := mtime(p.Cache + "/debian-bookworm-prometheus/.done")
		if err != nil {
			return "", err
		}
		k, err := filesKey(filepath.Join(here, "podwatch"))
		return t + "-" + k, err
	}
	return "", usageError{fmt.Errorf("no image %q", name)}
}

// StampPath is where an image's key is kept: its reference with / and : made _.
func (p *Plan) StampPath(ref string) string {
	return p.Cache + "/image-stamps/" + strings.NewReplacer("/", "_", ":", "_").Replace(ref)
}

// Stamped is the stamp half of images.sh's fresh: the image was imported from these inputs
// (whether containerd still has it is images.sh's to ask). A missing stamp reads as empty, as
// $(cat) read it.
func (p *Plan) Stamped(ref, key string) bool {
	b, _ := os.ReadFile(p.StampPath(ref))
	return strings.TrimRight(string(b), "\n") == key
}

// Stamp records that ref was imported from key.
func (p *Plan) Stamp(ref, key string) error {
	if err := os.MkdirAll(filepath.Dir(p.StampPath(ref)), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p.StampPath(ref), []byte(key+"\n"), 0o644)
}
