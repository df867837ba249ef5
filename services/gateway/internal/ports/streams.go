package ports

import (
	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/gateway/internal/domain"
)

// StreamConfig bounds the live streams this gateway pod forwards.
type StreamConfig struct {
	httpserver.StreamLimits
	// OpensPerIP is how many stream opens one address may make per minute. A household
	// behind one router or a school opening the app at once is one address, so it is set for
	// many people; each user is held to the per-user limit as for any other request.
	OpensPerIP int64
}

// rateLimitStreamOpens counts a stream open against its user's limit, like every request;
// its address was already counted by limitIP, in the stream opens' own scope.
func rateLimitStreamOpens(limiter domain.RateLimiter, perUser int64, refused *prometheus.CounterVec) gin.HandlerFunc {
	return limitUser(limiter, RateLimits{PerUser: perUser}, refused)
}
