package domain

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
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
// The names say whose reason it is: a model call's are Reason* (errors.go).
const (
	UpstreamTimeout     = "timeout"
	UpstreamRateLimited = "rate_limited" // the upstream said 429
	UpstreamThrottled   = "throttled"    // our own per-upstream limit: no request sent
	UpstreamCircuitOpen = "circuit_open" // the breaker is open: no request sent
	UpstreamStatus      = "status"
	UpstreamMalformed   = "malformed"
	UpstreamNetwork     = "network"
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

// ParseOpenFacts reads an Open Facts answer (HTTP status and body) for source: found=false with
// a nil error when the database does not know the code.
func ParseOpenFacts(source string) func(string, int, []byte) (Product, bool, error) {
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

// ParseUPCitemdb reads UPCitemdb's answer (HTTP status and body): found=false with a nil error
// when it does not know the code.
func ParseUPCitemdb(code string, status int, body []byte) (Product, bool, error) {
	var r upcItemdbReply
	if err := json.Unmarshal(body, &r); err != nil {
		return Product{}, false, fmt.Errorf("HTTP %d, not JSON: %w", status, err)
	}
	switch {
	case r.Code == "INVALID_UPC" || (status == http.StatusNotFound):
		return Product{}, false, nil // it does not know the code
	case status != http.StatusOK || r.Code != "OK" || r.Total == nil:
		return Product{}, false, fmt.Errorf("HTTP %d, code %q: %s", status, r.Code, Truncate(r.Message, 200))
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

// Truncate cuts a text for a log line or an error's detail (a model's reply, an upstream's
// answer) to n bytes and an ellipsis.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
