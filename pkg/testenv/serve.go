package testenv

import (
	"context"
	"sync"
	"testing"

	"github.com/santa-wishlist/santa/pkg/httpserver"
)

// Serve builds a service with build (as its main would, but in-process), serves it on a free
// local port and returns its base URL and a stop function that shuts it down gracefully.
// The service is stopped when the test ends, if the test did not stop it first.
func Serve(t testing.TB, build func(context.Context) (*httpserver.Server, error)) (string, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := build(ctx)
	if err != nil {
		cancel()
		t.Fatalf("build service: %v", err)
	}
	addr, err := srv.Listen()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = srv.Run(ctx); close(done) }()
	var once sync.Once
	stop := func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	return "http://" + addr.String(), stop
}
