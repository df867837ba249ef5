// Command notification keeps each user's notices and pushes live updates (wishlist count,
// Santa's answer) to every open device of that user.
package main

import (
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/notification/internal/service"
)

func main() {
	httpserver.RunMain("notification", service.LoadConfig, service.Build)
}
