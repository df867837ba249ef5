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
	// HSTS is the Strict-Transport-Security value for answers over HTTPS ("": none).
	HSTS     string
	Registry prometheus.Registerer
	Streams  StreamConfig
	// Lifetime ends when the gateway shuts down; the live streams it relays end with it.
	Lifetime context.Context
}

// proxiedRoute is a row of routes.gen.go's table: a route forwarded unchanged to its service.
type proxiedRoute struct {
	method, path, service string
	// signedIn requires a verified token; otherwise anyone may call, and a token sent is still
	// verified (the service then knows who asks).
	signedIn bool
	// bodyLimit is the largest body in bytes (413 past it); 0 for a GET, which has none.
	bodyLimit int64
	// idempotent: a repeated Idempotency-Key replays the first answer instead of acting twice.
	idempotent bool
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
	r.Use(securityHeaders(contentSecurityPolicy(d.WebConfig), d.HSTS), limitIP(d.Limiter, d.Limits, d.Streams.OpensPerIP, refused))
	signedIn := []gin.HandlerFunc{d.Verifier.Authenticate(true), limitUser(d.Limiter, d.Limits, refused)}
	anyone := []gin.HandlerFunc{d.Verifier.Authenticate(false), limitUser(d.Limiter, d.Limits, refused)}
	with := func(chain []gin.HandlerFunc, more ...gin.HandlerFunc) []gin.HandlerFunc {
		return append(append([]gin.HandlerFunc{}, chain...), more...)
	}
	upstreams := map[string]gin.HandlerFunc{
		"wishlist":     forward(d.Upstreams.Wishlist, "wishlist", d.Identity, false),
		"vision":       forward(d.Upstreams.Vision, "vision", d.Identity, false),
		"media":        forward(d.Upstreams.Media, "media", d.Identity, false),
		"notification": forward(d.Upstreams.Notification, "notification", d.Identity, true),
		"family":       forward(d.Upstreams.Family, "family", d.Identity, false),
	}
	once := idempotent(d.Idempotency)

	// Every route api/openapi.yaml does not mark by-hand: routes.gen.go, made from the spec's
	// x-service, security, x-body-limit and x-idempotent (make generate).
	for _, rt := range proxiedRoutes {
		upstream, ok := upstreams[rt.service]
		if !ok {
			panic("api/openapi.yaml routes " + rt.method + " " + rt.path + " to " + rt.service + ", which the gateway has no upstream for")
		}
		who := anyone
		if rt.signedIn {
			who = signedIn
		}
		chain := with(who)
		if rt.bodyLimit > 0 {
			chain = append(chain, limitBody(rt.bodyLimit))
		}
		if rt.idempotent {
			chain = append(chain, once)
		}
		r.Handle(rt.method, rt.path, append(chain, upstream)...)
	}

	// By hand, each for the reason beside it (x-gateway: by-hand or x-service: gateway in the spec).
	// The gateway's own answer: what the browser needs to start Firebase.
	r.GET("/api/config", func(c *gin.Context) {
		c.Header("Cache-Control", "no-cache")
		c.JSON(http.StatusOK, d.WebConfig)
	})
	// A signed-out visitor's home screen asks too: it simply has nothing recent, answered here.
	r.GET("/api/wishlist/recent", with(anyone, func(c *gin.Context) {
		if _, ok := auth.UserFrom(c); !ok {
			c.JSON(http.StatusOK, []any{})
			c.Abort()
		}
	}, upstreams["wishlist"])...)
	// Photos: no token is read (the signed address is the permission) and no per-user limit.
	r.GET("/media/*key", upstreams["media"])
	r.HEAD("/media/*key", upstreams["media"])
	// A stream is admitted (503 past the pod's ceiling or in a reconnect storm) before its
	// token is verified, so refusing costs next to nothing; its opens have a limit of their own
	// and it is relayed rather than proxied; see streams.go.
	r.GET(streamPath, httpserver.NewStreamGate(d.Registry, d.Streams.StreamLimits).Admit(),
		d.Verifier.Authenticate(true), rateLimitStreamOpens(d.Limiter, d.Limits.PerUser, refused), relayStream(d.Lifetime, d.Upstreams.Notification, d.Identity))
	// The gateway's own answer: a copy of everything the user keeps with us, gathered from every service.
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
