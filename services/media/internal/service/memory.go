package service

import (
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// memoryLimit is the memory this process may use: GOMEMLIMIT when set (the chart sets it to
// nine tenths of the container's limit), else the cgroup's limit, else 0 (unknown).
func memoryLimit() int64 {
	if l := debug.SetMemoryLimit(-1); l > 0 && l != math.MaxInt64 {
		return l
	}
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		raw, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(raw)), 10, 64)
		// "max", or cgroup v1's "unlimited" (a huge page-rounded number), mean no limit.
		if err == nil && n > 0 && n < 1<<50 {
			return n
		}
	}
	return 0
}

// decodeMemory sizes the decoding slots: half the memory limit, leaving the other half for
// the process itself, request bodies and garbage not yet collected.
func decodeMemory(limit int64) int64 {
	if limit <= 0 {
		return DefaultDecodeMemory
	}
	return limit / 2
}
