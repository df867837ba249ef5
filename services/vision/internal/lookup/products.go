package lookup

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sony/gobreaker/v2"
	"golang.org/x/time/rate"
)

// Product is what a barcode names. Price is only known from UPCitemdb's offers.
type Product struct {
	Code        string  `json:"code"`
	Name        string  `json:"name"`
	Brand       string  `json:"brand"`
	Description string  `json:"description"`
	Category    string  `json:"category"`
	ImageURL    string  `json:"imageUrl"`
	Price       *string `json:"price,omitempty"`
	Source      string  `json:"source"`
}

// Where a product came from (Product.Source, and the upstream label of the metrics).
const (
	SourceOpenFoodFacts     = "openfoodfacts"
	SourceOpenProductsFacts = "openproductsfacts"
	SourceUPCitemdb         = "upcitemdb"
)

// Why an upstream gave no usable answer (the reason label of lookup_upstream_failures_total).
const (
	ReasonTimeout     = "timeout"
	ReasonRateLimited = "rate_limited" // the upstream said 429
	ReasonThrottled   = "throttled"    // our own per-upstream limit: no request sent
	ReasonOpen        = "circuit_open" // the breaker is open: no request sent
	ReasonStatus      = "status"
	ReasonMalformed   = "malformed"
	ReasonNetwork     = "network"
)

// UpstreamError is an upstream that could not answer; the lookup goes on to the next one.
type UpstreamError struct {
	Upstream, Reason string
	Status           int
	Detail           string
}

func (e *UpstreamError) Error() string {
	return fmt.Sprintf("%s: %s %d %s", e.Upstream, e.Reason, e.Status, e.Detail)
}

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
	parse   func(code string, status int, body []byte) (Product, bool, error)
	path    func(code string) string
}

type answer struct {
	product Product
	found   bool
}

// NewOpenFactsUpstream is Open Food Facts or Open Products Facts (the same API:
// GET /api/v2/product/{code}.json).
func NewOpenFactsUpstream(cfg UpstreamConfig) *Upstream {
	return newUpstream(cfg, func(code string) string {
		return "/api/v2/product/" + url.PathEscape(code) + ".json?fields=code,product_name,product_name_en,generic_name,generic_name_en,brands,categories,categories_tags,image_front_url,image_url"
	}, parseOpenFacts(cfg.Name))
}

// NewUPCitemdbUpstream is UPCitemdb's free trial API (GET /prod/trial/lookup?upc={code}).
func NewUPCitemdbUpstream(cfg UpstreamConfig) *Upstream {
	return newUpstream(cfg, func(code string) string {
		return "/prod/trial/lookup?upc=" + url.QueryEscape(code)
	}, parseUPCitemdb)
}

func newUpstream(cfg UpstreamConfig, path func(string) string, parse func(string, int, []byte) (Product, bool, error)) *Upstream {
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
func (u *Upstream) Lookup(ctx context.Context, code string) (Product, bool, error) {
	if u.breaker.State() == gobreaker.StateOpen {
		return Product{}, false, &UpstreamError{Upstream: u.cfg.Name, Reason: ReasonOpen}
	}
	// Our own limit refuses at once rather than holding the shopper: the next database, or a
	// later scan, answers instead.
	if !u.limiter.Allow() {
		return Product{}, false, &UpstreamError{Upstream: u.cfg.Name, Reason: ReasonThrottled}
	}
	a, err := u.breaker.Execute(func() (answer, error) { return u.fetch(ctx, code) })
	if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
		return Product{}, false, &UpstreamError{Upstream: u.cfg.Name, Reason: ReasonOpen}
	}
	if err != nil {
		return Product{}, false, err
	}
	return a.product, a.found, nil
}

// maxUpstreamBody bounds what is read from a product database (their answers are a few KB).
const maxUpstreamBody = 1 << 20

func (u *Upstream) fetch(ctx context.Context, code string) (answer, error) {
	fail := func(reason string, status int, detail string) (answer, error) {
		return answer{}, &UpstreamError{Upstream: u.cfg.Name, Reason: reason, Status: status, Detail: detail}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(u.cfg.BaseURL, "/")+u.path(code), nil)
	if err != nil {
		return fail(ReasonNetwork, 0, err.Error())
	}
	// Open Food Facts asks every client to name itself.
	req.Header.Set("User-Agent", "SantaWishlist/1.0 (barcode lookup; https://github.com/santa-wishlist)")
	req.Header.Set("Accept", "application/json")
	resp, err := u.client.Do(req)
	if err != nil {
		if isTimeout(err) {
			return fail(ReasonTimeout, 0, err.Error())
		}
		return fail(ReasonNetwork, 0, err.Error())
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxUpstreamBody))
	if err != nil {
		if isTimeout(err) {
			return fail(ReasonTimeout, resp.StatusCode, err.Error())
		}
		return fail(ReasonNetwork, resp.StatusCode, err.Error())
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return fail(ReasonRateLimited, resp.StatusCode, truncate(string(body), 200))
	case resp.StatusCode >= 500:
		return fail(ReasonStatus, resp.StatusCode, truncate(string(body), 200))
	}
	p, found, err := u.parse(code, resp.StatusCode, body)
	if err != nil {
		return fail(ReasonMalformed, resp.StatusCode, err.Error())
	}
	return answer{product: p, found: found}, nil
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &t) && t.Timeout())
}

// openFactsReply is the part of Open Food Facts' (and Open Products Facts') v2 product
// answer we read. Not found is HTTP 404 with status 0.
type openFactsReply struct {
	Code          string `json:"code"`
	Status        *int   `json:"status"`
	StatusVerbose string `json:"status_verbose"`
	Product       *struct {
		ProductName    string   `json:"product_name"`
		ProductNameEn  string   `json:"product_name_en"`
		GenericName    string   `json:"generic_name"`
		GenericNameEn  string   `json:"generic_name_en"`
		Brands         string   `json:"brands"`
		Categories     string   `json:"categories"`
		CategoriesTags []string `json:"categories_tags"`
		ImageFrontURL  string   `json:"image_front_url"`
		ImageURL       string   `json:"image_url"`
	} `json:"product"`
}

func parseOpenFacts(source string) func(string, int, []byte) (Product, bool, error) {
	return func(code string, status int, body []byte) (Product, bool, error) {
		var r openFactsReply
		if err := json.Unmarshal(body, &r); err != nil {
			return Product{}, false, fmt.Errorf("HTTP %d, not JSON: %w", status, err)
		}
		if r.Status == nil {
			return Product{}, false, fmt.Errorf("HTTP %d without a status field", status)
		}
		if *r.Status == 0 || status == http.StatusNotFound {
			return Product{}, false, nil
		}
		if status != http.StatusOK || r.Product == nil {
			return Product{}, false, fmt.Errorf("HTTP %d, status %d without a product", status, *r.Status)
		}
		p := r.Product
		name := clean(first(p.ProductNameEn, p.ProductName), maxName)
		if name == "" {
			// A record without a name tells a shopper nothing; the next database may know more.
			return Product{}, false, nil
		}
		return Product{
			Name:        name,
			Brand:       clean(firstOfList(p.Brands), maxBrand),
			Description: clean(first(p.GenericNameEn, p.GenericName), maxDescription),
			Category:    MapCategory(append([]string{p.Categories}, p.CategoriesTags...)...),
			ImageURL:    httpURL(first(p.ImageFrontURL, p.ImageURL)),
			Source:      source,
		}, true, nil
	}
}

// upcItemdbReply is UPCitemdb's lookup answer. Not found is HTTP 200 with no items; errors
// are {"code":"INVALID_UPC"|"TOO_FAST"|"EXCEED_LIMIT", "message"}.
type upcItemdbReply struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Total   *int   `json:"total"`
	Items   []struct {
		EAN         string   `json:"ean"`
		Title       string   `json:"title"`
		Description string   `json:"description"`
		Brand       string   `json:"brand"`
		Category    string   `json:"category"`
		Currency    string   `json:"currency"`
		LowestPrice *float64 `json:"lowest_recorded_price"`
		Images      []string `json:"images"`
		Offers      []struct {
			Currency string   `json:"currency"`
			Price    *float64 `json:"price"`
		} `json:"offers"`
	} `json:"items"`
}

func parseUPCitemdb(code string, status int, body []byte) (Product, bool, error) {
	var r upcItemdbReply
	if err := json.Unmarshal(body, &r); err != nil {
		return Product{}, false, fmt.Errorf("HTTP %d, not JSON: %w", status, err)
	}
	switch {
	case r.Code == "INVALID_UPC" || (status == http.StatusNotFound):
		return Product{}, false, nil // it does not know the code
	case status != http.StatusOK || r.Code != "OK" || r.Total == nil:
		return Product{}, false, fmt.Errorf("HTTP %d, code %q: %s", status, r.Code, truncate(r.Message, 200))
	case len(r.Items) == 0:
		return Product{}, false, nil
	}
	it := r.Items[0]
	name := clean(it.Title, maxName)
	if name == "" {
		return Product{}, false, nil
	}
	p := Product{
		Name:        name,
		Brand:       clean(it.Brand, maxBrand),
		Description: clean(it.Description, maxDescription),
		Category:    MapCategory(it.Category, it.Title),
		Source:      SourceUPCitemdb,
	}
	for _, img := range it.Images {
		if u := httpURL(img); u != "" {
			p.ImageURL = u
			break
		}
	}
	// The lowest current offer, else the lowest price ever recorded. UPCitemdb leaves the
	// currency empty for US dollars.
	var price *float64
	currency := it.Currency
	for _, o := range it.Offers {
		if o.Price != nil && *o.Price > 0 && (price == nil || *o.Price < *price) {
			price, currency = o.Price, o.Currency
		}
	}
	if price == nil && it.LowestPrice != nil && *it.LowestPrice > 0 {
		price = it.LowestPrice
	}
	if price != nil {
		s := FormatPrice(*price, currency)
		p.Price = &s
	}
	return p, true, nil
}

// FormatPrice writes a price as the wishlist shows it: "$12.99" for dollars (and an unknown
// currency, as UPCitemdb means), "12.99 EUR" otherwise.
func FormatPrice(amount float64, currency string) string {
	n := strconv.FormatFloat(amount, 'f', 2, 64)
	switch c := strings.ToUpper(strings.TrimSpace(currency)); c {
	case "", "USD", "$":
		return "$" + n
	case "EUR", "€":
		return "€" + n
	case "GBP", "£":
		return "£" + n
	default:
		return n + " " + c
	}
}

// Field limits that fit what the wishlist stores.
const (
	maxName        = 100
	maxBrand       = 100
	maxDescription = 2000
)

func first(vals ...string) string {
	for _, v := range vals {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

func firstOfList(s string) string { return strings.Split(s, ",")[0] }

// clean trims, folds runs of whitespace, drops invalid UTF-8 and NULs, and cuts to n runes.
func clean(s string, n int) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.ReplaceAll(s, "\x00", "")
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > n {
		r := []rune(s)
		s = strings.TrimSpace(string(r[:n-1])) + "…"
	}
	return s
}

// httpURL keeps a URL only if it is absolute http(s).
func httpURL(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.String()
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
