package domain

import (
	"fmt"
	"strings"
)

// Kind is what a model call is for; it is also the kind label of the metrics.
type Kind string

const (
	KindAnalyze Kind = "analyze" // product analysis of a photo
	KindGift    Kind = "gift"    // the editor's gift item
	KindItem    Kind = "item"    // the recognition page's wishlist entry
)

// Generation settings the spec fixes (docs/spec.md, section 7: the calls it makes, and section 9:
// business constants and limits).
const (
	Temperature     = 0.2
	MaxOutputTokens = 800
	// MaxPromptLength bounds the caller's own text.
	MaxPromptLength = 2000
)

// PromptVersion changes whenever a prompt's wording changes, so cached answers to an old
// prompt are not served for the new one.
const PromptVersion = "1"

const analysisPrompt = `Analyze this image and identify the product or gift item shown.
Respond with only a JSON object (no markdown, no other text) with these fields:
{
  "name": "short product name, under 30 characters",
  "description": "1-2 sentences describing the product",
  "category": "one of: Electronics, Clothing, Toys, Home, Books, Sports, Beauty, Jewelry, Gift Cards, Other",
  "searchQuery": "words to search for this product in an online shop",
  "approximatePrice": "estimated price in US dollars, such as $24.99",
  "features": ["3 to 5 short key features"]
}`

const giftPrompt = `Identify the gift item for a Christmas wishlist.
Respond with only a JSON object (no markdown, no other text) with these fields:
{
  "name": "short item name, under 30 characters",
  "description": "1-2 sentences describing the item",
  "price": "estimated price in US dollars, such as $24.99"
}`

const itemPrompt = `Create a Christmas wishlist entry for the item described below.
Respond with only a JSON object (no markdown, no other text) with these fields:
{
  "name": "short item name, under 30 characters",
  "description": "1-2 sentences describing the item",
  "price": "price in US dollars, such as $24.99",
  "estimatedPrice": "estimated price in US dollars, such as $24.99",
  "category": "one of: toy, electronics, clothing, accessory, other"
}`

// Prompt is the text sent with a call. The caller's own words are added as a clearly
// marked part of the request, so the answer keeps the shape the service parses.
func Prompt(kind Kind, userText string, hasImage bool) string {
	userText = strings.TrimSpace(userText)
	var b strings.Builder
	switch kind {
	case KindAnalyze:
		b.WriteString(analysisPrompt)
		if userText != "" {
			fmt.Fprintf(&b, "\n\nAlso follow these instructions from the user, keeping the JSON format above:\n%s", userText)
		}
	case KindGift:
		b.WriteString(giftPrompt)
		if hasImage {
			b.WriteString("\n\nThe gift is shown in the attached photo (it may be decorated with stickers; ignore them).")
		}
		if userText != "" {
			fmt.Fprintf(&b, "\n\nThe user describes the gift as:\n%s", userText)
		}
	case KindItem:
		b.WriteString(itemPrompt)
		if hasImage {
			b.WriteString("\n\nThe item is shown in the attached photo.")
		}
		if userText != "" {
			fmt.Fprintf(&b, "\n\nItem description:\n%s", userText)
		}
	}
	return b.String()
}

// ParseKind reads a generate request's mode; empty means the gift flow.
func ParseKind(mode string) (Kind, bool) {
	switch strings.ToLower(strings.TrimSpace(mode)) {
	case "", "gift":
		return KindGift, true
	case "item":
		return KindItem, true
	}
	return "", false
}

// Call is one request to the model.
type Call struct {
	Kind   Kind
	Prompt string
	Image  *Image // nil for text-only generation
}
