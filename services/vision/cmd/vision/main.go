// Command vision identifies gifts in photos and writes wishlist entries with Gemini, so the
// API key stays on the server. It caches answers by image, limits calls per user and per
// address each day, and answers the spec's fallback item (docs/spec.md, section 8: error
// catalogue, "AI") when no key is configured.
package main

import (
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/vision/internal/service"
)

func main() {
	httpserver.RunMain("vision", service.LoadConfig, service.Build)
}
