package gemini

import (
	"crypto/sha256"
	"encoding/base64"
	"regexp"
	"strings"
)

type product struct {
	cue          *regexp.Regexp
	name         string
	description  string
	category     string // the wishlist's category value
	itemCategory string // the recognition page's category
	searchQuery  string
	price        string
	features     []string
}

// catalogue is what the fake "recognises". Cues are whole words so the category names in a
// prompt's instructions do not trigger them.
var catalogue = []product{
	{regexp.MustCompile(`(?i)\b(bike|bicycle|cycling)\b`), "Kids' Red Bicycle",
		"A sturdy red bicycle with training wheels for young riders.", "Sports", "toy", "kids red bicycle training wheels", "$129.99",
		[]string{"Training wheels", "Adjustable seat", "Front basket", "Hand brakes"}},
	{regexp.MustCompile(`(?i)\b(teddy|bear|plush|stuffed)\b`), "Classic Teddy Bear",
		"A soft, cuddly brown teddy bear with a red ribbon.", "Toys", "toy", "classic brown teddy bear", "$24.99",
		[]string{"Super soft fur", "Red satin ribbon", "Machine washable"}},
	{regexp.MustCompile(`(?i)\b(lego|bricks?|building set)\b`), "Castle Building Set",
		"A building brick set for constructing a medieval castle with knights.", "Toys", "toy", "castle building brick set", "$59.99",
		[]string{"1,000 pieces", "Four knight figures", "Working drawbridge", "Ages 8+"}},
	{regexp.MustCompile(`(?i)\b(headphones?|earbuds|headset)\b`), "Wireless Headphones",
		"Over-ear wireless headphones with noise cancellation.", "Electronics", "electronics", "wireless noise cancelling headphones", "$149.00",
		[]string{"Active noise cancellation", "30-hour battery", "Bluetooth 5.3", "Foldable design"}},
	{regexp.MustCompile(`(?i)\b(sweater|jumper|scarf|mittens|hoodie)\b`), "Festive Knit Sweater",
		"A cosy knitted sweater with a snowflake and reindeer pattern.", "Clothing", "clothing", "festive knit christmas sweater", "$39.95",
		[]string{"Soft wool blend", "Reindeer pattern", "Ribbed cuffs"}},
	{regexp.MustCompile(`(?i)\b(watch|bracelet|necklace)\b`), "Silver Wrist Watch",
		"An elegant silver wrist watch with a leather strap.", "Jewelry", "accessory", "silver wrist watch leather strap", "$89.00",
		[]string{"Stainless steel case", "Leather strap", "Water resistant"}},
	{regexp.MustCompile(`(?i)\b(train|railway|locomotive)\b`), "Wooden Toy Train",
		"A colourful wooden train set with tracks and three carriages.", "Toys", "toy", "wooden toy train set", "$34.50",
		[]string{"Solid wood", "Magnetic couplings", "20 track pieces", "Three carriages"}},
	{regexp.MustCompile(`(?i)\b(novel|storybook|book)\b`), "Illustrated Storybook",
		"A hardcover illustrated Christmas storybook for reading aloud.", "Books", "other", "illustrated christmas storybook", "$16.99",
		[]string{"Hardcover", "Full-colour illustrations", "48 pages"}},
	{regexp.MustCompile(`(?i)\b(drone|quadcopter)\b`), "Mini Camera Drone",
		"A small camera drone that is easy to fly indoors and outdoors.", "Electronics", "electronics", "mini camera drone beginners", "$79.99",
		[]string{"720p camera", "Altitude hold", "Two batteries", "Prop guards"}},
}

const fakeNote = " (Sample answer from the local fake Gemini server.)"

// Plausible answers a product that fits the request: a known word in the prompt picks it,
// otherwise the image's bytes pick one, so the same photo always gets the same answer. The
// reply carries every field the service's prompts ask for, and says it comes from the fake.
func Plausible(req Request) Reply {
	text := req.Prompt()
	p, found := product{}, false
	for _, c := range catalogue {
		if c.cue.MatchString(text) {
			p, found = c, true
			break
		}
	}
	if !found {
		seed := []byte(text)
		for _, img := range req.Images() {
			if b, err := base64.StdEncoding.DecodeString(img.Data); err == nil {
				seed = b
			}
		}
		sum := sha256.Sum256(seed)
		p = catalogue[int(sum[0])%len(catalogue)]
	}
	category := p.category
	// The recognition page asks for its own lower-case categories.
	if strings.Contains(text, "toy, electronics, clothing, accessory, other") {
		category = p.itemCategory
	}
	return JSON(map[string]any{
		"name":             p.name,
		"description":      p.description + fakeNote,
		"category":         category,
		"searchQuery":      p.searchQuery,
		"approximatePrice": p.price,
		"price":            p.price,
		"estimatedPrice":   p.price,
		"features":         p.features,
	})
}
