package ports

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/auth/firebaseauth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/gateway/internal/domain"
)

// Body limits: JSON calls are small; calls that may carry a photo get room for one.
const (
	SmallBodyLimit = 1 << 20
	PhotoBodyLimit = 12 << 20
)

// Upstreams are the internal services' base URLs.
type Upstreams struct {
	Wishlist, Vision, Media, Notification, Family string
}

// WebConfig is what the browser needs to start Firebase: public values only, never a secret.
type WebConfig struct {
	Firebase struct {
		APIKey     string `json:"apiKey"`
		AuthDomain string `json:"authDomain"`
		ProjectID  string `json:"projectId"`
	} `json:"firebase"`
	AuthEmulatorURL string `json:"authEmulatorUrl"`
}

// Deps are what the routes need.
type Deps struct {
	Verifier    *firebaseauth.Verifier
	Limiter     domain.RateLimiter
	Limits      RateLimits
	Idempotency domain.IdempotencyStore
	Upstreams   Upstreams
	// Identity signs each internal call's assertion of the verified user (zero trust between
	// services: they refuse calls without one).
	Identity  *auth.IdentitySigner
	WebDir    string
	WebConfig WebConfig
	Registry  prometheus.Registerer
	Streams   StreamConfig
	// Lifetime ends when the gateway shuts down; the live streams it relays end with it.
	Lifetime context.Context
}

// streamPath is the live stream's route; its opens have a per-address allowance of their own.
const streamPath = "/api/notifications/stream"

// Routes registers the public API and the web app.
func Routes(r *gin.Engine, d Deps) {
	refused := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "rate_limited_total", Help: "Requests refused by a rate limit, by scope.",
	}, []string{"scope"})
	d.Registry.MustRegister(refused)
	// Every scope is exported from the start, at 0: the dashboard's panel and any rule then read
	// "nothing refused" rather than "no data" until a limit is first hit.
	for _, scope := range []string{"ip", "stream-ip", "user"} {
		refused.WithLabelValues(scope)
	}

	// Every route (the API, /media/ and the web app) is counted per IP first, before a token
	// is even looked at; /healthz, registered by httpserver, stays out of it for the probes.
	r.Use(securityHeaders(contentSecurityPolicy(d.WebConfig)), limitIP(d.Limiter, d.Limits, d.Streams.OpensPerIP, refused))
	signedIn := []gin.HandlerFunc{d.Verifier.Authenticate(true), limitUser(d.Limiter, d.Limits, refused)}
	anyone := []gin.HandlerFunc{d.Verifier.Authenticate(false), limitUser(d.Limiter, d.Limits, refused)}
	with := func(chain []gin.HandlerFunc, more ...gin.HandlerFunc) []gin.HandlerFunc {
		return append(append([]gin.HandlerFunc{}, chain...), more...)
	}
	small, photo := limitBody(SmallBodyLimit), limitBody(PhotoBodyLimit)
	once := idempotent(d.Idempotency)
	wishlist := forward(d.Upstreams.Wishlist, "wishlist", d.Identity, false)

	r.GET("/api/config", func(c *gin.Context) {
		c.Header("Cache-Control", "no-cache")
		c.JSON(http.StatusOK, d.WebConfig)
	})

	r.POST("/api/wishlist", with(signedIn, photo, once, wishlist)...)
	r.GET("/api/wishlist", with(signedIn, wishlist)...)
	// A signed-out visitor's home screen asks too: it simply has nothing recent.
	r.GET("/api/wishlist/recent", with(anyone, func(c *gin.Context) {
		if _, ok := auth.UserFrom(c); !ok {
			c.JSON(http.StatusOK, []any{})
			c.Abort()
		}
	}, wishlist)...)
	r.DELETE("/api/wishlist/:id", with(signedIn, small, wishlist)...)
	r.POST("/api/santa", with(signedIn, photo, once, wishlist)...)
	listRoutes(r, signedIn, anyone, with, wishlist, once, small, photo)
	familiesRoutes(r, signedIn, anyone, with, forward(d.Upstreams.Family, "family", d.Identity, false), once, small)

	vision := forward(d.Upstreams.Vision, "vision", d.Identity, false)
	r.POST("/api/vision/analyze", with(anyone, photo, vision)...)
	r.POST("/api/vision/generate", with(anyone, photo, vision)...)
	// Product lookups reach the internet from vision: a barcode for anyone, like
	// the AI calls, with vision's daily lookup quotas behind the per-IP limit.
	r.POST("/api/lookup/barcode", with(anyone, small, vision)...)
	// A shop link, or a scanned product's picture, is imported for a signed-in user only: the
	// picture is stored as theirs.
	r.POST("/api/lookup/barcode/image", with(signedIn, small, vision)...)
	r.POST("/api/lookup/url", with(signedIn, small, vision)...)

	media := forward(d.Upstreams.Media, "media", d.Identity, false)
	r.POST("/api/media", with(signedIn, photo, once, media)...)
	r.GET("/media/*key", media)
	r.HEAD("/media/*key", media)

	notification := forward(d.Upstreams.Notification, "notification", d.Identity, true)
	// A stream is admitted (503 past the pod's ceiling or in a reconnect storm) before its
	// token is verified, so refusing costs next to nothing; see streams.go.
	r.GET(streamPath, httpserver.NewStreamGate(d.Registry, d.Streams.StreamLimits).Admit(),
		d.Verifier.Authenticate(true), rateLimitStreamOpens(d.Limiter, d.Limits.PerUser, refused), relayStream(d.Lifetime, d.Upstreams.Notification, d.Identity))
	r.GET("/api/notifications", with(signedIn, notification)...)
	// Web Push: the server's VAPID key, and each device's subscription (saved, removed at sign-out).
	r.GET("/api/push/key", with(signedIn, notification)...)
	r.POST("/api/push/subscriptions", with(signedIn, small, notification)...)
	r.DELETE("/api/push/subscriptions", with(signedIn, small, notification)...)
	// Which notices reach the user by push and by email.
	r.GET("/api/notifications/preferences", with(signedIn, notification)...)
	r.PUT("/api/notifications/preferences", with(signedIn, small, notification)...)
	// One-click unsubscribe (RFC 8058): the mail program POSTs without any sign-in; the token
	// in the address is the only key. A browser opening it is sent to the app's page.
	r.GET("/api/unsubscribe/:token", with(anyone, notification)...)
	r.POST("/api/unsubscribe/:token", with(anyone, small, notification)...)
	// A copy of everything the user keeps with us, gathered from every service.
	r.GET("/api/account/export", with(signedIn, exportAccount(d.Upstreams, d.Identity))...)

	r.NoRoute(webApp(d.WebDir))
}

// contentSecurityPolicy allows our own origin, plus what Firebase sign-in needs: the Auth
// emulator in development, Google's identity endpoints and the project's auth domain otherwise.
func contentSecurityPolicy(wc WebConfig) string {
	// The Firebase SDK loads Google's gapi script for popup sign-in, with the emulator too.
	connect, frame, script := "'self'", "'none'", "'self' https://apis.google.com"
	if wc.AuthEmulatorURL != "" {
		connect += " " + wc.AuthEmulatorURL
		frame = wc.AuthEmulatorURL
	} else {
		connect += " https://identitytoolkit.googleapis.com https://securetoken.googleapis.com https://www.googleapis.com"
		frame = "https://" + wc.Firebase.AuthDomain
	}
	// img-src allows https: because the add form takes an image URL from anywhere.
	return "default-src 'self'; script-src " + script + "; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: blob: https:; media-src 'self' blob: data:; font-src 'self'; " +
		"connect-src " + connect + "; frame-src " + frame + "; worker-src 'self'; " +
		"manifest-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
}

// listRoutes are the wishlist service's lists: lists, item editing, share links, claims, and
// the account, whose deletion records the wishlist keeps.
// A shared list opens for visitors (per-IP limit; unknown and revoked tokens answer alike),
// everything else needs a signed-in user, so an anonymous claim is a 401 here.
func listRoutes(r *gin.Engine, signedIn, anyone []gin.HandlerFunc,
	with func([]gin.HandlerFunc, ...gin.HandlerFunc) []gin.HandlerFunc, wishlist, once, small, photo gin.HandlerFunc) {
	r.PATCH("/api/wishlist/:id", with(signedIn, photo, wishlist)...)
	r.GET("/api/lists", with(signedIn, wishlist)...)
	r.POST("/api/lists", with(signedIn, small, once, wishlist)...)
	r.PATCH("/api/lists/:id", with(signedIn, small, wishlist)...)
	r.DELETE("/api/lists/:id", with(signedIn, small, wishlist)...)
	r.POST("/api/lists/:id/managers", with(signedIn, small, wishlist)...)
	r.DELETE("/api/lists/:id/managers/:uid", with(signedIn, small, wishlist)...)
	r.POST("/api/lists/:id/share", with(signedIn, small, wishlist)...)
	r.DELETE("/api/lists/:id/share", with(signedIn, small, wishlist)...)
	r.GET("/api/shared/:token", with(anyone, wishlist)...)
	r.PUT("/api/shared/:token/items/:itemId/claim", with(signedIn, small, wishlist)...)
	r.DELETE("/api/shared/:token/items/:itemId/claim", with(signedIn, small, wishlist)...)
	r.GET("/api/claims", with(signedIn, wishlist)...)
	r.POST("/api/shared/:token/suggestions", with(signedIn, small, once, wishlist)...)
	r.PATCH("/api/shared/:token/suggestions/:itemId", with(signedIn, small, wishlist)...)
	r.DELETE("/api/shared/:token/suggestions/:itemId", with(signedIn, small, wishlist)...)
	// Giving together, budgets and thanks (docs/family.md).
	r.POST("/api/shared/:token/items/:itemId/group-gift", with(signedIn, small, once, wishlist)...)
	r.DELETE("/api/shared/:token/items/:itemId/group-gift", with(signedIn, small, wishlist)...)
	r.PUT("/api/shared/:token/items/:itemId/pledge", with(signedIn, small, wishlist)...)
	r.DELETE("/api/shared/:token/items/:itemId/pledge", with(signedIn, small, wishlist)...)
	r.GET("/api/budgets", with(signedIn, wishlist)...)
	r.PUT("/api/budgets/:key", with(signedIn, small, wishlist)...)
	r.DELETE("/api/budgets/:key", with(signedIn, small, wishlist)...)
	r.POST("/api/wishlist/:id/thanks", with(signedIn, small, once, wishlist)...)
	r.GET("/api/gifts/given", with(signedIn, wishlist)...)
	// The account: the wishlist keeps the deletion records.
	r.GET("/api/account", with(signedIn, wishlist)...)
	r.DELETE("/api/account", with(signedIn, small, wishlist)...)
}

// familiesRoutes are the family service's: families, invitations, Secret Santa. The
// invitation's accept page reads who invited before the visitor signs in (per-IP limit; an
// unknown and an expired token answer alike); everything else needs a signed-in user.
func familiesRoutes(r *gin.Engine, signedIn, anyone []gin.HandlerFunc,
	with func([]gin.HandlerFunc, ...gin.HandlerFunc) []gin.HandlerFunc, family, once, small gin.HandlerFunc) {
	r.POST("/api/families", with(signedIn, small, once, family)...)
	r.GET("/api/families", with(signedIn, family)...)
	r.GET("/api/families/:id", with(signedIn, family)...)
	r.POST("/api/families/:id/invites", with(signedIn, small, once, family)...)
	r.GET("/api/families/:id/invites", with(signedIn, family)...)
	r.DELETE("/api/families/:id/invites/:token", with(signedIn, small, family)...)
	r.PATCH("/api/families/:id/members/:uid", with(signedIn, small, family)...)
	r.DELETE("/api/families/:id/members/:uid", with(signedIn, small, family)...)
	r.POST("/api/families/:id/secret-santa", with(signedIn, small, family)...)
	r.GET("/api/families/:id/secret-santa", with(signedIn, family)...)
	r.PATCH("/api/families/:id/secret-santa", with(signedIn, small, family)...)
	// Secret Santa conversations; a retried message with the same Idempotency-Key is sent once.
	r.POST("/api/families/:id/secret-santa/messages", with(signedIn, small, once, family)...)
	r.GET("/api/families/:id/secret-santa/messages", with(signedIn, family)...)
	r.GET("/api/invites/:token", with(anyone, family)...)
	r.POST("/api/invites/:token/accept", with(signedIn, small, family)...)
}
