// Command notification keeps each user's notices and pushes live updates (wishlist count,
// Santa's answer) to every open device of that user.
package main

import (
	"log/slog"
	"os"

	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/logging"
	"github.com/santa-wishlist/santa/services/notification/internal/service"
)

func main() {
	env := config.New()
	logger := logging.New("notification", env.String("LOG_LEVEL", "info"))
	cfg := service.LoadConfig(env)
	if err := env.Err(); err != nil {
		fail(logger, err)
	}
	ctx, stop := httpserver.SignalContext()
	defer stop()
	srv, err := service.Build(ctx, cfg, logger)
	if err != nil {
		fail(logger, err)
	}
	if err := srv.Run(ctx); err != nil {
		fail(logger, err)
	}
}

func fail(logger *slog.Logger, err error) {
	logger.Error("notification stopped", "err", err)
	os.Exit(1)
}
