package ports_test

import (
	"context"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/notification/internal/ports"
)

// Register's routes are generated from the spec, but the live stream is left out of the
// generated server (oapi-codegen.yaml) and registered by hand: together they must be exactly
// the paths api/openapi.yaml gives notification, so that the stream is neither lost nor
// served at a path of its own.
func TestRoutesAreTheSpecs(t *testing.T) {
	r := gin.New()
	ports.StreamRoute(r, nil, httpserver.NewStreamGate(prometheus.NewRegistry(), httpserver.StreamLimits{Max: 1}), context.Background())
	ports.Register(r, nil, nil, ports.PushConfig{})
	testenv.RoutesMatchSpec(t, r, "notification")
}
