// Command gateway is the only public entry: it serves the web app, verifies Firebase ID
// tokens, applies rate limits and forwards to the internal services.
package main

import (
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/gateway/internal/service"
)

func main() {
	httpserver.RunMain("gateway", service.LoadConfig, service.Build)
}
