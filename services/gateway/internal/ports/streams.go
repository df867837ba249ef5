package ports

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/pkg/apierror"
	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/gateway/internal/adapters"
)

// StreamConfig bounds the live streams this gateway pod forwards.
type StreamConfig struct {
	httpserver.StreamLimits
	// OpensPerIP is how many stream opens one address may make per minute. A household
	// behind one router or a school opening the app at once is one address, so it is set for
	// many people; each user is held to the per-user limit as for any other request.
	OpensPerIP int64
}

// rateLimitStreamOpens counts a stream open against its user's limit, like every request, and
// against its address in a scope of its own ("stream-ip"), so a school's reconnecting phones
// neither hit the per-address limit meant for one person's requests nor use it up.
func rateLimitStreamOpens(limiter *adapters.RateLimiter, perUser, perIP int64, refused *prometheus.CounterVec) gin.HandlerFunc {
	return func(c *gin.Context) {
		checks := []adapters.Limit{{Scope: "stream-ip", Key: c.ClientIP(), Max: perIP}}
		if u, ok := auth.UserFrom(c); ok {
			checks = append(checks, adapters.Limit{Scope: "user", Key: u.UID, Max: perUser})
		}
		verdict := limiter.Allow(time.Now(), checks...)
		if !verdict.Allowed {
			refused.WithLabelValues(verdict.Scope).Inc()
			c.Header("Retry-After", strconv.Itoa(int(verdict.RetryAfter.Seconds()+0.999)))
			apierror.Abort(c, http.StatusTooManyRequests, "rate_limited",
				"Too many requests. Please wait a moment and try again.")
			return
		}
		c.Next()
	}
}
