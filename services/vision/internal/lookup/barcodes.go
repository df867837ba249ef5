package lookup

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/singleflight"
)

// ProductSource is one product database.
type ProductSource interface {
	Name() string
	// Lookup answers found=false with a nil error when the database does not know the code.
	Lookup(ctx context.Context, code string) (Product, bool, error)
}

// Cache keeps answers by key (Redis in the service).
type Cache interface {
	Get(ctx context.Context, key string) ([]byte, bool, error)
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
}

// ErrProductNotFound: no database knows the code.
var ErrProductNotFound = errors.New("We could not find this product. You can still add it by hand.")

// ErrLookupUnavailable: every database failed, so we cannot say the code is unknown.
var ErrLookupUnavailable = errors.New("The product databases are not answering right now. Please try again shortly, or add the item by hand.")

// Outcome says how a barcode was answered (for the service's own tests and figures; never
// told to a caller, as the cache is shared).
type Outcome string

const (
	OutcomeHit  Outcome = "hit"
	OutcomeMiss Outcome = "miss"
)

// Metrics count lookups by upstream and the cache's help.
type Metrics struct {
	Upstream  *prometheus.CounterVec
	CacheHits *prometheus.CounterVec
}

// NewMetrics registers the lookup metrics, every label already present at zero.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		Upstream: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lookup_upstream_requests_total",
			Help: "Barcode lookups asked of a product database, by upstream and result (found, not_found or a failure reason).",
		}, []string{"upstream", "result"}),
		CacheHits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lookup_cache_hits_total", Help: "Lookups answered from the cache, by kind (barcode).",
		}, []string{"kind"}),
	}
	reg.MustRegister(m.Upstream, m.CacheHits)
	for _, u := range []string{SourceOpenFoodFacts, SourceOpenProductsFacts, SourceUPCitemdb} {
		for _, r := range []string{"found", "not_found", ReasonTimeout, ReasonRateLimited, ReasonThrottled, ReasonOpen, ReasonStatus, ReasonMalformed, ReasonNetwork} {
			m.Upstream.WithLabelValues(u, r)
		}
	}
	m.CacheHits.WithLabelValues("barcode")
	return m
}

// Barcodes looks codes up in the product databases, in order, with a cache in front.
type Barcodes struct {
	sources []ProductSource
	cache   Cache
	// FoundTTL and MissTTL keep found and not-found answers.
	foundTTL, missTTL time.Duration
	metrics           *Metrics
	logger            *slog.Logger
	flight            singleflight.Group
}

// NewBarcodes builds the lookup over sources, asked in order.
func NewBarcodes(sources []ProductSource, cache Cache, foundTTL, missTTL time.Duration, metrics *Metrics, logger *slog.Logger) *Barcodes {
	return &Barcodes{sources: sources, cache: cache, foundTTL: foundTTL, missTTL: missTTL, metrics: metrics, logger: logger}
}

type cachedAnswer struct {
	Found   bool     `json:"found"`
	Product *Product `json:"product,omitempty"`
}

// storeTimeout bounds each cache operation, so a Redis outage costs an upstream call, not
// the answer.
const storeTimeout = 2 * time.Second

// Lookup answers the product for a checked code. beforeUpstream runs only when the cache
// cannot answer (the caller's daily quota); its error is returned as is.
func (b *Barcodes) Lookup(ctx context.Context, code Barcode, beforeUpstream func(context.Context) error) (Product, Outcome, error) {
	key := "barcode:" + code.Query
	if p, found, ok := b.cached(ctx, key); ok {
		b.metrics.CacheHits.WithLabelValues("barcode").Inc()
		if !found {
			return Product{}, OutcomeHit, ErrProductNotFound
		}
		p.Code = code.Code
		return p, OutcomeHit, nil
	}
	if beforeUpstream != nil {
		if err := beforeUpstream(ctx); err != nil {
			return Product{}, "", err
		}
	}
	// Two shoppers scanning the same code at once make one round of upstream calls, on a
	// context of its own so an answer already asked for is cached even if they leave.
	v, err, _ := b.flight.Do(key, func() (any, error) {
		return b.ask(context.WithoutCancel(ctx), code.Query, key)
	})
	if err != nil {
		return Product{}, OutcomeMiss, err
	}
	p := v.(Product)
	p.Code = code.Code
	return p, OutcomeMiss, nil
}

func (b *Barcodes) ask(ctx context.Context, query, key string) (Product, error) {
	failed := 0
	for _, src := range b.sources {
		p, found, err := src.Lookup(ctx, query)
		if err != nil {
			failed++
			reason := ReasonNetwork
			var ue *UpstreamError
			if errors.As(err, &ue) {
				reason = ue.Reason
			}
			b.metrics.Upstream.WithLabelValues(src.Name(), reason).Inc()
			b.logger.Warn("product database failed; asking the next", "upstream", src.Name(), "reason", reason, "err", err)
			continue
		}
		if !found {
			b.metrics.Upstream.WithLabelValues(src.Name(), "not_found").Inc()
			continue
		}
		b.metrics.Upstream.WithLabelValues(src.Name(), "found").Inc()
		b.store(ctx, key, cachedAnswer{Found: true, Product: &p}, b.foundTTL)
		return p, nil
	}
	if failed == len(b.sources) {
		return Product{}, ErrLookupUnavailable
	}
	// "Not found" is only remembered when every database said so: one that failed may know it.
	if failed == 0 {
		b.store(ctx, key, cachedAnswer{Found: false}, b.missTTL)
	}
	return Product{}, ErrProductNotFound
}

func (b *Barcodes) cached(ctx context.Context, key string) (Product, bool, bool) {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	data, ok, err := b.cache.Get(ctx, key)
	if err != nil {
		b.logger.Warn("lookup cache unavailable", "err", err)
		return Product{}, false, false
	}
	if !ok {
		return Product{}, false, false
	}
	var a cachedAnswer
	if err := json.Unmarshal(data, &a); err != nil || (a.Found && a.Product == nil) {
		b.logger.Warn("unreadable lookup cache entry ignored", "key", key)
		return Product{}, false, false
	}
	if !a.Found {
		return Product{}, false, true
	}
	return *a.Product, true, true
}

func (b *Barcodes) store(ctx context.Context, key string, a cachedAnswer, ttl time.Duration) {
	data, err := json.Marshal(a)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	if err := b.cache.Set(ctx, key, data, ttl); err != nil {
		b.logger.Warn("lookup answer not cached", "err", err)
	}
}
