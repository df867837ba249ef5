package domain

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"github.com/PuerkitoBio/goquery"
)

// Extracted is what a shop's page says about its product.
type Extracted struct {
	Name, Description, ImageURL, Price, Currency, Category string
	// Source is where the name came from: jsonld, microdata, opengraph, meta or title.
	Source string
}

// Where a page's fields came from.
const (
	FromJSONLD    = "jsonld"
	FromMicrodata = "microdata"
	FromOpenGraph = "opengraph"
	FromMeta      = "meta"
	FromTitle     = "title"
)

// Extract reads a product out of a page: JSON-LD Product/Offer first, then schema.org
// microdata, then Open Graph and product meta tags, then other meta tags and <title>. Each
// field comes from the first of these that has it; image URLs are made absolute against
// base (the page's address after redirects).
func Extract(html []byte, base *url.URL) Extracted {
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(html))
	if err != nil {
		return Extracted{}
	}
	candidates := []Extracted{jsonLD(doc), microdata(doc), openGraph(doc), otherMeta(doc)}
	var out Extracted
	for _, c := range candidates {
		if out.Name == "" && c.Name != "" {
			out.Name, out.Source = c.Name, c.Source
		}
		if out.Description == "" {
			out.Description = c.Description
		}
		if out.ImageURL == "" {
			out.ImageURL = c.ImageURL
		}
		if out.Price == "" && c.Price != "" {
			out.Price, out.Currency = c.Price, c.Currency
		}
		if out.Category == "" {
			out.Category = c.Category
		}
	}
	out.Name = clean(out.Name, maxName)
	out.Description = clean(out.Description, maxDescription)
	out.ImageURL = absolute(base, out.ImageURL)
	out.Price = strings.TrimSpace(out.Price)
	out.Currency = strings.ToUpper(strings.TrimSpace(out.Currency))
	return out
}

// --- JSON-LD -------------------------------------------------------------------------------

func jsonLD(doc *goquery.Document) Extracted {
	var found Extracted
	doc.Find(`script[type="application/ld+json"]`).EachWithBreak(func(_ int, s *goquery.Selection) bool {
		var v any
		if json.Unmarshal([]byte(strings.TrimSpace(s.Text())), &v) != nil {
			return true // shops ship broken blocks; the next one may do
		}
		if p := findProduct(v, 0); p != nil {
			found = productFromLD(p)
			return false
		}
		return true
	})
	return found
}

// findProduct walks arrays, @graph and nested values (a WebPage's mainEntity, say) for the
// first object whose @type is or includes Product.
func findProduct(v any, depth int) map[string]any {
	if depth > 8 {
		return nil
	}
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			if p := findProduct(e, depth+1); p != nil {
				return p
			}
		}
	case map[string]any:
		if hasType(t["@type"], "Product") {
			return t
		}
		for _, k := range []string{"@graph", "mainEntity", "itemListElement", "item"} {
			if p := findProduct(t[k], depth+1); p != nil {
				return p
			}
		}
	}
	return nil
}

func hasType(v any, want string) bool {
	switch t := v.(type) {
	case string:
		return t == want || strings.HasSuffix(t, "/"+want)
	case []any:
		for _, e := range t {
			if hasType(e, want) {
				return true
			}
		}
	}
	return false
}

func productFromLD(p map[string]any) Extracted {
	e := Extracted{Source: FromJSONLD, Name: text(p["name"]), Description: text(p["description"]),
		ImageURL: imageOf(p["image"]), Category: text(p["category"])}
	e.Price, e.Currency = offerPrice(p["offers"], 0)
	return e
}

// offerPrice reads Offer, AggregateOffer (lowPrice) or a list of offers (the first priced),
// with the price possibly in a priceSpecification.
func offerPrice(v any, depth int) (string, string) {
	if depth > 4 {
		return "", ""
	}
	switch t := v.(type) {
	case []any:
		for _, o := range t {
			if p, c := offerPrice(o, depth+1); p != "" {
				return p, c
			}
		}
	case map[string]any:
		currency := text(t["priceCurrency"])
		for _, k := range []string{"price", "lowPrice"} {
			if p := text(t[k]); p != "" {
				return p, currency
			}
		}
		if p, c := offerPrice(t["priceSpecification"], depth+1); p != "" {
			return p, first(c, currency)
		}
		if p, c := offerPrice(t["offers"], depth+1); p != "" {
			return p, first(c, currency)
		}
	}
	return "", ""
}

// text is a JSON-LD value as text: a string, a number, or the first of a list, or an
// object's name.
func text(v any) string {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t)
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case []any:
		for _, e := range t {
			if s := text(e); s != "" {
				return s
			}
		}
	case map[string]any:
		return text(t["name"])
	}
	return ""
}

// imageOf reads an image given as a URL, a list, or an ImageObject.
func imageOf(v any) string {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t)
	case []any:
		for _, e := range t {
			if s := imageOf(e); s != "" {
				return s
			}
		}
	case map[string]any:
		return first(imageOf(t["url"]), imageOf(t["contentUrl"]))
	}
	return ""
}

// --- microdata -----------------------------------------------------------------------------

func microdata(doc *goquery.Document) Extracted {
	scope := doc.Find(`[itemscope][itemtype*="schema.org/Product"]`).First()
	if scope.Length() == 0 {
		return Extracted{}
	}
	prop := func(name string) string {
		var val string
		scope.Find(`[itemprop="` + name + `"]`).EachWithBreak(func(_ int, s *goquery.Selection) bool {
			for _, attr := range []string{"content", "src", "href"} {
				if v, ok := s.Attr(attr); ok && strings.TrimSpace(v) != "" {
					val = v
					return false
				}
			}
			val = strings.TrimSpace(s.Text())
			return val == ""
		})
		return val
	}
	return Extracted{Source: FromMicrodata, Name: prop("name"), Description: prop("description"), ImageURL: prop("image"),
		Price: first(prop("price"), prop("lowPrice")), Currency: prop("priceCurrency"), Category: prop("category")}
}

// --- meta tags -----------------------------------------------------------------------------

func meta(doc *goquery.Document, keys ...string) string {
	for _, k := range keys {
		for _, attr := range []string{"property", "name", "itemprop"} {
			if v, ok := doc.Find(`meta[` + attr + `="` + k + `"]`).First().Attr("content"); ok && strings.TrimSpace(v) != "" {
				return strings.TrimSpace(v)
			}
		}
	}
	return ""
}

func openGraph(doc *goquery.Document) Extracted {
	return Extracted{Source: FromOpenGraph,
		Name:        meta(doc, "og:title"),
		Description: meta(doc, "og:description"),
		ImageURL:    meta(doc, "og:image:secure_url", "og:image", "og:image:url"),
		Price:       meta(doc, "product:price:amount", "og:price:amount", "product:sale_price:amount"),
		Currency:    meta(doc, "product:price:currency", "og:price:currency", "product:sale_price:currency"),
	}
}

func otherMeta(doc *goquery.Document) Extracted {
	e := Extracted{Source: FromMeta,
		Name:        meta(doc, "twitter:title"),
		Description: meta(doc, "twitter:description", "description"),
		ImageURL:    meta(doc, "twitter:image", "twitter:image:src"),
	}
	if e.Name == "" {
		e.Name, e.Source = strings.TrimSpace(doc.Find("title").First().Text()), FromTitle
	}
	return e
}

// absolute makes a (possibly relative or protocol-relative) image URL absolute; anything
// but http(s) is dropped.
func absolute(base *url.URL, ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" || base == nil {
		return httpURL(ref)
	}
	u, err := base.Parse(ref)
	if err != nil {
		return ""
	}
	return httpURL(u.String())
}

// ParseAmount reads a price as shops write it ("1,299.00", "29.99", "29,99") into a number.
func ParseAmount(s string) (float64, bool) {
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' || r == '.' || r == ',' {
			return r
		}
		return -1
	}, s))
	if s == "" {
		return 0, false
	}
	lastDot, lastComma := strings.LastIndex(s, "."), strings.LastIndex(s, ",")
	switch {
	case lastComma > lastDot && len(s)-lastComma == 3: // 29,99 or 1.299,00: comma decimals
		s = strings.ReplaceAll(s[:lastComma], ".", "") + "." + s[lastComma+1:]
	default:
		s = strings.ReplaceAll(s, ",", "")
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil && f >= 0
}
