// Package products serves fake Open Food Facts, Open Products Facts and UPCitemdb APIs
// that answer in the real services' response shapes, so the barcode lookup can be run and
// tested without internet. Each upstream lives under its own prefix, which is the base URL
// the vision service is given:
//
//	/openfoodfacts/api/v2/product/{code}.json
//	/openproductsfacts/api/v2/product/{code}.json
//	/upcitemdb/prod/trial/lookup?upc={code}
//
// Product pictures are served by the fake too (GET /images/..., real JPEGs): the catalogue's
// image URLs are written against the address the request came to, as the databases' own
// image hosts are not reachable here.
//
// Tests in other processes steer it through /_fake/mode (an upstream's behaviour: ok,
// notfound, malformed, slow, 429, 500), /_fake/requests (what each upstream was asked) and
// /_fake/reset.
package products

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/jpeg"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Upstream prefixes (and the names tests use).
const (
	OpenFoodFacts     = "openfoodfacts"
	OpenProductsFacts = "openproductsfacts"
	UPCitemdb         = "upcitemdb"
	// Images is the fake's picture host (its requests are listed under this name).
	Images = "images"
)

// Modes an upstream can be put in.
const (
	ModeOK        = "ok"        // answers from the catalogue
	ModeNotFound  = "notfound"  // knows nothing
	ModeMalformed = "malformed" // 200 with an HTML error page instead of JSON
	ModeSlow      = "slow"      // waits (SlowDelay) before answering from the catalogue
	ModeTooMany   = "429"       // rate limited, in the upstream's own words
	ModeDown      = "500"       // a server error
)

// Known codes of the catalogue (check digits valid).
const (
	CodeNutella      = "3017624010701" // Open Food Facts, EAN-13
	CodeMints        = "96385074"      // Open Food Facts, EAN-8
	CodeLegoFire     = "5702016370737" // Open Products Facts, EAN-13 (a toy)
	CodeIPhone       = "885909950805"  // UPCitemdb, UPC-A with offers
	CodeOdyssey      = "9780140449136" // UPCitemdb, a book
	CodeUPCEExpanded = "012345000065"  // UPCitemdb, the UPC-A form of the UPC-E code 01234565
	CodeUnknown      = "4006381333931" // nobody knows it
	CodeReindeer     = "5901234123457" // Open Products Facts, EAN-13 (the web test's camera shows it)
)

type openFactsProduct struct {
	ProductName    string   `json:"product_name"`
	Brands         string   `json:"brands"`
	GenericName    string   `json:"generic_name,omitempty"`
	Categories     string   `json:"categories"`
	CategoriesTags []string `json:"categories_tags"`
	ImageFrontURL  string   `json:"image_front_url,omitempty"`
	ImageURL       string   `json:"image_url,omitempty"`
}

type upcOffer struct {
	Merchant  string  `json:"merchant"`
	Domain    string  `json:"domain"`
	Title     string  `json:"title"`
	Currency  string  `json:"currency"`
	ListPrice string  `json:"list_price"`
	Price     float64 `json:"price"`
	Shipping  string  `json:"shipping"`
	Condition string  `json:"condition"`
	Available string  `json:"availability"`
	Link      string  `json:"link"`
	Updated   int64   `json:"updated_t"`
}

type upcItem struct {
	EAN         string     `json:"ean"`
	Title       string     `json:"title"`
	Description string     `json:"description"`
	UPC         string     `json:"upc"`
	Brand       string     `json:"brand"`
	Model       string     `json:"model"`
	Color       string     `json:"color"`
	Size        string     `json:"size"`
	Dimension   string     `json:"dimension"`
	Weight      string     `json:"weight"`
	Category    string     `json:"category"`
	Currency    string     `json:"currency"`
	LowestPrice float64    `json:"lowest_recorded_price"`
	HighestPric float64    `json:"highest_recorded_price"`
	Images      []string   `json:"images"`
	Offers      []upcOffer `json:"offers"`
	ASIN        string     `json:"asin"`
	ELID        string     `json:"elid"`
}

var openFoodFacts = map[string]openFactsProduct{
	CodeNutella: {
		ProductName: "Nutella", Brands: "Ferrero,Nutella", GenericName: "Hazelnut spread with cocoa",
		Categories:     "Breakfasts, Spreads, Sweet spreads, Hazelnut spreads",
		CategoriesTags: []string{"en:breakfasts", "en:spreads", "en:sweet-spreads", "en:hazelnut-spreads"},
		ImageFrontURL:  imagePath + "openfoodfacts/301/762/401/0701/front_en.3.400.jpg",
	},
	CodeMints: {
		ProductName: "Peppermint mints", Brands: "Frosty", Categories: "Confectioneries, Candies",
		CategoriesTags: []string{"en:confectioneries", "en:candies"},
		ImageURL:       imagePath + "openfoodfacts/963/850/74/front_en.5.400.jpg",
	},
}

var openProductsFacts = map[string]openFactsProduct{
	CodeLegoFire: {
		ProductName: "LEGO City Fire Station", Brands: "LEGO", GenericName: "Building set with a fire engine and three minifigures",
		Categories:     "Toys, Construction toys",
		CategoriesTags: []string{"en:toys", "en:construction-toys"},
		ImageFrontURL:  imagePath + "openproductsfacts/570/201/637/0737/front_en.4.400.jpg",
	},
	CodeReindeer: {
		ProductName: "Plush Reindeer Rudolph", Brands: "North Pole Toys", GenericName: "A soft reindeer with a glowing red nose",
		Categories:     "Toys, Plush toys",
		CategoriesTags: []string{"en:toys", "en:plush-toys"},
		ImageFrontURL:  imagePath + "openproductsfacts/590/123/412/3457/front_en.1.400.jpg",
	},
}

var upcItems = map[string]upcItem{
	CodeIPhone: {
		EAN: "0885909950805", UPC: CodeIPhone, Title: "Apple iPhone 6, Gold, 64 GB",
		Description: "iPhone 6 isn't just bigger - it's better in every way.", Brand: "Apple", Model: "MG502LL/A",
		Category: "Electronics > Communications > Telephony > Mobile Phones", LowestPrice: 3.99, HighestPric: 1399.99,
		Images: []string{imagePath + "upcitemdb/112231913.jpg"},
		Offers: []upcOffer{
			{Merchant: "Newegg.com", Domain: "newegg.com", Title: "Apple iPhone 6 64GB", Price: 259.99, Link: "https://www.upcitemdb.com/norob/alink/?id=1", Updated: 1700000000},
			{Merchant: "Wal-Mart.com", Domain: "walmart.com", Title: "Apple iPhone 6", Price: 209.99, Link: "https://www.upcitemdb.com/norob/alink/?id=2", Updated: 1700000000},
		},
	},
	CodeOdyssey: {
		EAN: CodeOdyssey, Title: "The Odyssey (Penguin Classics)", Description: "Homer's epic, translated by E. V. Rieu.",
		Brand: "Penguin Classics", Category: "Media > Books > Print Books", LowestPrice: 7.5,
		Images: []string{imagePath + "upcitemdb/odyssey.jpg"},
	},
	CodeUPCEExpanded: {
		EAN: "0" + CodeUPCEExpanded, UPC: CodeUPCEExpanded, Title: "Mini Racing Car", Brand: "Speedy",
		Category: "Toys & Games > Toys > Play Vehicles", Currency: "USD",
		Offers: []upcOffer{{Merchant: "Toy Shop", Domain: "toyshop.example", Price: 4.5}},
	},
}

// imagePath is where the fake serves product pictures; catalogue entries carry it as a path and
// answers turn it into an absolute URL on the fake's own address.
const imagePath = "/images/"

// absoluteImages writes the fake's own picture paths as URLs on the address r came to.
func absoluteImages(r *http.Request, urls ...string) []string {
	out := make([]string, len(urls))
	for i, u := range urls {
		if strings.HasPrefix(u, imagePath) {
			u = "http://" + r.Host + u
		}
		out[i] = u
	}
	return out
}

// productImage is a real JPEG (a coloured box with a lighter label band) whose colour
// follows the path, so two products' pictures differ.
func productImage(path string) []byte {
	h := fnv.New32a()
	_, _ = h.Write([]byte(path))
	v := h.Sum32()
	base := color.RGBA{R: uint8(v), G: uint8(v >> 8), B: uint8(v >> 16), A: 255}
	img := image.NewRGBA(image.Rect(0, 0, 400, 400))
	for y := 0; y < 400; y++ {
		for x := 0; x < 400; x++ {
			c := base
			if y > 140 && y < 260 && x > 40 && x < 360 {
				c = color.RGBA{R: 250, G: 245, B: 235, A: 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	_ = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85})
	return buf.Bytes()
}

// Server is the fake.
type Server struct {
	mux       *http.ServeMux
	SlowDelay time.Duration

	mu       sync.Mutex
	modes    map[string]string
	requests map[string][]string
}

// New builds the fake; control adds the /_fake endpoints for tests in other processes.
func New(control bool) *Server {
	s := &Server{mux: http.NewServeMux(), SlowDelay: 10 * time.Second, modes: map[string]string{}, requests: map[string][]string{}}
	s.mux.HandleFunc("GET /openfoodfacts/api/v2/product/{file}", s.openFacts(OpenFoodFacts, openFoodFacts))
	s.mux.HandleFunc("GET /openproductsfacts/api/v2/product/{file}", s.openFacts(OpenProductsFacts, openProductsFacts))
	s.mux.HandleFunc("GET /upcitemdb/prod/trial/lookup", s.upcitemdb)
	s.mux.HandleFunc("GET "+imagePath+"{path...}", s.image)
	if control {
		s.mux.HandleFunc("POST /_fake/mode", func(w http.ResponseWriter, r *http.Request) {
			s.SetMode(r.URL.Query().Get("upstream"), r.URL.Query().Get("mode"))
			w.WriteHeader(http.StatusNoContent)
		})
		s.mux.HandleFunc("GET /_fake/requests", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(s.Requests())
		})
		s.mux.HandleFunc("POST /_fake/reset", func(w http.ResponseWriter, r *http.Request) {
			s.Reset()
			w.WriteHeader(http.StatusNoContent)
		})
	}
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// SetMode puts one upstream (or "all") in a mode.
func (s *Server) SetMode(upstream, mode string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range []string{OpenFoodFacts, OpenProductsFacts, UPCitemdb} {
		if upstream == u || upstream == "all" {
			s.modes[u] = mode
		}
	}
}

// Requests returns the codes each upstream was asked for.
func (s *Server) Requests() map[string][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string][]string{}
	for k, v := range s.requests {
		out[k] = append([]string(nil), v...)
	}
	return out
}

// Count is how many requests an upstream received.
func (s *Server) Count(upstream string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests[upstream])
}

// Reset forgets requests and puts every upstream back to ok.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.modes, s.requests = map[string]string{}, map[string][]string{}
}

// begin records the request and applies the upstream's mode; it reports whether the
// handler should answer from the catalogue (and whether to pretend to know nothing).
func (s *Server) begin(w http.ResponseWriter, r *http.Request, upstream, code string) (answer, known bool) {
	s.mu.Lock()
	s.requests[upstream] = append(s.requests[upstream], code)
	mode := s.modes[upstream]
	s.mu.Unlock()
	switch mode {
	case ModeMalformed:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<html><body><h1>Service temporarily unavailable</h1>"))
		return false, false
	case ModeTooMany:
		w.Header().Set("Retry-After", "60")
		w.Header().Set("Content-Type", "application/json")
		if upstream == UPCitemdb {
			w.Header().Set("X-RateLimit-Remaining", "0")
		}
		w.WriteHeader(http.StatusTooManyRequests)
		if upstream == UPCitemdb {
			_, _ = w.Write([]byte(`{"code":"TOO_FAST","message":"The API rate limit was exceeded. Please slow down."}`))
		} else {
			_, _ = w.Write([]byte(`{"status":"failure","error":"rate limit exceeded: 100 requests per minute"}`))
		}
		return false, false
	case ModeDown:
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte("Internal Server Error"))
		return false, false
	case ModeSlow:
		select {
		case <-time.After(s.SlowDelay):
		case <-r.Context().Done():
			return false, false
		}
	case ModeNotFound:
		return true, false
	}
	return true, true
}

func (s *Server) openFacts(upstream string, catalogue map[string]openFactsProduct) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		code, ok := strings.CutSuffix(r.PathValue("file"), ".json")
		if !ok {
			http.NotFound(w, r)
			return
		}
		answer, known := s.begin(w, r, upstream, code)
		if !answer {
			return
		}
		w.Header().Set("Content-Type", "application/json")
		p, found := catalogue[code]
		if !found || !known {
			// Open Food Facts' v2 answer for an unknown code: HTTP 404 with status 0.
			w.WriteHeader(http.StatusNotFound)
			_ = json.NewEncoder(w).Encode(map[string]any{"code": code, "status": 0, "status_verbose": "product not found"})
			return
		}
		abs := absoluteImages(r, p.ImageFrontURL, p.ImageURL)
		p.ImageFrontURL, p.ImageURL = abs[0], abs[1]
		_ = json.NewEncoder(w).Encode(map[string]any{"code": code, "product": p, "status": 1, "status_verbose": "product found"})
	}
}

// image serves a product picture and records it as a request of the "images" upstream.
func (s *Server) image(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests[Images] = append(s.requests[Images], r.URL.Path)
	s.mu.Unlock()
	if !strings.HasSuffix(r.URL.Path, ".jpg") {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "image/jpeg")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	_, _ = w.Write(productImage(r.URL.Path))
}

func (s *Server) upcitemdb(w http.ResponseWriter, r *http.Request) {
	code := r.URL.Query().Get("upc")
	answer, known := s.begin(w, r, UPCitemdb, code)
	if !answer {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-RateLimit-Limit", "100")
	if code == "" || strings.Trim(code, "0123456789") != "" {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = fmt.Fprint(w, `{"code":"INVALID_UPC","message":"Not a valid UPC code."}`)
		return
	}
	items := []upcItem{}
	if it, found := upcItems[code]; found && known {
		it.Images = absoluteImages(r, it.Images...)
		items = append(items, it)
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"code": "OK", "total": len(items), "offset": 0, "items": items})
}
