package main

import (
	"bytes"
	"debug/elf"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// static is `! ldd path`: ldd says "not a dynamic executable" of an ELF file without a program
// interpreter or dynamic section (a static Go binary) and of any file that is not ELF.
func static(path string) bool {
	f, err := elf.Open(path)
	if err != nil {
		return true
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			return false
		}
	}
	return true
}

// download is `go mod download -json module@version` run in dir: where the module's go.mod
// (GoMod) and files (Dir) are in the module cache.
func download(dir, module, version string) (goMod, moduleDir string, err error) {
	cmd := exec.Command("go", "mod", "download", "-json", module+"@"+version)
	cmd.Dir, cmd.Stderr = dir, os.Stderr
	out, err := cmd.Output()
	var info struct{ GoMod, Dir, Error string }
	if jerr := json.Unmarshal(out, &info); err == nil && jerr != nil {
		err = jerr
	}
	if info.Error != "" {
		err = fmt.Errorf("%s", info.Error)
	}
	if err == nil && (info.GoMod == "" || info.Dir == "") {
		err = fmt.Errorf("no GoMod or Dir in its answer")
	}
	if err != nil {
		return "", "", fmt.Errorf("go mod download %s@%s failed: %w", module, version, err)
	}
	return info.GoMod, info.Dir, nil
}

// Prepare writes what a Throwaway or ModuleCopy component is built in (Src): the throwaway
// module's go.mod and tools.go, or the copy of the component's module.
func (p *Plan) Prepare(c Component) error {
	src := p.Src(c)
	switch c.Kind {
	case Throwaway:
		goMod, _, err := download(src, c.Module, c.Version)
		if err != nil {
			return err
		}
		theirs, err := os.ReadFile(goMod)
		if err != nil {
			return err
		}
		mod, err := ThrowawayGoMod(c, p.Versions, string(theirs))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte(mod), 0o644); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(src, "tools.go"), []byte(ToolsGo(c)), 0o644)
	case ModuleCopy:
		_, dir, err := download("/tmp", c.Module, c.Version)
		if err != nil {
			return err
		}
		if err := os.RemoveAll(src); err != nil {
			return err
		}
		return copyTree(dir, src)
	case Local:
		return fmt.Errorf("%s is built where it is (%s): nothing to prepare", c.Name, c.Source)
	}
	return fmt.Errorf("%s is built with go install: nothing to prepare", c.Name)
}

// ThrowawayGoMod is the go.mod of the module a Throwaway component is built in, given the
// component's own go.mod (theirs); go mod tidy completes it.
//   - kubernetes: its `k8s.io/x => ./staging/src/k8s.io/x` replace lines, pointed at the
//     staging modules' releases (K8S_STAGING_VERSION), since a replace by a folder of another
//     module means nothing here.
//   - skaffold: its replace and exclude lines, which only count in the main module.
func ThrowawayGoMod(c Component, v Versions, theirs string) (string, error) {
	var b strings.Builder
	var kept int
	switch c.Name {
	case "kubernetes":
		staging, err := v.Get("K8S_STAGING_VERSION")
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "module santa.local/k8sbuild\ngo 1.24.0\nrequire %s %s\n", c.Module, c.Version)
		for _, line := range strings.Split(theirs, "\n") {
			if f := strings.Fields(line); strings.Contains(line, "=> ./staging/") && len(f) > 0 {
				fmt.Fprintf(&b, "replace %s => %s %s\n", f[0], f[0], staging)
				kept++
			}
		}
	case "skaffold":
		fmt.Fprintf(&b, "module santa.local/skaffoldbuild\ngo 1.24.1\nrequire %s %s\n", c.Module, c.Version)
		for _, line := range strings.Split(theirs, "\n") {
			if strings.HasPrefix(line, "replace ") || strings.HasPrefix(line, "exclude ") {
				b.WriteString(line + "\n")
				kept++
			}
		}
	default:
		return "", fmt.Errorf("no throwaway module for %s", c.Name)
	}
	if kept == 0 { // as the shell's grep, which failed the build on no match
		return "", fmt.Errorf("%s@%s: no replace lines in its go.mod", c.Module, c.Version)
	}
	return b.String(), nil
}

// ToolsGo imports the packages to build, so that go mod tidy requires what they need.
func ToolsGo(c Component) string {
	if len(c.Pkgs) == 1 {
		return fmt.Sprintf("//go:build tools\npackage tools\nimport _ %q\n", c.Pkgs[0])
	}
	var b bytes.Buffer
	b.WriteString("//go:build tools\npackage tools\nimport (\n")
	for _, pkg := range c.Pkgs {
		fmt.Fprintf(&b, "\t_ %q\n", pkg)
	}
	b.WriteString(")\n")
	return b.String()
}

// copyTree is cp -r from/. to/ then chmod -R u+w to: the module cache's files are read-only,
// and a build writes beside them.
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		perm := info.Mode().Perm() | 0o200
		switch {
		case d.IsDir():
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return err
			}
			return os.Chmod(dst, perm)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err == nil {
				err = os.Symlink(target, dst)
			}
			return err
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}
