package httpserver

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/time/rate"

	"github.com/santa-wishlist/santa/pkg/config"
)

// StreamLimits bound the live streams one pod holds. Every open stream costs memory (measured
// in docs/capacity.md), so past Max a pod refuses new ones rather than be killed for its memory;
// and when a pod goes away all its clients come back at once, so opens are admitted at
// OpensPerSecond (with a burst of Burst) and the rest are told when to come back, instead of
// every request getting slower together. At most Opening opens are under way at once (their
// token checked, their connection to the next service made): in a storm those waits grow, and
// each waiting open holds tens of kilobytes, so a rate alone let thousands pile up and the pod's
// memory climb past its limit.
type StreamLimits struct {
	Max            int
	OpensPerSecond float64
	Burst          int
	Opening        int
	// RetryAfter is what a refused client is told to wait, in seconds.
	RetryAfter int
}

// DefaultStreamLimits fit the chart's memory limits (docs/capacity.md derives them).
var DefaultStreamLimits = StreamLimits{Max: 10000, OpensPerSecond: 1000, Burst: 500, Opening: 200, RetryAfter: 2}

// StreamLimitsFromEnv reads MAX_STREAMS, STREAM_OPENS_PER_SECOND, STREAM_OPEN_BURST,
// STREAM_OPENING and STREAM_RETRY_AFTER_SECONDS.
func StreamLimitsFromEnv(env *config.Env) StreamLimits {
	d := DefaultStreamLimits
	l := StreamLimits{
		Max:            env.Int("MAX_STREAMS", d.Max),
		OpensPerSecond: float64(env.Int("STREAM_OPENS_PER_SECOND", int(d.OpensPerSecond))),
		Burst:          env.Int("STREAM_OPEN_BURST", d.Burst),
		Opening:        env.Int("STREAM_OPENING", d.Opening),
		RetryAfter:     env.Int("STREAM_RETRY_AFTER_SECONDS", d.RetryAfter),
	}
	if l.Max < 1 || l.OpensPerSecond < 1 || l.Burst < 1 || l.Opening < 1 || l.RetryAfter < 1 {
		env.Problem("MAX_STREAMS, STREAM_OPENS_PER_SECOND, STREAM_OPEN_BURST, STREAM_OPENING and STREAM_RETRY_AFTER_SECONDS must be at least 1")
	}
	return l
}

// StreamGate admits live streams within StreamLimits and counts the open ones in the
// live_streams_open gauge, which the autoscaler reads (one metric for every service that
// holds streams, so the cluster needs one adapter rule).
type StreamGate struct {
	limits  StreamLimits
	open    atomic.Int64
	opening atomic.Int64
	opens   *rate.Limiter
	gauge   prometheus.GaugeFunc
	shed    *prometheus.CounterVec
}

// NewStreamGate registers live_streams_open and live_streams_refused_total{reason}.
func NewStreamGate(reg prometheus.Registerer, limits StreamLimits) *StreamGate {
	g := &StreamGate{limits: limits, opens: rate.NewLimiter(rate.Limit(limits.OpensPerSecond), limits.Burst)}
	g.gauge = prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "live_streams_open", Help: "Live (Server-Sent Events) streams open on this pod.",
	}, func() float64 { return float64(g.open.Load()) })
	g.shed = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "live_streams_refused_total", Help: "Stream opens refused with 503 to protect the pod, by reason (full, storm).",
	}, []string{"reason"})
	reg.MustRegister(g.gauge, g.shed)
	return g
}

// Open reports the streams open now.
func (g *StreamGate) Open() int64 { return g.open.Load() }

// Admit is the middleware of a stream route: a stream past the ceiling, or an open above the
// admitted rate, is answered 503 with Retry-After before any work is done for it.
func (g *StreamGate) Admit() gin.HandlerFunc {
	return func(c *gin.Context) {
		if g.open.Add(1) > int64(g.limits.Max) {
			g.open.Add(-1)
			g.refuse(c, "full")
			return
		}
		held := &heldStream{gate: g}
		defer held.end(false)
		if !g.opens.Allow() {
			g.refuse(c, "storm")
			return
		}
		if g.limits.Opening > 0 { // 0: no bound (a test's limits)
			if g.opening.Add(1) > int64(g.limits.Opening) {
				g.opening.Add(-1)
				g.refuse(c, "storm")
				return
			}
			held.opening.Store(true)
			defer held.opened()
		}
		c.Set(heldStreamKey, held)
		c.Next()
	}
}

const heldStreamKey = "httpserver.stream"

// shedKey marks a request the pod refused on purpose, to protect itself: counted in
// live_streams_refused_total, and not logged as an error (a storm sheds thousands a second).
const shedKey = "httpserver.shed"

// heldStream is one admitted stream's place under the ceiling.
type heldStream struct {
	gate    *StreamGate
	kept    atomic.Bool // the handler handed the stream on; KeepStreamOpen's func ends it
	done    atomic.Bool
	opening atomic.Bool // counted among the opens under way
}

// opened ends the stream's opening: it is handed on, or its handler is done.
func (h *heldStream) opened() {
	if h.opening.CompareAndSwap(true, false) {
		h.gate.opening.Add(-1)
	}
}

func (h *heldStream) end(handedOn bool) {
	if h.kept.Load() != handedOn || !h.done.CompareAndSwap(false, true) {
		return
	}
	h.gate.open.Add(-1)
	if handedOn {
		streamsEnded.Store(time.Now().UnixNano())
	}
}

// KeepStreamOpen is for a handler that hands its stream to another goroutine and returns (a
// hijacked connection): the stream keeps its place under the ceiling, and in
// live_streams_open, until the returned function is called.
func KeepStreamOpen(c *gin.Context) (end func()) {
	v, ok := c.Get(heldStreamKey)
	if !ok {
		return func() {}
	}
	h := v.(*heldStream)
	h.kept.Store(true)
	h.opened()
	return func() { h.end(true) }
}

func (g *StreamGate) refuse(c *gin.Context, reason string) {
	g.shed.WithLabelValues(reason).Inc()
	c.Set(shedKey, true)
	// Jittered, so the clients refused together do not all come back in the same second.
	c.Header("Retry-After", strconv.Itoa(g.limits.RetryAfter+rand.IntN(g.limits.RetryAfter+1)))
	Abort(c, http.StatusServiceUnavailable, "busy", "Live updates are busy right now. Trying again shortly.")
}
