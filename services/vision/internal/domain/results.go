package domain

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Where an answer came from.
const (
	SourceGemini   = "gemini"
	SourceFallback = "fallback"
)

// The spec's defaults for fields the model left out (docs/spec.md, section 3: entities and their
// fields).
const (
	DefaultProductName        = "Unknown Product"
	DefaultDescription        = "No description available"
	DefaultProductCategory    = "Other"
	DefaultSearchQuery        = "gift item"
	DefaultGiftName           = "Wishlist Item"
	DefaultGiftPrice          = "$0.00"
	DefaultItemCategory       = "other"
	fallbackGiftDescription   = "A gift item from your wishlist"
	fallbackProductName       = "Gift Item"
	fallbackProductCategory   = "Gifts"
	fallbackProductSearch     = "holiday gift"
	fallbackProductDescribing = "This is a generic gift item, not an AI analysis: the AI service is not configured " +
		"(set GEMINI_API_KEY on the vision service to enable image recognition)."
)

// Limits that match what the wishlist service stores, so an answer can always be saved.
const (
	maxNameLength        = 100
	maxDescriptionLength = 2000
	maxCategoryLength    = 50
	maxPriceLength       = 40
	maxSearchQueryLength = 200
	maxFeatures          = 5
	maxFeatureLength     = 200
)

// Analysis is the product analysis of an image (docs/spec.md, section 3: "Product analysis
// result"). The client's own image is not echoed back: it already has it.
type Analysis struct {
	ID               string   `json:"id"`
	Name             string   `json:"name"`
	Description      string   `json:"description"`
	Category         string   `json:"category"`
	SearchQuery      string   `json:"searchQuery"`
	ApproximatePrice *string  `json:"approximatePrice"`
	Features         []string `json:"features"`
	Source           string   `json:"source"`
}

// Gift is the gift flow's item: what the editor stores after the photo is decorated.
type Gift struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Price       string `json:"price"`
	Source      string `json:"source"`
}

// Item is the image recognition page's wishlist entry.
type Item struct {
	Name           string `json:"name"`
	Description    string `json:"description"`
	Price          string `json:"price"`
	EstimatedPrice string `json:"estimatedPrice"`
	Category       string `json:"category"`
	Source         string `json:"source"`
}

// ItemCategories are the categories the recognition page offers.
var ItemCategories = []string{"toy", "electronics", "clothing", "accessory", "other"}

// AnalysisFromReply reads a product analysis out of the model's reply.
func AnalysisFromReply(r ModelReply) (Analysis, error) {
	text, err := replyText(r, MsgNoValidResponseImage)
	if err != nil {
		return Analysis{}, err
	}
	obj, ok := FirstJSONObject(text)
	if !ok {
		return Analysis{}, newFailure(ReasonUnparseable, MsgUnparseable)
	}
	a := Analysis{
		Name:        clip(stringField(obj, "name"), maxNameLength),
		Description: clip(stringField(obj, "description"), maxDescriptionLength),
		Category:    productCategory(stringField(obj, "category")),
		SearchQuery: clip(stringField(obj, "searchQuery", "search_query", "query"), maxSearchQueryLength),
		Features:    features(obj["features"]),
		Source:      SourceGemini,
	}
	if p := priceField(obj, "approximatePrice", "approximate_price", "price", "estimatedPrice"); p != "" {
		a.ApproximatePrice = &p
	}
	if a.Name == "" {
		a.Name = DefaultProductName
	}
	if a.Description == "" {
		a.Description = DefaultDescription
	}
	if a.Category == "" {
		a.Category = DefaultProductCategory
	}
	if a.SearchQuery == "" {
		// The spec falls back to the name, then to a generic query; the name is never empty
		// here, but a reply that named nothing should not search for "Unknown Product".
		a.SearchQuery = stringField(obj, "name")
		if a.SearchQuery == "" {
			a.SearchQuery = DefaultSearchQuery
		}
		a.SearchQuery = clip(a.SearchQuery, maxSearchQueryLength)
	}
	return a, nil
}

// GiftFromReply reads the gift flow's item. A reply without JSON is read field by field
// (the spec's pattern fallback, docs/spec.md, section 5), so only a missing reply is an error.
func GiftFromReply(r ModelReply) (Gift, error) {
	text, err := replyText(r, MsgNoValidResponse)
	if err != nil {
		return Gift{}, err
	}
	var g Gift
	if obj, ok := FirstJSONObject(text); ok {
		g = Gift{
			Name:        stringField(obj, "name"),
			Description: stringField(obj, "description"),
			Price:       priceField(obj, "price", "estimatedPrice", "approximatePrice"),
		}
	} else {
		f := ExtractFields(text)
		g = Gift{Name: f["name"], Description: f["description"], Price: normalizePrice(f["price"])}
	}
	g.Name, g.Description, g.Price = clip(g.Name, maxNameLength), clip(g.Description, maxDescriptionLength), clip(g.Price, maxPriceLength)
	g.Source = SourceGemini
	if g.Name == "" {
		g.Name = DefaultGiftName
	}
	if g.Description == "" {
		g.Description = DefaultDescription
	}
	if g.Price == "" {
		g.Price = DefaultGiftPrice
	}
	return g, nil
}

// ItemFromReply reads the recognition page's wishlist entry; it needs JSON.
func ItemFromReply(r ModelReply) (Item, error) {
	text, err := replyText(r, MsgNoValidResponse)
	if err != nil {
		return Item{}, err
	}
	obj, ok := FirstJSONObject(text)
	if !ok {
		return Item{}, newFailure(ReasonUnparseable, MsgUnparseable)
	}
	it := Item{
		Name:           clip(stringField(obj, "name"), maxNameLength),
		Description:    clip(stringField(obj, "description"), maxDescriptionLength),
		Price:          clip(priceField(obj, "price"), maxPriceLength),
		EstimatedPrice: clip(priceField(obj, "estimatedPrice", "estimated_price", "approximatePrice"), maxPriceLength),
		Category:       itemCategory(stringField(obj, "category")),
		Source:         SourceGemini,
	}
	if it.Price == "" {
		it.Price = it.EstimatedPrice
	}
	if it.EstimatedPrice == "" {
		it.EstimatedPrice = it.Price
	}
	if it.Name == "" {
		it.Name = DefaultGiftName
	}
	if it.Description == "" {
		it.Description = DefaultDescription
	}
	if it.Price == "" {
		it.Price, it.EstimatedPrice = DefaultGiftPrice, DefaultGiftPrice
	}
	return it, nil
}

// FallbackAnalysis is the spec's generic item (docs/spec.md, section 8: error catalogue, "AI"),
// answered when no AI key is configured. It says plainly that it is not an AI answer.
func FallbackAnalysis() Analysis {
	return Analysis{
		Name:        fallbackProductName,
		Description: fallbackProductDescribing,
		Category:    fallbackProductCategory,
		SearchQuery: fallbackProductSearch,
		Features:    []string{},
		Source:      SourceFallback,
	}
}

// FallbackGift is what the editor stores when the AI cannot answer (docs/spec.md, section 4:
// states and transitions, "Editor").
func FallbackGift() Gift {
	return Gift{Name: DefaultGiftName, Description: fallbackGiftDescription, Price: DefaultGiftPrice, Source: SourceFallback}
}

// FallbackItem is the recognition page's entry when no AI key is configured.
func FallbackItem() Item {
	return Item{Name: DefaultGiftName, Description: fallbackGiftDescription, Price: DefaultGiftPrice,
		EstimatedPrice: DefaultGiftPrice, Category: DefaultItemCategory, Source: SourceFallback}
}

func replyText(r ModelReply, noText string) (string, error) {
	if r.Candidates == 0 {
		return "", newFailure(ReasonNoResponse, MsgNoResponse)
	}
	if !r.HasText || strings.TrimSpace(r.Text) == "" {
		return "", newFailure(ReasonNoValidResponse, noText)
	}
	return r.Text, nil
}

// stringField returns the first of keys present as text (numbers are written out), matching
// keys without regard to case because models are not consistent about it.
func stringField(obj map[string]any, keys ...string) string {
	for _, k := range keys {
		v, ok := lookup(obj, k)
		if !ok {
			continue
		}
		switch t := v.(type) {
		case string:
			if s := strings.TrimSpace(t); s != "" {
				return s
			}
		case float64:
			return strconv.FormatFloat(t, 'f', -1, 64)
		case bool:
			return strconv.FormatBool(t)
		}
	}
	return ""
}

func lookup(obj map[string]any, key string) (any, bool) {
	if v, ok := obj[key]; ok {
		return v, true
	}
	for k, v := range obj {
		if strings.EqualFold(k, key) {
			return v, true
		}
	}
	return nil, false
}

// priceField reads a price given as text ("$12.99", "about $20") or as a number (12.99).
func priceField(obj map[string]any, keys ...string) string {
	for _, k := range keys {
		v, ok := lookup(obj, k)
		if !ok {
			continue
		}
		switch t := v.(type) {
		case string:
			if p := normalizePrice(t); p != "" {
				return p
			}
		case float64:
			if t >= 0 && !math.IsInf(t, 0) {
				return fmt.Sprintf("$%.2f", t)
			}
		}
	}
	return ""
}

// normalizePrice trims a price and gives a bare number a dollar sign, since the product
// shows prices as dollar amounts.
func normalizePrice(p string) string {
	p = strings.TrimSpace(p)
	if p == "" {
		return ""
	}
	if f, err := strconv.ParseFloat(strings.ReplaceAll(p, ",", ""), 64); err == nil && f >= 0 && !math.IsInf(f, 0) {
		return fmt.Sprintf("$%.2f", f)
	}
	return clip(p, maxPriceLength)
}

func features(v any) []string {
	out := []string{}
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" && len(out) < maxFeatures {
			out = append(out, clip(s, maxFeatureLength))
		}
	}
	switch t := v.(type) {
	case []any:
		for _, f := range t {
			switch s := f.(type) {
			case string:
				add(s)
			case float64:
				add(strconv.FormatFloat(s, 'f', -1, 64))
			}
		}
	case string:
		// Some replies give one comma-separated string instead of a list.
		for _, s := range strings.Split(t, ",") {
			add(s)
		}
	}
	return out
}

// productCategories maps what models say to the wishlist's category values (docs/spec.md,
// section 3: "Category choices"), so items group under the same tabs; anything else is kept as
// the model wrote it.
var productCategories = map[string]string{
	"electronics": "Electronics", "electronic": "Electronics", "tech": "Electronics", "gadgets": "Electronics",
	"clothing": "Clothing", "clothing & apparel": "Clothing", "apparel": "Clothing", "clothes": "Clothing", "fashion": "Clothing",
	"toys": "Toys", "toy": "Toys", "toys & games": "Toys", "games": "Toys",
	"home": "Home", "home & kitchen": "Home", "kitchen": "Home",
	"books": "Books", "book": "Books", "books & media": "Books", "media": "Books",
	"sports": "Sports", "sports & outdoors": "Sports", "outdoors": "Sports",
	"beauty": "Beauty", "beauty & personal care": "Beauty", "personal care": "Beauty",
	"jewelry": "Jewelry", "jewellery": "Jewelry", "jewelry & accessories": "Jewelry", "accessories": "Jewelry",
	"gift cards": "Gift Cards", "gift card": "Gift Cards",
	"other": "Other",
}

func productCategory(c string) string {
	if v, ok := productCategories[strings.ToLower(strings.TrimSpace(c))]; ok {
		return v
	}
	return clip(c, maxCategoryLength)
}

var itemCategoryAliases = map[string]string{
	"toy": "toy", "toys": "toy", "toys & games": "toy", "games": "toy",
	"electronics": "electronics", "electronic": "electronics",
	"clothing": "clothing", "clothes": "clothing", "apparel": "clothing",
	"accessory": "accessory", "accessories": "accessory", "jewelry": "accessory",
	"other": "other",
}

func itemCategory(c string) string {
	if v, ok := itemCategoryAliases[strings.ToLower(strings.TrimSpace(c))]; ok {
		return v
	}
	return DefaultItemCategory
}

// clip shortens s to at most n characters, on a character boundary.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n]))
}
