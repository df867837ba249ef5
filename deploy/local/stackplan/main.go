// Command stackplan is the decision-making part of the local stack (deploy/local/stack.sh),
// which itself only starts and stops processes: the port plan (deploy/local/ports.env) and
// what it resolves to for a profile, what the stack gives deploy/local/serviceenv to render a
// service's environment with, the files the stack's NATS and Auth emulator read, and the
// readiness checks and their diagnoses.
//
//	stackplan [-root DIR] [-stack PROFILE] COMMAND [ARGS]
//
//	ports                    every profile's listeners, "profile name port", the shared ones once
//	vars                     the profile's plan as shell assignments (stack.sh evaluates them)
//	port SERVICE public|admin  the port the plan gives the profile's service
//	inputs [CMD ARGS...]     the renderer's inputs, KEY=value lines; with CMD, runs CMD with
//	                         them in its environment (over the caller's)
//	nats-conf                a password for each NATS user that has none (.dev/PROFILE/nats.env),
//	                         and the stack's NATS configuration (.dev/PROFILE/nats.conf)
//	nats-url USER            the URL of a user of the stack's NATS
//	firebase-json            the Auth emulator's firebase.json
//	wait-port ADDR NAME [S]  waits up to S seconds (60) for ADDR to answer
//	wait-ready SERVICE       waits up to 60 s for /readyz on its admin port to name it; exits 3
//	                         when its process (.dev/PROFILE/SERVICE.pid) ends first
//	exited STATUS SERVICE    the line that says the service ended, and why (from its log)
//	ports-free SERVICE...    fails, naming the holder, when a port of a built service is taken
//
// A failure is told as stack.sh tells its own, and the exit status is 1 (2 for an unknown
// profile or command).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

type usageError struct{ error }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("stackplan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "the checkout")
	def := os.Getenv("STACK")
	if def == "" {
		def = "dev"
	}
	stack := fs.String("stack", def, "the profile: dev, test, smoke (ports.env)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	plan, err := LoadPlan(filepath.Join(*root, "deploy", "local", "ports.env"))
	if err == nil {
		err = plan.CheckProfile(*stack)
		if err != nil {
			fmt.Fprintln(stderr, err) // as stack.sh always said it
			return 2
		}
		err = command(plan, *root, *stack, fs.Args(), stdout, stderr)
	}
	var usage usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, Exited):
		return 3
	case errors.As(err, &usage):
		fmt.Fprintln(stderr, "stackplan:", err)
		return 2
	}
	fmt.Fprintf(stderr, "\033[1;31m[stack]\033[0m %s\n", err)
	return 1
}

func command(p *Plan, root, stack string, args []string, stdout, stderr io.Writer) error {
	state := filepath.Join(root, ".dev", stack)
	arg := func(i int) string {
		if i < len(args) {
			return args[i]
		}
		return ""
	}
	need := func(n int, usage string) error {
		if len(args) < n {
			return usageError{fmt.Errorf("usage: stackplan %s", usage)}
		}
		return nil
	}
	switch arg(0) {
	case "ports":
		ls, err := p.Listeners()
		if err == nil {
			_, err = fmt.Fprintln(stdout, strings.Join(ls, "\n"))
		}
		return err
	case "vars":
		vars, err := p.ShellVars(stack)
		if err == nil {
			_, err = io.WriteString(stdout, vars)
		}
		return err
	case "port":
		if err := need(3, "port SERVICE public|admin"); err != nil {
			return err
		}
		port, err := p.ServicePort(stack, arg(1), arg(2) == "admin")
		if err == nil {
			_, err = fmt.Fprintln(stdout, port)
		}
		return err
	case "inputs":
		in, err := Inputs(p, root, stack, os.Getenv)
		if err != nil {
			return err
		}
		if len(args) == 1 {
			for _, k := range sortedKeys(in) {
				fmt.Fprintf(stdout, "%s=%s\n", k, in[k])
			}
			return nil
		}
		path, err := exec.LookPath(args[1])
		if err != nil {
			return err
		}
		return syscall.Exec(path, args[1:], Environ(os.Environ(), in))
	case "nats-conf":
		s, err := p.Resolve(stack)
		if err != nil {
			return err
		}
		pass, err := EnsureNATSPasswords(filepath.Join(state, "nats.env"))
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(state, "nats.conf"), []byte(NATSConf(s, state, pass)), 0o600)
	case "nats-url":
		if err := need(2, "nats-url USER"); err != nil {
			return err
		}
		s, err := p.Resolve(stack)
		if err != nil {
			return err
		}
		url, err := NATSURL(s, state, arg(1))
		if err == nil && url != "" {
			_, err = fmt.Fprintln(stdout, url)
		}
		return err
	case "firebase-json":
		js, err := FirebaseJSON(p)
		if err == nil {
			_, err = io.WriteString(stdout, js)
		}
		return err
	case "wait-port":
		if err := need(3, "wait-port ADDR NAME [SECONDS]"); err != nil {
			return err
		}
		secs := 60
		if len(args) > 3 {
			n, err := strconv.Atoi(args[3])
			if err != nil {
				return usageError{err}
			}
			secs = n
		}
		return WaitPort(arg(1), arg(2), secs, state)
	case "wait-ready":
		if err := need(2, "wait-ready SERVICE"); err != nil {
			return err
		}
		return WaitReady(p, stack, state, arg(1), stderr)
	case "exited":
		if err := need(3, "exited STATUS SERVICE"); err != nil {
			return err
		}
		_, err := io.WriteString(stderr, ExitReport(arg(2), arg(1), filepath.Join(state, arg(2)+".log")))
		return err
	case "ports-free":
		return PortsFree(p, stack, filepath.Join(state, "bin"), args[1:])
	}
	return usageError{fmt.Errorf("unknown command %q (see the comment of deploy/local/stackplan/main.go)", arg(0))}
}
