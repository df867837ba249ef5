package domain

import "strings"

// Categories are the spec's category values (docs/spec.md, section 3: "Category choices").
var Categories = []string{"Electronics", "Clothing", "Toys", "Home", "Books", "Sports", "Beauty", "Jewelry", "Gift Cards", "Other"}

// categoryWords maps words found in a product database's category text to the spec's
// categories. Order matters: the first rule with a word in the text wins, so the more
// specific families (toys, books) come before the broad ones (home).
var categoryWords = []struct {
	category string
	words    []string
}{
	{"Gift Cards", []string{"gift card", "gift-card", "gift certificate", "giftcard"}},
	{"Toys", []string{"toy", "game", "puzzle", "lego", "doll", "plush", "action figure", "building set"}},
	{"Books", []string{"book", "media", "music", "movie", "dvd", "blu-ray", "magazine", "comic", "vinyl"}},
	{"Electronics", []string{"electronic", "computer", "phone", "camera", "audio", "headphone", "video game console", "tablet", "television", "software", "cable", "charger"}},
	{"Jewelry", []string{"jewel", "watch", "necklace", "bracelet", "earring", "ring"}},
	{"Beauty", []string{"beauty", "cosmetic", "personal care", "make-up", "makeup", "perfume", "fragrance", "skin", "hair", "shampoo", "soap", "toothpaste", "hygiene"}},
	{"Clothing", []string{"cloth", "apparel", "shoe", "footwear", "shirt", "dress", "sock", "hat", "jacket", "fashion"}},
	{"Sports", []string{"sport", "outdoor", "fitness", "camping", "bicycle", "cycling", "ball"}},
	{"Home", []string{"home", "kitchen", "garden", "furniture", "household", "appliance", "decor", "cleaning", "tool", "hardware"}},
}

// MapCategory picks the spec's category for a product database's category text (such as
// UPCitemdb's "Toys & Games > Puzzles" or Open Food Facts' "en:breakfasts, en:spreads").
// Food and anything unrecognised is "Other".
func MapCategory(texts ...string) string {
	all := strings.ToLower(strings.Join(texts, " | "))
	all = strings.NewReplacer("_", " ", "en:", "").Replace(all)
	for _, rule := range categoryWords {
		for _, w := range rule.words {
			if containsWord(all, w) {
				return rule.category
			}
		}
	}
	return "Other"
}

// containsWord finds w at the start of a word, so "ring" matches "rings" but not "string"
// or "clearing".
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		at := i + j
		if at == 0 || !isLetter(s[at-1]) {
			return true
		}
		i = at + 1
	}
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' }
