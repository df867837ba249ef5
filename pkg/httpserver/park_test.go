package httpserver

import (
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

func TestAParkedLoopRunsAfterTheMiddlewareOnAShallowStack(t *testing.T) {
	var middlewareDone, parked bool
	var stack string
	base, _, _ := startServer(t, Options{Service: "t"}, func(s *Server) {
		s.ParkPath("/live")
		handler := func(c *gin.Context) {
			c.Status(http.StatusOK)
			_, _ = c.Writer.WriteString("head;")
			loop := func(w http.ResponseWriter) {
				buf := make([]byte, 64<<10)
				stack = string(buf[:runtime.Stack(buf, false)])
				state := "inline"
				if middlewareDone {
					state = "after-middleware"
				}
				_, _ = io.WriteString(w, state)
			}
			if parked = Park(c, loop); !parked {
				loop(c.Writer)
			}
		}
		mw := func(c *gin.Context) { c.Next(); middlewareDone = true }
		s.Engine.GET("/live", mw, handler)
		s.Engine.GET("/other", func(c *gin.Context) { middlewareDone = false }, handler)
	})

	get := func(path string) string {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if got := get("/live"); got != "head;after-middleware" || !parked {
		t.Fatalf("parked route answered %q (parked %v)", got, parked)
	}
	if strings.Contains(stack, "gin-gonic") || strings.Contains(stack, "httpserver.observe") {
		t.Fatalf("the parked loop runs under the middleware:\n%s", stack)
	}
	// A route that is not a ParkPath cannot park: the handler runs the loop itself.
	if got := get("/other"); got != "head;inline" || parked {
		t.Fatalf("other route answered %q (parked %v)", got, parked)
	}
}

func TestShallowRaisesItsPanicInTheCaller(t *testing.T) {
	defer func() {
		if v := recover(); v != "deep" {
			t.Fatalf("recovered %v, want the panic of the shallow call", v)
		}
	}()
	depth := 0
	Shallow(func() { depth = 1; panic("deep") })
	t.Fatalf("Shallow returned after a panic (depth %d)", depth)
}
