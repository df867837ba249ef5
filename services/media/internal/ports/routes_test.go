package ports_test

import (
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/media/internal/ports"
)

// Media's public routes are the paths api/openapi.yaml gives it (the gateway forwards them
// unchanged): the upload generated, the stored objects by hand (oapi-codegen.yaml leaves them
// out), so the two together are held to the spec here. Its /internal/ routes are those
// api/internal.yaml gives it (registered by internalserver's generated RegisterHandlers, so this
// fails only for one added by hand).
func TestRoutesAreTheSpecs(t *testing.T) {
	r := gin.New()
	ports.RegisterRoutes(r, nil, nil)
	testenv.RoutesMatchSpec(t, r, "media")
	testenv.InternalRoutesMatchSpec(t, r, "media")
}
