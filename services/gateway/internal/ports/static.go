package ports

import (
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/httpserver"
)

// webApp serves the built React app. Hashed assets never change, so browsers keep them for a
// year; index.html and the service worker must always be revalidated, or a deploy would not
// reach users.
func webApp(dir string) gin.HandlerFunc {
	index := filepath.Join(dir, "index.html")
	return func(c *gin.Context) {
		p := c.Request.URL.Path
		// /readyz and /metrics are the admin port's (ADMIN_PORT); here they are not an app route.
		if strings.HasPrefix(p, "/api/") || p == "/api" || strings.HasPrefix(p, "/media/") || p == "/readyz" || p == "/metrics" {
			httpserver.Abort(c, http.StatusNotFound, "not_found", "Nothing lives at this address.")
			return
		}
		if c.Request.Method != http.MethodGet && c.Request.Method != http.MethodHead {
			httpserver.Abort(c, http.StatusMethodNotAllowed, "method_not_allowed", "This address only answers GET.")
			return
		}
		if dir == "" {
			httpserver.Abort(c, http.StatusNotFound, "not_found", "The web app is not built. Run `make web`.")
			return
		}
		clean := path.Clean("/" + p)
		file := filepath.Join(dir, filepath.FromSlash(clean))
		if info, err := os.Stat(file); err == nil && !info.IsDir() && clean != "/index.html" {
			if strings.HasPrefix(clean, "/assets/") {
				c.Header("Cache-Control", "public, max-age=31536000, immutable")
			} else {
				c.Header("Cache-Control", "no-cache")
			}
			serveFile(c, file)
			return
		}
		// Every other path is a route of the app (its router shows the 404 page).
		c.Header("Cache-Control", "no-cache, no-store, must-revalidate")
		serveFile(c, index)
	}
}

// serveFile answers a file, or the brotli or gzip copy the web build wrote beside it when the
// browser accepts one: a phone on a slow network then loads a quarter of the bytes, and the
// gateway spends no CPU compressing.
func serveFile(c *gin.Context, file string) {
	c.Header("Vary", "Accept-Encoding")
	accept := c.GetHeader("Accept-Encoding")
	for _, enc := range []struct{ token, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
		if !acceptsEncoding(accept, enc.token) {
			continue
		}
		if info, err := os.Stat(file + enc.ext); err == nil && !info.IsDir() {
			if ct := mime.TypeByExtension(filepath.Ext(file)); ct != "" {
				c.Header("Content-Type", ct)
			}
			c.Header("Content-Encoding", enc.token)
			c.File(file + enc.ext)
			return
		}
	}
	c.File(file)
}

func acceptsEncoding(header, token string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), token) && !strings.Contains(strings.ReplaceAll(params, " ", ""), "q=0") {
			return true
		}
	}
	return false
}
