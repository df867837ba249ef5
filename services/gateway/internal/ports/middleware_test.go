package ports

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
)

func TestStrictTransportSecurityValue(t *testing.T) {
	for _, c := range []struct {
		maxAge     time.Duration
		subdomains bool
		want       string
	}{
		{365 * 24 * time.Hour, true, "max-age=31536000; includeSubDomains"},
		{time.Hour, false, "max-age=3600"},
		{1500 * time.Millisecond, false, "max-age=1"}, // whole seconds, as the header counts
		{0, true, ""}, // HSTS_MAX_AGE=0 turns it off
	} {
		if got := StrictTransportSecurity(c.maxAge, c.subdomains); got != c.want {
			t.Errorf("StrictTransportSecurity(%s, %v) = %q, want %q", c.maxAge, c.subdomains, got, c.want)
		}
	}
}

// HSTS goes only on answers that came over HTTPS: TLS ended at the gateway itself, or at the
// ingress controller, which says so in X-Forwarded-Proto (Traefik sets it on every request it
// forwards). Over plain HTTP, or when the setting is off, there is none; the other security
// headers are there either way.
func TestHSTSOnlyOverHTTPS(t *testing.T) {
	const hsts = "max-age=600"
	r := gin.New()
	r.GET("/", securityHeaders("default-src 'self'", hsts), func(c *gin.Context) { c.Status(http.StatusNoContent) })
	off := gin.New()
	off.GET("/", securityHeaders("default-src 'self'", ""), func(c *gin.Context) { c.Status(http.StatusNoContent) })

	get := func(h http.Handler, proto string, overTLS bool) http.Header {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		if proto != "" {
			req.Header.Set("X-Forwarded-Proto", proto)
		}
		if overTLS {
			req.TLS = &tls.ConnectionState{}
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Header()
	}
	for _, c := range []struct {
		name    string
		h       http.Handler
		proto   string
		overTLS bool
		want    string
	}{
		{"behind an ingress that ended TLS", r, "https", false, hsts},
		{"TLS at the gateway", r, "", true, hsts},
		{"plain HTTP", r, "", false, ""},
		{"plain HTTP through the ingress", r, "http", false, ""},
		{"over HTTPS with HSTS_MAX_AGE=0", off, "https", false, ""},
	} {
		h := get(c.h, c.proto, c.overTLS)
		if got := h.Get("Strict-Transport-Security"); got != c.want {
			t.Errorf("%s: Strict-Transport-Security %q, want %q", c.name, got, c.want)
		}
		if h.Get("Content-Security-Policy") == "" || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: the other security headers are missing: %v", c.name, h)
		}
	}
}
