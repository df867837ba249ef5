// Command buildplan is the decision-making part of the local cluster's build
// (deploy/cluster/build.sh and images.sh, which only run commands): which binaries are built at
// which pinned version (deploy/cluster/versions.env, deploy/local/pins.env), into which cache
// folder, whether that folder is already a build (the cache hit), and the commands that build
// what is missing; and for the images, the key each one's stamp holds.
//
//	buildplan [-root DIR] COMMAND [ARGS]
//
//	steps              the commands that build the missing binaries, as shell (build.sh runs them)
//	status             every component: NAME VERSION FOLDER built|missing
//	dir NAME           a component's cache folder (kubernetes, crane, kube-router, cert-manager, ...)
//	prepare NAME       writes what a component is built in (the steps call it): the throwaway
//	                   module of Kubernetes and skaffold, the copy of Traefik's and KEDA's modules
//	key IMAGE          the key of an image of images.sh (pause, coredns, services, cert-manager, ...)
//	tag                the services' images' tag: the commit, and a hash of uncommitted changes
//	fresh REF KEY      exits 0 when REF's stamp holds KEY, 1 when not
//	stamp REF KEY      records that REF was imported from KEY
//
// The cache is K8S_CACHE, ~/.cache/santa/k8s by default. Exit status 2 for a wrong command.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type usageError struct{ error }

// errStale is fresh's "no": not a failure to report.
var errStale = errors.New("stale")

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("buildplan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "the checkout")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	err := command(*root, fs.Args(), stdout)
	var usage usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errStale):
		return 1
	case errors.As(err, &usage):
		fmt.Fprintln(stderr, "buildplan:", err)
		return 2
	}
	fmt.Fprintf(stderr, "\033[1;31m[cluster]\033[0m %s\n", err)
	return 1
}

// load is the plan of this machine: the pins of the checkout, the cache of this user (as the
// shell said it: ${K8S_CACHE:-$HOME/.cache/santa/k8s}).
func load(root string) (*Plan, error) {
	v, err := LoadVersions(filepath.Join(root, "deploy", "cluster", "versions.env"), filepath.Join(root, "deploy", "local", "pins.env"))
	if err != nil {
		return nil, err
	}
	home := os.Getenv("HOME")
	cache := os.Getenv("K8S_CACHE")
	if cache == "" {
		cache = home + "/.cache/santa/k8s"
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return NewPlan(cache, home+"/.cache/santa/bin", []string{self, "-root", root}, v), nil
}

func command(root string, args []string, stdout io.Writer) error {
	arg := func(i int) string {
		if i < len(args) {
			return args[i]
		}
		return ""
	}
	need := func(n int, usage string) error {
		if len(args) != n {
			return usageError{fmt.Errorf("usage: buildplan %s", usage)}
		}
		return nil
	}
	p, err := load(root)
	if err != nil {
		return err
	}
	cs, err := Components(p.Versions, Root(root))
	if err != nil {
		return err
	}
	component := func(name string) (Component, error) {
		for _, c := range cs {
			if c.Name == name {
				return c, nil
			}
		}
		return Component{}, usageError{fmt.Errorf("no component %q", name)}
	}
	switch arg(0) {
	case "steps":
		_, err := io.WriteString(stdout, Script(p.Steps(cs)))
		return err
	case "status":
		for _, c := range cs {
			state := "missing"
			if p.Built(c) {
				state = "built"
			}
			fmt.Fprintln(stdout, c.Name, c.Version, p.Dir(c), state)
		}
		return nil
	case "dir", "prepare":
		if err := need(2, arg(0)+" NAME"); err != nil {
			return err
		}
		c, err := component(arg(1))
		if err != nil || arg(0) == "prepare" {
			if err == nil {
				err = p.Prepare(c)
			}
			return err
		}
		_, err = fmt.Fprintln(stdout, p.Dir(c))
		return err
	case "key":
		if err := need(2, "key IMAGE"); err != nil {
			return err
		}
		k, err := p.ImageKey(Root(root), arg(1))
		if err == nil {
			_, err = fmt.Fprintln(stdout, k)
		}
		return err
	case "tag":
		t, err := Root(root).TreeTag()
		if err == nil {
			_, err = fmt.Fprintln(stdout, t)
		}
		return err
	case "fresh", "stamp":
		if err := need(3, arg(0)+" REF KEY"); err != nil {
			return err
		}
		if arg(0) == "stamp" {
			return p.Stamp(arg(1), arg(2))
		}
		if !p.Stamped(arg(1), arg(2)) {
			return errStale
		}
		return nil
	}
	return usageError{fmt.Errorf("unknown command %q (see the comment of deploy/cluster/buildplan/main.go)", arg(0))}
}
