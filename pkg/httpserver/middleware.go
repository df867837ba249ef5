package httpserver

import (
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/observability"
)

// RequestIDHeader carries a request's id across services and into every log line.
const RequestIDHeader = "X-Request-Id"

const loggerKey = "httpserver.logger"

// safeRequestID is whether a caller's request id may be kept: 1 to 64 of A-Z a-z 0-9 . _ -
// (what a log line and a header carry safely). A loop, not a regexp: every request of every
// service asks, and the regexp cost microseconds per id.
func safeRequestID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}

func requestID() gin.HandlerFunc {
	return func(c *gin.Context) {
		id := c.GetHeader(RequestIDHeader)
		if !safeRequestID(id) {
			id = uuid.NewString()
			c.Request.Header.Set(RequestIDHeader, id)
		}
		c.Header(RequestIDHeader, id)
		c.Set(RequestIDHeader, id)
		c.Next()
	}
}

// Logger returns the request's logger (tagged with its request id).
func Logger(c *gin.Context) *slog.Logger {
	if l, ok := c.Get(loggerKey); ok {
		if logger, ok := l.(*slog.Logger); ok {
			return logger
		}
	}
	// Made on first use: most requests log nothing but their summary line, and tagging a
	// logger costs an allocation of its own.
	if b, ok := c.Get(baseLoggerKey); ok {
		if base, ok := b.(*slog.Logger); ok {
			logger := base.With("request_id", c.GetString(RequestIDHeader))
			c.Set(loggerKey, logger)
			return logger
		}
	}
	return slog.Default()
}

// baseLoggerKey holds the service's logger, which Logger tags with the request id.
const baseLoggerKey = "httpserver.baseLogger"

func recovery(logger *slog.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					// A proxied stream whose client went away: nothing to answer, nothing to log.
					c.Abort()
					return
				}
				logger.Error("panic while serving", "panic", r, "path", c.Request.URL.Path,
					"request_id", c.GetString(RequestIDHeader), "stack", string(debug.Stack()))
				// Never leak the panic value: it may hold internals.
				Abort(c, http.StatusInternalServerError, "internal", "Something went wrong on our side. Please try again.")
			}
		}()
		c.Next()
	}
}

func observe(logger *slog.Logger, m *observability.HTTPMetrics, release *idleRelease) gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		if !isProbe(c.Request.URL.Path) {
			release.seen(start) // probes and scrapes allocate next to nothing
		}
		c.Set(baseLoggerKey, logger)
		m.InFlight.Inc()
		c.Next()
		m.InFlight.Dec()

		route := c.FullPath()
		if route == "" {
			route = "unmatched"
		}
		status := c.Writer.Status()
		elapsed := time.Since(start)
		m.Requests.WithLabelValues(c.Request.Method, route, strconv.Itoa(status)).Inc()
		m.Duration.WithLabelValues(c.Request.Method, route).Observe(elapsed.Seconds())
		if isProbe(route) {
			return
		}
		level := slog.LevelInfo
		if status >= 500 && !c.GetBool(shedKey) {
			level = slog.LevelError
		}
		if !logger.Enabled(c.Request.Context(), level) {
			return // the attributes below would be built for nothing
		}
		Logger(c).Log(c.Request.Context(), level, "request",
			"method", c.Request.Method, "route", route, "status", status,
			"duration_ms", float64(elapsed.Microseconds())/1000, "bytes", c.Writer.Size())
	}
}

func notFound(c *gin.Context) {
	Abort(c, http.StatusNotFound, "not_found", "Nothing lives at this address.")
}

func isProbe(path string) bool { return path == "/healthz" || path == "/readyz" || path == "/metrics" }
