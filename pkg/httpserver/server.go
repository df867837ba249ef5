// Package httpserver is the HTTP skeleton every service runs on: request ids, JSON logs, panic
// recovery, Prometheus metrics, health and readiness, and a graceful shutdown that fails
// readiness first so a load balancer stops sending traffic before the listener closes.
package httpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/santa-wishlist/santa/pkg/observability"
)

// Options configure a server.
type Options struct {
	Service string
	Addr    string // such as ":8080"
	Logger  *slog.Logger
	// ShutdownTimeout bounds how long in-flight requests may run after SIGTERM.
	ShutdownTimeout time.Duration
	// DrainDelay is how long the server keeps serving while reporting unready, so that
	// endpoints controllers take the pod out of rotation before the listener closes.
	DrainDelay time.Duration
	// Registry receives the HTTP metrics; nil makes a fresh one.
	Registry *prometheus.Registry
	// IdleMemoryRelease is how long requests must pause before the memory they left behind
	// is returned to the system; 0 leaves it to the Go runtime.
	IdleMemoryRelease time.Duration
	// CleartextHTTP2 also accepts HTTP/2 without TLS (prior knowledge, as in h2c) next to
	// HTTP/1.1: the gateway multiplexes every live stream it forwards on a few such
	// connections instead of holding one connection per stream.
	CleartextHTTP2 bool
	// AdminAddr, when set, is where /readyz and /metrics are answered instead of Addr: the
	// public port then answers only /healthz and the service's routes (readiness names the
	// failing dependencies and their errors; metrics tell an attacker the traffic and the
	// limits).
	AdminAddr string
}

// maxStreamsPerConnection lets a cleartext HTTP/2 connection carry many live streams (Go's
// default is 250), so thousands of them need only a handful of connections.
const maxStreamsPerConnection = 1000

// Server wraps a gin engine with the shared middleware and lifecycle.
type Server struct {
	Engine   *gin.Engine
	Registry *prometheus.Registry
	Logger   *slog.Logger

	opts     Options
	mu       sync.Mutex
	checks   []namedCheck
	closers  []func(context.Context) error
	draining atomic.Bool
	listener net.Listener
	release  *idleRelease
	// admin answers /readyz and /metrics when Options.AdminAddr is set.
	admin         *gin.Engine
	adminListener net.Listener
	// parkPaths are the routes whose handlers may Park (park.go).
	parkPaths map[string]bool
}

type namedCheck struct {
	name string
	fn   func(context.Context) error
}

func init() { gin.SetMode(gin.ReleaseMode) }

// New builds a server with request id, logging, recovery and metrics middleware, plus
// /healthz, /readyz and /metrics.
func New(opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Addr == "" {
		opts.Addr = ":8080"
	}
	if opts.ShutdownTimeout == 0 {
		opts.ShutdownTimeout = 20 * time.Second
	}
	if opts.Registry == nil {
		opts.Registry = observability.NewRegistry()
	}
	metrics := observability.NewHTTPMetrics(opts.Registry, opts.Service)

	release := newIdleRelease(opts.IdleMemoryRelease)
	engine := gin.New()
	engine.ContextWithFallback = true
	engine.HandleMethodNotAllowed = false
	// observe wraps recovery so a panic is still counted and logged as a 500.
	engine.Use(requestID(), observe(opts.Logger, metrics, release), recovery(opts.Logger))
	engine.NoRoute(func(c *gin.Context) { notFound(c) })

	StartProfiler(opts.Logger)
	s := &Server{Engine: engine, Registry: opts.Registry, Logger: opts.Logger, opts: opts, release: release}
	healthz := func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"status": "ok"}) }
	engine.GET("/healthz", healthz)
	internal := engine
	if opts.AdminAddr != "" {
		s.admin = gin.New()
		s.admin.Use(recovery(opts.Logger))
		s.admin.NoRoute(func(c *gin.Context) { notFound(c) })
		s.admin.GET("/healthz", healthz)
		internal = s.admin
	}
	internal.GET("/readyz", s.ready)
	// Uncompressed: a scrape is a few tens of kilobytes on the cluster network, and gzip took a
	// fresh ~800 KB compressor per scrape, more than the rest of a quiet service's heap.
	internal.GET("/metrics", gin.WrapH(promhttp.HandlerFor(opts.Registry,
		promhttp.HandlerOpts{Registry: opts.Registry, DisableCompression: true})))
	return s
}

// AddReadinessCheck adds a dependency that must answer for /readyz to be ready.
func (s *Server) AddReadinessCheck(name string, fn func(context.Context) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.checks = append(s.checks, namedCheck{name, fn})
}

// OnShutdown registers a function run after the last request finished (closing pools,
// draining NATS). They run in reverse order of registration.
func (s *Server) OnShutdown(fn func(context.Context) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closers = append(s.closers, fn)
}

// Draining reports whether shutdown has begun.
func (s *Server) Draining() bool { return s.draining.Load() }

// ready answers with the service's name beside the status, so that whoever waits for the
// service (the local stack's start) can tell it from another program that holds the port.
func (s *Server) ready(c *gin.Context) {
	if s.draining.Load() {
		c.JSON(http.StatusServiceUnavailable, gin.H{"service": s.opts.Service, "status": "draining"})
		return
	}
	s.mu.Lock()
	checks := append([]namedCheck(nil), s.checks...)
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(c.Request.Context(), 2*time.Second)
	defer cancel()
	failing := map[string]string{}
	for _, ch := range checks {
		if err := ch.fn(ctx); err != nil {
			failing[ch.name] = err.Error()
		}
	}
	if len(failing) > 0 {
		c.JSON(http.StatusServiceUnavailable, gin.H{"service": s.opts.Service, "status": "unready", "failing": failing})
		return
	}
	c.JSON(http.StatusOK, gin.H{"service": s.opts.Service, "status": "ready"})
}

// Listen binds the address now, so a caller (or a test) knows the port before Serve.
func (s *Server) Listen() (net.Addr, error) {
	ln, err := net.Listen("tcp", s.opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", s.opts.Addr, err)
	}
	s.listener = ln
	if s.admin != nil {
		aln, err := net.Listen("tcp", s.opts.AdminAddr)
		if err != nil {
			ln.Close()
			return nil, fmt.Errorf("listen on %s: %w", s.opts.AdminAddr, err)
		}
		s.adminListener = aln
	}
	return ln.Addr(), nil
}

// AdminURL is the base URL of the admin listener (after Listen), or "" without one.
func (s *Server) AdminURL() string {
	if s.adminListener == nil {
		return ""
	}
	return "http://" + s.adminListener.Addr().String()
}

// Run serves until ctx is cancelled, then shuts down gracefully: readiness fails at once,
// the server keeps serving for DrainDelay, stops accepting, waits for in-flight requests up
// to ShutdownTimeout, and finally runs the OnShutdown functions.
func (s *Server) Run(ctx context.Context) error {
	if s.listener == nil {
		if _, err := s.Listen(); err != nil {
			return err
		}
	}
	pending := newPendingGate(s.listener, maxPendingConns)
	srv := &http.Server{
		Handler:           s.handler(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		ConnState:         pending.connState,
	}
	if s.opts.CleartextHTTP2 {
		srv.Protocols = new(http.Protocols)
		srv.Protocols.SetHTTP1(true)
		srv.Protocols.SetUnencryptedHTTP2(true)
		srv.HTTP2 = &http.HTTP2Config{MaxConcurrentStreams: maxStreamsPerConnection}
	}
	serveErr := make(chan error, 2)
	go func() { serveErr <- srv.Serve(pending) }()
	var adminSrv *http.Server
	if s.adminListener != nil {
		adminSrv = &http.Server{Handler: s.admin, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second}
		go func() { serveErr <- adminSrv.Serve(s.adminListener) }()
		defer adminSrv.Close() // after the main server: readiness answers "draining" meanwhile
	}
	go s.release.run(ctx)
	s.Logger.Info("listening", "addr", s.listener.Addr().String())

	select {
	case err := <-serveErr:
		if !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("serve: %w", err)
		}
		return nil
	case <-ctx.Done():
	}

	s.draining.Store(true)
	s.Logger.Info("shutting down: readiness now failing", "drain_delay", s.opts.DrainDelay.String())
	time.Sleep(s.opts.DrainDelay)

	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.opts.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(shutdownCtx)
	if err != nil {
		s.Logger.Error("in-flight requests did not finish in time", "err", err)
	}
	s.mu.Lock()
	closers := append([]func(context.Context) error(nil), s.closers...)
	s.mu.Unlock()
	for i := len(closers) - 1; i >= 0; i-- {
		if cerr := closers[i](shutdownCtx); cerr != nil {
			s.Logger.Error("shutdown step failed", "err", cerr)
		}
	}
	s.Logger.Info("stopped")
	return err
}

// SignalContext is cancelled on SIGTERM or Ctrl-C.
func SignalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
}
