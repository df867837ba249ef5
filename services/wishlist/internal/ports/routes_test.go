package ports_test

import (
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/wishlist/internal/ports"
)

// The wishlist's public routes are the paths api/openapi.yaml gives it (the gateway forwards
// them unchanged): one added on either side alone fails here.
func TestRoutesAreTheSpecs(t *testing.T) {
	r := gin.New()
	ports.Routes(r, nil, nil)
	ports.AccountRoutes(r, nil)
	testenv.RoutesMatchSpec(t, r, "wishlist")
}
