package ports_test

import (
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/vision/internal/ports"
)

// Vision's public routes (the AI calls and product lookup) are the paths api/openapi.yaml
// gives it (the gateway forwards them unchanged): one added on either side alone fails here.
func TestRoutesAreTheSpecs(t *testing.T) {
	r := gin.New()
	ports.RegisterRoutes(r, nil)
	ports.RegisterLookupRoutes(r, ports.Lookups{})
	testenv.RoutesMatchSpec(t, r, "vision")
}
