// Command wishlist owns the wishlist items: it validates, stores and lists them, and announces
// every change through the transactional outbox.
package main

import (
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/wishlist/internal/service"
)

func main() {
	httpserver.RunMain("wishlist", service.LoadConfig, service.Build)
}
