// Command fakeproducts serves fake Open Food Facts, Open Products Facts and UPCitemdb APIs
// for the local stack and end-to-end tests (there is no internet here). It listens on
// FAKE_PRODUCTS_ADDR (default 127.0.0.1:8096); point the vision service at
// http://127.0.0.1:8096/openfoodfacts, /openproductsfacts and /upcitemdb. Tests steer it
// through /_fake/mode, /_fake/requests and /_fake/reset.
package main

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/santa-wishlist/santa/services/vision/internal/fakeproducts"
)

func main() {
	logger := slog.New(slog.NewJSONHandler(os.Stdout, nil)).With("service", "fakeproducts")
	addr := os.Getenv("FAKE_PRODUCTS_ADDR")
	if addr == "" {
		addr = "127.0.0.1:8096"
	}
	srv := &http.Server{Addr: addr, Handler: fakeproducts.New(true), ReadHeaderTimeout: 10 * time.Second}
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
		logger.Error("fakeproducts stopped", "err", err)
		os.Exit(1)
	}
}
