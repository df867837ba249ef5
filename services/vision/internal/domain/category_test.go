package domain_test

import (
	"slices"
	"testing"

	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

func TestCategoryMapping(t *testing.T) {
	cases := []struct {
		texts []string
		want  string
	}{
		{[]string{"Toys & Games > Building Toys"}, "Toys"},
		{[]string{"Toys, Construction toys", "en:toys", "en:construction-toys"}, "Toys"},
		{[]string{"Electronics > Communications > Telephony > Mobile Phones"}, "Electronics"},
		{[]string{"Media > Books > Print Books"}, "Books"},
		{[]string{"Apparel & Accessories > Clothing > Shirts & Tops"}, "Clothing"},
		{[]string{"Apparel & Accessories > Jewelry > Necklaces"}, "Jewelry"},
		{[]string{"Health & Beauty > Personal Care > Cosmetics"}, "Beauty"},
		{[]string{"Sporting Goods > Outdoor Recreation > Camping"}, "Sports"},
		{[]string{"Home & Garden > Kitchen & Dining > Cookware"}, "Home"},
		{[]string{"Gift Cards"}, "Gift Cards"},
		{[]string{"Breakfasts, Spreads", "en:breakfasts", "en:hazelnut-spreads"}, "Other"}, // food
		{[]string{""}, "Other"},
		{[]string{"Strings and clearing supplies"}, "Other"}, // "ring" inside a word is no jewel
	}
	for _, c := range cases {
		got := domain.MapCategory(c.texts...)
		if got != c.want {
			t.Errorf("MapCategory(%q) = %q, want %q", c.texts, got, c.want)
		}
		if !slices.Contains(domain.Categories, got) {
			t.Errorf("MapCategory(%q) = %q, not one of the spec's categories", c.texts, got)
		}
	}
}
