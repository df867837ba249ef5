// Command media accepts images (uploads or data: URLs), keeps only their pixels, makes
// thumbnails, stores both in MinIO, serves them, and deletes them with their item.
package main

import (
	"log/slog"
	"os"

	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/logging"
	"github.com/santa-wishlist/santa/services/media/internal/service"
)

func main() {
	env := config.New()
	logger := logging.New("media", env.String("LOG_LEVEL", "info"))
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
	logger.Error("media stopped", "err", err)
	os.Exit(1)
}
