// Command media accepts images (uploads or data: URLs), keeps only their pixels, makes
// thumbnails, stores both in MinIO, serves them, and deletes them with their item.
package main

import (
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/media/internal/service"
)

func main() {
	httpserver.RunMain("media", service.LoadConfig, service.Build)
}
