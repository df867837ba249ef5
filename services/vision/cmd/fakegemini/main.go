// Command fakegemini serves the fake Gemini API for the local stack and end-to-end tests, so
// the product shows a working AI without internet. It listens on FAKE_GEMINI_ADDR (default
// 127.0.0.1:8095) and accepts the key in FAKE_GEMINI_API_KEY (any key when unset). Point the
// vision service at it with GEMINI_BASE_URL=http://127.0.0.1:8095. Tests in other processes
// steer it through /_fake/replies, /_fake/always, /_fake/requests and /_fake/reset.
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

	"github.com/santa-wishlist/santa/services/vision/internal/fakegemini"
)

func main() {
	logger := slog.New(slog.NewJSONHandler(os.Stdout, nil)).With("service", "fakegemini")
	addr := os.Getenv("FAKE_GEMINI_ADDR")
	if addr == "" {
		addr = "127.0.0.1:8095"
	}
	srv := &http.Server{
		Addr:              addr,
		Handler:           fakegemini.New(os.Getenv("FAKE_GEMINI_API_KEY"), fakegemini.WithControl()),
		ReadHeaderTimeout: 10 * time.Second,
	}
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
		logger.Error("fakegemini stopped", "err", err)
		os.Exit(1)
	}
}
