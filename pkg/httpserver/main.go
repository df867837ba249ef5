package httpserver

import (
	"context"
	"log/slog"
	"os"

	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/logging"
)

// RunMain is a service's whole main: read and check the configuration, build the server and
// serve until SIGTERM or Ctrl-C. Any failure ends the process with status 1 and one log line
// that says why, so an operator reads the cause in the pod's last log.
func RunMain[C any](service string, load func(*config.Env) C, build func(context.Context, C, *slog.Logger) (*Server, error)) {
	env := config.New()
	logger := logging.New(service, env.String("LOG_LEVEL", "info"))
	fail := func(err error) {
		logger.Error(service+" stopped", "err", err)
		os.Exit(1)
	}
	cfg := load(env)
	if err := env.Err(); err != nil {
		fail(err)
	}
	ctx, stop := SignalContext()
	defer stop()
	srv, err := build(ctx, cfg, logger)
	if err != nil {
		fail(err)
	}
	if err := srv.Run(ctx); err != nil {
		fail(err)
	}
}
