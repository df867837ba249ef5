// Command vision identifies gifts in photos and writes wishlist entries with Gemini, so the
// API key stays on the server. It caches answers by image, limits calls per user and per
// address each day, and answers the spec's fallback item when no key is configured.
package main

import (
	"log/slog"
	"os"

	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/logging"
	"github.com/santa-wishlist/santa/services/vision/internal/service"
)

func main() {
	env := config.New()
	logger := logging.New("vision", env.String("LOG_LEVEL", "info"))
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
	logger.Error("vision stopped", "err", err)
	os.Exit(1)
}
