// Command family owns families, their invitations and Secret Santa draws, and announces every
// change through the transactional outbox.
package main

import (
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/family/internal/service"
)

func main() {
	httpserver.RunMain("family", service.LoadConfig, service.Build)
}
