// Package storetest gives media's tests a MinIO store on a fresh bucket of the test MinIO
// server (fakes/miniotest), dropped when the test ends. Only tests import it, so it is not in
// the service's binary.
package storetest

import (
	"testing"

	"github.com/santa-wishlist/santa/fakes/miniotest"
	"github.com/santa-wishlist/santa/services/media/internal/adapters"
)

// New returns a store on a fresh bucket, and the configuration it was made with.
func New(t testing.TB) (*adapters.MinIOStore, adapters.MinIOConfig) {
	t.Helper()
	cfg := adapters.MinIOConfig(miniotest.Bucket(t))
	store, err := adapters.NewMinIOStore(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return store, cfg
}
