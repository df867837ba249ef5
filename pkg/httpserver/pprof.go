package httpserver

import (
	"log/slog"
	"net/http"
	"net/http/pprof"
	"os"
)

// StartProfiler serves Go's profiler on PPROF_ADDR (such as 127.0.0.1:6060) when that is set.
// It listens on its own address so that it is never reachable through the public port.
func StartProfiler(logger *slog.Logger) {
	addr := os.Getenv("PPROF_ADDR")
	if addr == "" {
		return
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
