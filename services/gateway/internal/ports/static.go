package ports

import (
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/apierror"
)

// webApp serves the built React app. Hashed assets never change, so browsers keep them for a
// year; index.html and the service worker must always be revalidated, or a deploy would not
// reach users.
func webApp(dir string) gin.HandlerFunc {
	index := filepath.Join(dir, "index.html")
	return func(c *gin.Context) {
		p := c.Request.URL.Path
		if strings.HasPrefix(p, "/api/") || p == "/api" || strings.HasPrefix(p, "/media/") {
			apierror.Abort(c, http.StatusNotFound, "not_found", "Nothing lives at this address.")
			return
		}
		if c.Request.Method != http.MethodGet && c.Request.Method != http.MethodHead {
			apierror.Abort(c, http.StatusMethodNotAllowed, "method_not_allowed", "This address only answers GET.")
			return
		}
		if dir == "" {
			apierror.Abort(c, http.StatusNotFound, "not_found", "The web app is not built. Run `make web`.")
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
			c.File(file)
			return
		}
		// Every other path is a route of the app (its router shows the 404 page).
		c.Header("Cache-Control", "no-cache, no-store, must-revalidate")
		c.File(index)
	}
}
