package domain_test

import (
	"net/url"
	"os"
	"testing"

	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

func TestShopMarkupStylesGiveTheItem(t *testing.T) {
	base, _ := url.Parse("https://shop.example/products/item?id=7")
	cases := []struct {
		file string
		want domain.Extracted
	}{
		{"jsonld.html", domain.Extracted{Name: "Wooden Train Set with 40 Pieces",
			Description: "A beech-wood railway with bridges, a tunnel and three magnetic carriages.",
			ImageURL:    "https://shop.example/img/train-large.png", Price: "49.95", Currency: "EUR",
			Category: "Toys & Games > Trains", Source: domain.FromJSONLD}},
		{"opengraph.html", domain.Extracted{Name: "Noise-Cancelling Headphones X200",
			Description: "Wireless over-ear headphones with 30 hours of battery.",
			ImageURL:    "https://cdn.gadgets.example/x200.jpg", Price: "1,299.00", Currency: "USD", Source: domain.FromOpenGraph}},
		{"microdata.html", domain.Extracted{Name: "Cozy Knit Scarf", Description: "Soft merino wool scarf in forest green.",
			ImageURL: "https://shop.example/products/images/scarf.jpg", Price: "24.50", Currency: "GBP", Source: domain.FromMicrodata}},
		{"neither.html", domain.Extracted{Name: "Glow-in-the-Dark Star Stickers | Little Shop",
			Description: "200 stars for the bedroom ceiling.", Source: domain.FromTitle}},
	}
	for _, c := range cases {
		html, err := os.ReadFile("testdata/shops/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		if got := domain.Extract(html, base); got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.file, got, c.want)
		}
	}
}

func TestBrokenMarkupGivesWhatItCan(t *testing.T) {
	html := []byte(`<html><head><script type="application/ld+json">{"@type":"Product", "name": </script>
<meta property="og:title" content="Fallback Name"><meta property="og:image" content="javascript:alert(1)"></head>`)
	got := domain.Extract(html, nil)
	if got.Name != "Fallback Name" || got.ImageURL != "" || got.Source != domain.FromOpenGraph {
		t.Errorf("got %+v", got)
	}
	if got := domain.Extract([]byte("\x00\xff<<<"), nil); got.Name != "" {
		t.Errorf("garbage gave %+v", got)
	}
}

func TestPricesAsShopsWriteThem(t *testing.T) {
	cases := map[string]float64{"29.99": 29.99, "1,299.00": 1299, "29,99": 29.99, "1.299,00": 1299, "$ 15": 15, "EUR 7.5": 7.5}
	for in, want := range cases {
		if got, ok := domain.ParseAmount(in); !ok || got != want {
			t.Errorf("ParseAmount(%q) = %v %v, want %v", in, got, ok, want)
		}
	}
	if _, ok := domain.ParseAmount("call us"); ok {
		t.Error("no digits is no price")
	}
	if got := domain.FormatPrice(49.95, "EUR"); got != "€49.95" {
		t.Errorf("FormatPrice = %q", got)
	}
}
