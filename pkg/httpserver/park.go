package httpserver

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"
)

// A live stream's handler goroutine lives for hours, and a goroutine's stack keeps the size of
// the deepest call it ever made until a garbage collection halves it, and never below four
// times what it uses while it waits. At thousands of idle streams a pod, that stack is a third of
// what a stream costs (docs/capacity.md). So the deep, one-off work of a stream (the middleware,
// the token, the opening query) runs on a short-lived goroutine, and the long-lived one waits
// with nothing under it but the server's own frames: see ParkPath, Park and Shallow.

// ParkPath marks a route whose handler may Park (a live stream): its requests run the gin chain
// on a short-lived goroutine, and what the handler parked on the request's own goroutine after.
// Other paths are served as usual.
func (s *Server) ParkPath(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.parkPaths == nil {
		s.parkPaths = map[string]bool{}
	}
	s.parkPaths[path] = true
}

type parkedKey struct{}

// parked is what a handler left to run once the gin chain has returned.
type parked struct{ loop func(w http.ResponseWriter) }

// parking serves the ParkPath routes; see ParkPath.
type parking struct {
	engine http.Handler
	paths  map[string]bool
}

func (p parking) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !p.paths[r.URL.Path] {
		p.engine.ServeHTTP(w, r)
		return
	}
	held := &parked{}
	r = r.WithContext(context.WithValue(r.Context(), parkedKey{}, held))
	Shallow(func() { p.engine.ServeHTTP(w, r) })
	if held.loop != nil {
		held.loop(w)
	}
}

// Park hands the rest of the response to loop, which runs after the handler and its middleware
// have returned, on the request's long-lived goroutine, with the raw ResponseWriter (the gin
// context is reused by then: loop must not touch it). It reports false when the route is not a
// ParkPath (or the engine is called directly, as in tests): the handler then runs loop itself.
// Work in loop that goes deep (a database read, a write) belongs in Shallow.
func Park(c *gin.Context, loop func(w http.ResponseWriter)) bool {
	held, ok := c.Request.Context().Value(parkedKey{}).(*parked)
	if !ok || held.loop != nil {
		return false
	}
	held.loop = loop
	return true
}

// Shallow runs f on a goroutine of its own and waits for it, so however deep f goes, the
// caller's stack does not grow. A panic in f is raised again in the caller, where the server's
// recovery sees it.
func Shallow(f func()) {
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		f()
	}()
	if v := <-done; v != nil {
		panic(v)
	}
}

// handler is what the server serves: the engine, wrapped for the ParkPath routes.
func (s *Server) handler() http.Handler {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.parkPaths) == 0 {
		return s.Engine
	}
	paths := make(map[string]bool, len(s.parkPaths))
	for p := range s.parkPaths {
		paths[p] = true
	}
	return parking{engine: s.Engine, paths: paths}
}
