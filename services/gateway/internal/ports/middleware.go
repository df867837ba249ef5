// Package ports is the gateway's public HTTP surface: security headers, limits, token
// verification, idempotency, forwarding, and the web app.
package ports

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/gateway/internal/domain"
)

// StrictTransportSecurity is the Strict-Transport-Security header's value for HSTS_MAX_AGE and
// HSTS_INCLUDE_SUBDOMAINS, or "" (no header) for a max-age of 0. The header is the gateway's,
// not the ingress controller's, so that HSTS comes with the app behind any ingress.
func StrictTransportSecurity(maxAge time.Duration, includeSubdomains bool) string {
	if maxAge <= 0 {
		return ""
	}
	v := "max-age=" + strconv.FormatInt(int64(maxAge/time.Second), 10)
	if includeSubdomains {
		v += "; includeSubDomains"
	}
	return v
}

// securityHeaders applies to every answer. The CSP allows only our own origin (plus the Auth
// emulator in development), because the app loads nothing from third-party hosts. hsts (see
// StrictTransportSecurity) is sent only on answers that came over HTTPS: browsers ignore it over
// plain HTTP, and a development stack without TLS must not be pinned to HTTPS. Behind an ingress
// that ends TLS, X-Forwarded-Proto says so; a client that forges it over plain HTTP only gets a
// header its browser ignores.
func securityHeaders(csp, hsts string) gin.HandlerFunc {
	return func(c *gin.Context) {
		h := c.Writer.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("Permissions-Policy", "camera=(self), microphone=(), geolocation=()")
		// Google sign-in opens a popup that must be able to report back to the opener.
		h.Set("Cross-Origin-Opener-Policy", "same-origin-allow-popups")
		h.Set("Content-Security-Policy", csp)
		if hsts != "" && (c.Request.TLS != nil || c.GetHeader("X-Forwarded-Proto") == "https") {
			h.Set("Strict-Transport-Security", hsts)
		}
		c.Next()
	}
}

// limitBody refuses bodies over max with 413 before anything reads them.
func limitBody(max int64) gin.HandlerFunc {
	return func(c *gin.Context) {
		if c.Request.ContentLength > max {
			// In the words the services use for the same limit (httpserver.DecodeJSON), so the
			// answer does not depend on which of the two refused.
			limit := fmt.Sprintf("%d bytes", max)
			if max%(1<<20) == 0 {
				limit = fmt.Sprintf("%d MB", max>>20)
			}
			httpserver.Abort(c, http.StatusRequestEntityTooLarge, "too_large",
				fmt.Sprintf("The request is too large (the limit is %s).", limit))
			return
		}
		if c.Request.Body != nil {
			// Catches chunked bodies that declare no length; the proxy turns the read error
			// into a 413.
			c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, max)
		}
		c.Next()
	}
}

// RateLimits are the per-minute allowances.
type RateLimits struct {
	PerIP   int64
	PerUser int64
}

// limitIP counts every request per client IP before anything else looks at it: a request with
// a bad token, a /media/ download or a web app file is counted like any other, so none of them
// is a free way to hammer the gateway or what stands behind it. The limiter answers from
// memory and shares its counts through Redis in the background, so a Redis outage neither
// slows requests nor lifts the limits. The spec's x-rate-class says which allowance a route's
// requests count against (rateClasses, generated): live stream opens have one of their own
// ("stream-ip", see StreamConfig.OpensPerIP), as a household or a school behind one address
// opens many at once, and must not use up the per-address limit meant for one person's
// requests.
func limitIP(limiter domain.RateLimiter, limits RateLimits, streamOpensPerIP int64, refused *prometheus.CounterVec) gin.HandlerFunc {
	return func(c *gin.Context) {
		l := domain.Limit{Scope: "ip", Key: c.ClientIP(), Max: limits.PerIP}
		if rateClasses[[2]string{c.Request.Method, c.FullPath()}] == StreamsRateClass {
			l = domain.Limit{Scope: "stream-ip", Key: c.ClientIP(), Max: streamOpensPerIP}
		}
		check(c, limiter, refused, l)
	}
}

// limitUser counts a signed-in request per user, after its token was verified.
func limitUser(limiter domain.RateLimiter, limits RateLimits, refused *prometheus.CounterVec) gin.HandlerFunc {
	return func(c *gin.Context) {
		u, ok := auth.UserFrom(c)
		if !ok {
			c.Next()
			return
		}
		check(c, limiter, refused, domain.Limit{Scope: "user", Key: u.UID, Max: limits.PerUser})
	}
}

func check(c *gin.Context, limiter domain.RateLimiter, refused *prometheus.CounterVec, l domain.Limit) {
	verdict := limiter.Allow(time.Now(), l)
	if !verdict.Allowed {
		refused.WithLabelValues(verdict.Scope).Inc()
		c.Header("Retry-After", strconv.Itoa(int(verdict.RetryAfter.Seconds()+0.999)))
		httpserver.Abort(c, http.StatusTooManyRequests, "rate_limited",
			"Too many requests. Please wait a moment and try again.")
		return
	}
	c.Next()
}

// teeWriter copies what the handler writes, to keep it for idempotent replay.
type teeWriter struct {
	gin.ResponseWriter
	body bytes.Buffer
}

func (w *teeWriter) Write(b []byte) (int, error) {
	if w.body.Len() < 1<<20 {
		w.body.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// IdempotencyHeader is the header a client sets to make a POST safe to repeat.
const IdempotencyHeader = "Idempotency-Key"

// idempotent replays the stored answer for a repeated Idempotency-Key of the same user and
// the same request body; the same key with another body is refused (422), as the IETF
// Idempotency-Key draft asks, rather than answered with the first request's result.
func idempotent(store domain.IdempotencyStore) gin.HandlerFunc {
	return func(c *gin.Context) {
		key := c.GetHeader(IdempotencyHeader)
		if key == "" {
			c.Next()
			return
		}
		if len(key) > 200 {
			httpserver.Abort(c, http.StatusBadRequest, "bad_idempotency_key", "The Idempotency-Key header must be at most 200 characters.")
			return
		}
		u, _ := auth.UserFrom(c)
		scoped := u.UID + ":" + c.FullPath() + ":" + key
		stored, err := store.Begin(c.Request.Context(), u.UID, scoped)
		switch {
		case errors.Is(err, domain.ErrTooManyKeys):
			c.Header("Retry-After", "600")
			httpserver.Abort(c, http.StatusTooManyRequests, "too_many_idempotency_keys",
				"Too many new requests lately. Please wait a while and try again.")
			return
		case errors.Is(err, domain.ErrInProgress):
			c.Header("Retry-After", "1")
			httpserver.Abort(c, http.StatusConflict, "request_in_progress", "This request is already being processed. Please wait a moment.")
			return
		case err != nil:
			httpserver.Logger(c).Error("idempotency store unavailable", "err", err)
			httpserver.Abort(c, http.StatusServiceUnavailable, "unavailable", "Please try again shortly.")
			return
		case stored != nil:
			replay(c, stored)
			return
		}
		// The body is hashed as it streams to the service, so a photo is not held here.
		hash := sha256.New()
		body := c.Request.Body
		c.Request.Body = struct {
			io.Reader
			io.Closer
		}{io.TeeReader(body, hash), body}
		tee := &teeWriter{ResponseWriter: c.Writer}
		c.Writer = tee
		c.Next()
		status := tee.Status()
		// Our own failures (5xx) release the key so the client's retry runs again.
		if status >= 500 {
			_ = store.Abandon(c.Request.Context(), scoped)
			return
		}
		_, _ = io.Copy(hash, body) // whatever the service did not read (it may refuse early)
		if err := store.Finish(c.Request.Context(), scoped, domain.StoredResponse{
			Status: status, ContentType: tee.Header().Get("Content-Type"), Body: tee.body.Bytes(),
			RequestHash: hash.Sum(nil),
		}); err != nil {
			httpserver.Logger(c).Error("could not keep the answer for replay", "err", err)
		}
	}
}

// replay answers a repeated request with the stored answer, if it is the same request.
func replay(c *gin.Context, stored *domain.StoredResponse) {
	if stored.RequestHash != nil {
		hash := sha256.New()
		if _, err := io.Copy(hash, c.Request.Body); err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				httpserver.Abort(c, http.StatusRequestEntityTooLarge, "too_large", "The request is too large.")
				return
			}
			httpserver.Abort(c, http.StatusBadRequest, "unreadable_body", "The request body could not be read.")
			return
		}
		if !bytes.Equal(hash.Sum(nil), stored.RequestHash) {
			httpserver.Abort(c, http.StatusUnprocessableEntity, "idempotency_key_reused",
				"This Idempotency-Key was already used for a different request. Use a new key for a new request.")
			return
		}
	}
	c.Header("Idempotent-Replayed", "true")
	if stored.BodyHash != nil {
		// Only the status of a large answer was kept: say so rather than send half of it.
		c.Header("Idempotent-Body-Sha256", hex.EncodeToString(stored.BodyHash))
		c.JSON(stored.Status, gin.H{"idempotentReplay": true,
			"message": "This request was already processed; its full answer is no longer kept."})
		c.Abort()
		return
	}
	c.Data(stored.Status, stored.ContentType, stored.Body)
	c.Abort()
}
