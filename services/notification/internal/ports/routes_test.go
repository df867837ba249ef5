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

// Notification's public routes (the live stream, notices, push, preferences, unsubscribe)
// are the paths api/openapi.yaml gives it (the gateway forwards or relays them unchanged):
// one added on either side alone fails here.
func TestRoutesAreTheSpecs(t *testing.T) {
	r := gin.New()
	ports.Routes(r, nil, httpserver.NewStreamGate(prometheus.NewRegistry(), httpserver.StreamLimits{Max: 1}), context.Background())
	ports.PreferenceRoutes(r, nil)
	ports.PushRoutes(r, ports.PushConfig{})
	testenv.RoutesMatchSpec(t, r, "notification")
}
