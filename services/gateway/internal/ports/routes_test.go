package ports_test

import (
	"context"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/gateway/internal/ports"
)

// The gateway routes every path of api/openapi.yaml, and nothing under /api/ or /media/ that
// the spec does not document; each service's own test holds its routes to the paths the spec
// gives it (x-service), so a route exists in the spec, the gateway and its service, or fails.
func TestRoutesAreTheSpecs(t *testing.T) {
	r := gin.New()
	ports.Routes(r, ports.Deps{Registry: prometheus.NewRegistry(), Lifetime: context.Background()})
	testenv.RoutesMatchSpec(t, r, "")
}
