package ports_test

import (
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/media/internal/ports"
)

// Media's public routes are the paths api/openapi.yaml gives it (the gateway forwards them
// unchanged), and its /internal/ routes those api/internal.yaml gives it (registered by the
// generated RegisterHandlers, so this fails only for one added by hand): one added on either
// side alone fails here.
func TestRoutesAreTheSpecs(t *testing.T) {
	r := gin.New()
	ports.RegisterRoutes(r, nil, nil)
	testenv.RoutesMatchSpec(t, r, "media")
	testenv.InternalRoutesMatchSpec(t, r, "media")
}
