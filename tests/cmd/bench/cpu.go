package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat's CPU times; 100 on every Linux we run.
const clockTicks = 100

// cpuUse is CPU seconds spent so far by each process that serves a list request: the stack's
// services, PostgreSQL and Redis (every process of that name, as name#pid) and the bench itself.
type cpuUse map[string]float64

// readCPU snapshots cpuUse from /proc. It is empty when the stack's pid files are unknown.
func readCPU(pidDir string, services []string) cpuUse {
	use := cpuUse{}
	if pidDir == "" {
		return use
	}
	for _, svc := range services {
		name, _, _ := strings.Cut(svc, "=")
		if pid, ok := stackPID(pidDir, name); ok {
			use[name] = processCPU(pid)
		}
	}
	use["bench"] = processCPU("self")
	procs, _ := filepath.Glob("/proc/[0-9]*/comm")
	for _, comm := range procs {
		b, err := os.ReadFile(comm)
		if err != nil {
			continue
		}
		// Each process apart (name#pid): a PostgreSQL backend that ends between two snapshots
		// (another pool closing) took its CPU with it, and a sum by name then went down,
		// even below zero.
		pid := filepath.Base(filepath.Dir(comm))
		switch name := strings.TrimSpace(string(b)); {
		case name == "postgres":
			use["postgres#"+pid] = processCPU(pid)
		case name == "redis-server":
			use["redis#"+pid] = processCPU(pid)
		}
	}
	return use
}

// stackPID reads a service's pid from the local stack's pid file.
func stackPID(pidDir, name string) (string, bool) {
	pid, err := os.ReadFile(filepath.Join(pidDir, name+".pid"))
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(pid)), true
}

// processCPU is utime + stime of one process, in seconds.
func processCPU(pid string) float64 {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0
	}
	// The command name may hold spaces; the fields after its closing parenthesis do not.
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 13 {
		return 0
	}
	utime, _ := strconv.ParseFloat(fields[11], 64)
	stime, _ := strconv.ParseFloat(fields[12], 64)
	return (utime + stime) / clockTicks
}

// perRequest prints the CPU each process spent per request between two snapshots, largest
// first, which tells where a request's time goes on a machine the processes share.
func perRequest(before, after cpuUse, requests int) string {
	if len(after) == 0 || requests == 0 {
		return ""
	}
	type share struct {
		name string
		us   float64
	}
	// A process that ended meanwhile is left out; one that started counts whole (all of its
	// CPU was spent since the first snapshot).
	byName := map[string]float64{}
	for key, end := range after {
		name, _, _ := strings.Cut(key, "#")
		byName[name] += (end - before[key]) / float64(requests) * 1e6
	}
	var shares []share
	total := 0.0
	for name, us := range byName {
		total += us
		if us >= 1 {
			shares = append(shares, share{name, us})
		}
	}
	sort.Slice(shares, func(i, j int) bool { return shares[i].us > shares[j].us })
	parts := make([]string, len(shares))
	for i, s := range shares {
		parts[i] = fmt.Sprintf("%s %.0f", s.name, s.us)
	}
	return fmt.Sprintf("    CPU µs per request: %.0f = %s", total, strings.Join(parts, " + "))
}
