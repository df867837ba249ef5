package app

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/singleflight"

	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

// LookupOutcome says how a barcode was answered (for the service's own tests and figures;
// never told to a caller, as the cache is shared).
type LookupOutcome string

const (
	LookupHit  LookupOutcome = "hit"
	LookupMiss LookupOutcome = "miss"
)

// LookupMetrics count lookups by upstream and the cache's help.
type LookupMetrics struct {
	Upstream  *prometheus.CounterVec
	CacheHits *prometheus.CounterVec
}

// NewLookupMetrics registers the lookup metrics, every label already present at zero.
func NewLookupMetrics(reg prometheus.Registerer) *LookupMetrics {
	m := &LookupMetrics{
		Upstream: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lookup_upstream_requests_total",
			Help: "Barcode lookups asked of a product database, by upstream and result (found, not_found or a failure reason).",
		}, []string{"upstream", "result"}),
		CacheHits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lookup_cache_hits_total", Help: "Lookups answered from the cache, by kind (barcode).",
		}, []string{"kind"}),
	}
	reg.MustRegister(m.Upstream, m.CacheHits)
	for _, u := range []string{domain.SourceOpenFoodFacts, domain.SourceOpenProductsFacts, domain.SourceUPCitemdb} {
		for _, r := range []string{"found", "not_found", domain.UpstreamTimeout, domain.UpstreamRateLimited, domain.UpstreamThrottled, domain.UpstreamCircuitOpen, domain.UpstreamStatus, domain.UpstreamMalformed, domain.UpstreamNetwork} {
			m.Upstream.WithLabelValues(u, r)
		}
	}
	m.CacheHits.WithLabelValues("barcode")
	return m
}

// Barcodes looks codes up in the product databases, in order, with a cache in front.
type Barcodes struct {
	sources []domain.ProductSource
	cache   domain.Cache
	// FoundTTL and MissTTL keep found and not-found answers.
	foundTTL, missTTL time.Duration
	metrics           *LookupMetrics
	logger            *slog.Logger
	flight            singleflight.Group
}

// NewBarcodes builds the lookup over sources, asked in order.
func NewBarcodes(sources []domain.ProductSource, cache domain.Cache, foundTTL, missTTL time.Duration, metrics *LookupMetrics, logger *slog.Logger) *Barcodes {
	return &Barcodes{sources: sources, cache: cache, foundTTL: foundTTL, missTTL: missTTL, metrics: metrics, logger: logger}
}

type cachedAnswer struct {
	Found   bool            `json:"found"`
	Product *domain.Product `json:"product,omitempty"`
}

// Lookup answers the product for a checked code. beforeUpstream runs only when the cache
// cannot answer (the caller's daily quota); its error is returned as is.
func (b *Barcodes) Lookup(ctx context.Context, code domain.Barcode, beforeUpstream func(context.Context) error) (domain.Product, LookupOutcome, error) {
	key := "barcode:" + code.Query
	if p, found, ok := b.cached(ctx, key); ok {
		b.metrics.CacheHits.WithLabelValues("barcode").Inc()
		if !found {
			return domain.Product{}, LookupHit, domain.ErrProductNotFound
		}
		p.Code = code.Code
		return p, LookupHit, nil
	}
	if beforeUpstream != nil {
		if err := beforeUpstream(ctx); err != nil {
			return domain.Product{}, "", err
		}
	}
	// Two shoppers scanning the same code at once make one round of upstream calls, on a
	// context of its own so an answer already asked for is cached even if they leave.
	v, err, _ := b.flight.Do(key, func() (any, error) {
		return b.ask(context.WithoutCancel(ctx), code.Query, key)
	})
	if err != nil {
		return domain.Product{}, LookupMiss, err
	}
	p := v.(domain.Product)
	p.Code = code.Code
	return p, LookupMiss, nil
}

func (b *Barcodes) ask(ctx context.Context, query, key string) (domain.Product, error) {
	failed := 0
	for _, src := range b.sources {
		p, found, err := src.Lookup(ctx, query)
		if err != nil {
			failed++
			reason := domain.UpstreamNetwork
			var ue *domain.UpstreamError
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
		return domain.Product{}, domain.ErrLookupUnavailable
	}
	// "Not found" is only remembered when every database said so: one that failed may know it.
	if failed == 0 {
		b.store(ctx, key, cachedAnswer{Found: false}, b.missTTL)
	}
	return domain.Product{}, domain.ErrProductNotFound
}

func (b *Barcodes) cached(ctx context.Context, key string) (domain.Product, bool, bool) {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	data, ok, err := b.cache.Get(ctx, key)
	if err != nil {
		b.logger.Warn("lookup cache unavailable", "err", err)
		return domain.Product{}, false, false
	}
	if !ok {
		return domain.Product{}, false, false
	}
	var a cachedAnswer
	if err := json.Unmarshal(data, &a); err != nil || (a.Found && a.Product == nil) {
		b.logger.Warn("unreadable lookup cache entry ignored", "key", key)
		return domain.Product{}, false, false
	}
	if !a.Found {
		return domain.Product{}, false, true
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
