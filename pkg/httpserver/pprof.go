package httpserver

import (
	"log/slog"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime"
)

// heapSampleRate is Go's default: one sampled allocation per 512 KiB.
const heapSampleRate = 512 << 10

// StartProfiler serves Go's profiler on PPROF_ADDR (such as 127.0.0.1:6060) when that is set.
// It listens on its own address so that it is never reachable through the public port.
//
// The images run with GODEBUG=memprofilerate=0: sampling allocations for a heap profile nobody
// reads cost each service about a megabyte. With a profiler asked for, sampling comes back on
// here, so heap profiles cover everything allocated from now on.
func StartProfiler(logger *slog.Logger) {
	addr := os.Getenv("PPROF_ADDR")
	if addr == "" {
		return
	}
	if runtime.MemProfileRate == 0 {
		runtime.MemProfileRate = heapSampleRate
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/heap", pprof.Index)
	go func() {
		logger.Info("profiler listening", "addr", addr)
		if err := http.ListenAndServe(addr, mux); err != nil {
			logger.Warn("profiler stopped", "err", err)
		}
	}()
}
