// Package server runs one of the fakes of the internet (cmd/fakegemini, cmd/fakeproducts) as
// a command for the local stack, the cluster and end-to-end tests.
package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Run serves handler on the address in addrEnv (defaultAddr when unset) until SIGTERM or
// Ctrl-C; a failure to serve ends the process with status 1.
func Run(name, addrEnv, defaultAddr string, handler http.Handler) {
	logger := slog.New(slog.NewJSONHandler(os.Stdout, nil)).With("service", name)
	addr := os.Getenv(addrEnv)
	if addr == "" {
		addr = defaultAddr
	}
	srv := &http.Server{Addr: addr, Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	logger.Info("listening", "addr", addr)
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		logger.Error(name+" stopped", "err", err)
		os.Exit(1)
	}
}
