package adapters

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sony/gobreaker/v2"
	"golang.org/x/time/rate"

	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

// UpstreamConfig is one product database.
type UpstreamConfig struct {
	Name    string
	BaseURL string
	// Timeout bounds one request, reading the body included.
	Timeout time.Duration
	// PerMinute and Burst are our own limit on requests to it (the databases publish theirs:
	// Open Food Facts asks for at most 100 product reads a minute, UPCitemdb's trial allows
	// 100 a day in bursts of 6 a minute).
	PerMinute float64
	Burst     int
	// BreakerFailures consecutive failures open the circuit for BreakerOpenFor.
	BreakerFailures uint32
	BreakerOpenFor  time.Duration
}

// Upstream asks one product database, through its rate limit and circuit breaker.
type Upstream struct {
	cfg     UpstreamConfig
	client  *http.Client
	limiter *rate.Limiter
	breaker *gobreaker.CircuitBreaker[answer]
	parse   func(code string, status int, body []byte) (domain.Product, bool, error)
	path    func(code string) string
}

var _ domain.ProductSource = (*Upstream)(nil)

type answer struct {
	product domain.Product
	found   bool
}

// NewOpenFactsUpstream is Open Food Facts or Open Products Facts (the same API:
// GET /api/v2/product/{code}.json).
func NewOpenFactsUpstream(cfg UpstreamConfig) *Upstream {
	return newUpstream(cfg, func(code string) string {
		return "/api/v2/product/" + url.PathEscape(code) + ".json?fields=code,product_name,product_name_en,generic_name,generic_name_en,brands,categories,categories_tags,image_front_url,image_url"
	}, domain.ParseOpenFacts(cfg.Name))
}

// NewUPCitemdbUpstream is UPCitemdb's free trial API (GET /prod/trial/lookup?upc={code}).
func NewUPCitemdbUpstream(cfg UpstreamConfig) *Upstream {
	return newUpstream(cfg, func(code string) string {
		return "/prod/trial/lookup?upc=" + url.QueryEscape(code)
	}, domain.ParseUPCitemdb)
}

func newUpstream(cfg UpstreamConfig, path func(string) string, parse func(string, int, []byte) (domain.Product, bool, error)) *Upstream {
	u := &Upstream{
		cfg:     cfg,
		client:  &http.Client{Timeout: cfg.Timeout},
		limiter: rate.NewLimiter(rate.Limit(cfg.PerMinute/60), max(cfg.Burst, 1)),
		parse:   parse,
		path:    path,
	}
	u.breaker = gobreaker.NewCircuitBreaker[answer](gobreaker.Settings{
		Name:    cfg.Name,
		Timeout: cfg.BreakerOpenFor,
		ReadyToTrip: func(c gobreaker.Counts) bool {
			return c.ConsecutiveFailures >= max(cfg.BreakerFailures, 1)
		},
	})
	return u
}

// Name is the upstream's source name.
func (u *Upstream) Name() string { return u.cfg.Name }

// BreakerState is the circuit's state (closed, half-open, open), for tests and logs.
func (u *Upstream) BreakerState() string { return u.breaker.State().String() }

// Lookup asks for one code. found=false with a nil error is a definite "not known here".
func (u *Upstream) Lookup(ctx context.Context, code string) (domain.Product, bool, error) {
	if u.breaker.State() == gobreaker.StateOpen {
		return domain.Product{}, false, &domain.UpstreamError{Upstream: u.cfg.Name, Reason: domain.UpstreamCircuitOpen}
	}
	// Our own limit refuses at once rather than holding the shopper: the next database, or a
	// later scan, answers instead.
	if !u.limiter.Allow() {
		return domain.Product{}, false, &domain.UpstreamError{Upstream: u.cfg.Name, Reason: domain.UpstreamThrottled}
	}
	a, err := u.breaker.Execute(func() (answer, error) { return u.fetch(ctx, code) })
	if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
		return domain.Product{}, false, &domain.UpstreamError{Upstream: u.cfg.Name, Reason: domain.UpstreamCircuitOpen}
	}
	if err != nil {
		return domain.Product{}, false, err
	}
	return a.product, a.found, nil
}

// maxUpstreamBody bounds what is read from a product database (their answers are a few KB).
const maxUpstreamBody = 1 << 20

func (u *Upstream) fetch(ctx context.Context, code string) (answer, error) {
	fail := func(reason string, status int, detail string) (answer, error) {
		return answer{}, &domain.UpstreamError{Upstream: u.cfg.Name, Reason: reason, Status: status, Detail: detail}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(u.cfg.BaseURL, "/")+u.path(code), nil)
	if err != nil {
		return fail(domain.UpstreamNetwork, 0, err.Error())
	}
	// Open Food Facts asks every client to name itself.
	req.Header.Set("User-Agent", "SantaWishlist/1.0 (barcode lookup; https://github.com/santa-wishlist)")
	req.Header.Set("Accept", "application/json")
	resp, err := u.client.Do(req)
	if err != nil {
		if isTimeout(err) {
			return fail(domain.UpstreamTimeout, 0, err.Error())
		}
		return fail(domain.UpstreamNetwork, 0, err.Error())
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxUpstreamBody))
	if err != nil {
		if isTimeout(err) {
			return fail(domain.UpstreamTimeout, resp.StatusCode, err.Error())
		}
		return fail(domain.UpstreamNetwork, resp.StatusCode, err.Error())
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return fail(domain.UpstreamRateLimited, resp.StatusCode, domain.Truncate(string(body), 200))
	case resp.StatusCode >= 500:
		return fail(domain.UpstreamStatus, resp.StatusCode, domain.Truncate(string(body), 200))
	}
	p, found, err := u.parse(code, resp.StatusCode, body)
	if err != nil {
		return fail(domain.UpstreamMalformed, resp.StatusCode, err.Error())
	}
	return answer{product: p, found: found}, nil
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &t) && t.Timeout())
}
