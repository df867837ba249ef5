package domain

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFirstJSONObject(t *testing.T) {
	tests := []struct {
		name, text string
		wantName   string // "" means no object expected
	}{
		{"bare", `{"name":"Red Bike"}`, "Red Bike"},
		{"fenced", "```json\n{\"name\": \"Red Bike\"}\n```", "Red Bike"},
		{"prose around", "Sure! Here is the JSON you asked for:\n{\"name\": \"Red Bike\"}\nHope this helps.", "Red Bike"},
		{"braces inside strings", `{"name":"Set {of} 3 }}","description":"a { b"}`, "Set {of} 3 }}"},
		{"escaped quote before brace", `{"name":"The \"Big\" } One"}`, `The "Big" } One`},
		{"nested object", `{"name":"Lamp","dims":{"w":1,"h":{"x":2}}}`, "Lamp"},
		{"first of two", `{"name":"First"} and {"name":"Second"}`, "First"},
		{"prose braces skipped", `Note {see below}: {"name":"Real"}`, "Real"},
		{"invalid first object skipped", `{"name": "Broken",} {"name":"Valid"}`, "Valid"},
		{"unclosed", `{"name":"Red Bike"`, ""},
		{"no json", "The image shows a red bicycle.", ""},
		{"array only", `["a","b"]`, ""},
		{"empty", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			obj, ok := FirstJSONObject(tc.text)
			if tc.wantName == "" {
				if ok {
					t.Fatalf("expected no object, got %v", obj)
				}
				return
			}
			if !ok {
				t.Fatalf("no object found in %q", tc.text)
			}
			if got := obj["name"]; got != tc.wantName {
				t.Fatalf("name = %v, want %q", got, tc.wantName)
			}
		})
	}
}

func TestExtractFieldsFromProse(t *testing.T) {
	tests := []struct {
		name string
		text string
		want map[string]string
	}{
		{"plain lines", "Name: Teddy Bear\nDescription: A soft brown bear.\nPrice: $19.99", map[string]string{
			"name": "Teddy Bear", "description": "A soft brown bear.", "price": "$19.99"}},
		{"markdown bullets", "- **Name:** Toy Train\n- **Description:** A wooden train set.\n- **Estimated price:** $45", map[string]string{
			"name": "Toy Train", "description": "A wooden train set.", "price": "$45"}},
		{"broken json", `{"name": "Robot Kit", "price": "$12.99", "description": "Build a robot",}`, map[string]string{
			"name": "Robot Kit", "description": "Build a robot", "price": "$12.99"}},
		{"escaped quote in value", `"name": "The \"Best\" Kite", `, map[string]string{"name": `The "Best" Kite`}},
		{"price anywhere", "This looks like a scarf that costs around $ 25.50 in most shops.", map[string]string{"price": "$25.50"}},
		{"nothing", "I cannot tell what this is.", map[string]string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ExtractFields(tc.text)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

func reply(text string) ModelReply { return ModelReply{Candidates: 1, Text: text, HasText: true} }

func failureMessage(t *testing.T, err error) string {
	t.Helper()
	f, ok := AsAIFailure(err)
	if !ok {
		t.Fatalf("expected an AIFailure, got %v", err)
	}
	return f.Message
}

func TestAnalysisFromReply(t *testing.T) {
	a, err := AnalysisFromReply(reply("```json\n" + `{"name":"Lego Castle","description":"A castle set.","category":"toys & games",
		"searchQuery":"lego castle set","approximatePrice":59.5,"features":["1000 pieces"," towers ",7,"","a","b","c"]}` + "\n```"))
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "Lego Castle" || a.Category != "Toys" || a.SearchQuery != "lego castle set" || a.Source != SourceGemini {
		t.Fatalf("unexpected analysis %+v", a)
	}
	if a.ApproximatePrice == nil || *a.ApproximatePrice != "$59.50" {
		t.Fatalf("price %v", a.ApproximatePrice)
	}
	if strings.Join(a.Features, "|") != "1000 pieces|towers|7|a|b" {
		t.Fatalf("features %q", a.Features)
	}

	t.Run("defaults", func(t *testing.T) {
		a, err := AnalysisFromReply(reply(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		if a.Name != "Unknown Product" || a.Description != "No description available" || a.Category != "Other" ||
			a.SearchQuery != "gift item" || a.ApproximatePrice != nil || a.Features == nil || len(a.Features) != 0 {
			t.Fatalf("defaults not applied: %+v", a)
		}
	})
	t.Run("search query falls back to name", func(t *testing.T) {
		a, _ := AnalysisFromReply(reply(`{"name":"Blue Mug"}`))
		if a.SearchQuery != "Blue Mug" {
			t.Fatalf("searchQuery %q", a.SearchQuery)
		}
	})
	t.Run("errors", func(t *testing.T) {
		cases := map[string]struct {
			r    ModelReply
			want string
		}{
			"no candidates": {ModelReply{}, "No response from Gemini API"},
			"no text":       {ModelReply{Candidates: 1}, "No valid response from Gemini API for image analysis"},
			"blank text":    {ModelReply{Candidates: 1, HasText: true, Text: "  "}, "No valid response from Gemini API for image analysis"},
			"prose":         {reply("It is a bike."), "Failed to parse the AI response. The response format was invalid."},
		}
		for name, c := range cases {
			_, err := AnalysisFromReply(c.r)
			if got := failureMessage(t, err); got != c.want {
				t.Errorf("%s: %q, want %q", name, got, c.want)
			}
		}
	})
}

func TestGiftFromReply(t *testing.T) {
	g, err := GiftFromReply(reply(`Here you go: {"name":"Toy Car","description":"A red racing car.","price":"$12.99"}`))
	if err != nil || g != (Gift{Name: "Toy Car", Description: "A red racing car.", Price: "$12.99", Source: SourceGemini}) {
		t.Fatalf("%+v %v", g, err)
	}
	g, err = GiftFromReply(reply("name: Snow Globe\nThe price is about $15."))
	if err != nil || g.Name != "Snow Globe" || g.Price != "$15" || g.Description != "No description available" {
		t.Fatalf("pattern fallback: %+v %v", g, err)
	}
	g, err = GiftFromReply(reply("I am not sure."))
	if err != nil || g.Name != "Wishlist Item" || g.Description != "No description available" || g.Price != "$0.00" {
		t.Fatalf("defaults: %+v %v", g, err)
	}
	g, _ = GiftFromReply(reply(`{"name":"Kite","price":9}`))
	if g.Price != "$9.00" {
		t.Fatalf("numeric price: %q", g.Price)
	}
	if _, err := GiftFromReply(ModelReply{}); failureMessage(t, err) != "No response from Gemini API" {
		t.Fatal(err)
	}
	if _, err := GiftFromReply(ModelReply{Candidates: 1}); failureMessage(t, err) != "No valid response from Gemini API" {
		t.Fatal(err)
	}
}

func TestItemFromReply(t *testing.T) {
	it, err := ItemFromReply(reply(`{"name":"Headphones","description":"Wireless.","estimatedPrice":"$80","category":"Electronics"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Item{Name: "Headphones", Description: "Wireless.", Price: "$80", EstimatedPrice: "$80", Category: "electronics", Source: SourceGemini}
	if it != want {
		t.Fatalf("%+v", it)
	}
	it, _ = ItemFromReply(reply(`{"category":"vehicles"}`))
	if it.Category != "other" || it.Name != "Wishlist Item" || it.Price != "$0.00" || it.EstimatedPrice != "$0.00" {
		t.Fatalf("defaults: %+v", it)
	}
	if _, err := ItemFromReply(reply("no json")); failureMessage(t, err) != MsgUnparseable {
		t.Fatal(err)
	}
}

func TestLongFieldsAreClipped(t *testing.T) {
	long := strings.Repeat("é", 500)
	a, err := AnalysisFromReply(reply(`{"name":"` + long + `","category":"` + long + `"}`))
	if err != nil {
		t.Fatal(err)
	}
	if utf8.RuneCountInString(a.Name) != 100 || utf8.RuneCountInString(a.Category) != 50 || !utf8.ValidString(a.Name) {
		t.Fatalf("not clipped: %d %d", utf8.RuneCountInString(a.Name), utf8.RuneCountInString(a.Category))
	}
}

func TestStatusFailureMessage(t *testing.T) {
	f := StatusFailure(500)
	if f.Error() != "Gemini API error (500)" || f.Reason != ReasonStatus {
		t.Fatal(f)
	}
	if StatusFailure(429).Reason != ReasonRateLimited {
		t.Fatal("429 reason")
	}
	var target *AIFailure
	if !errors.As(error(f), &target) {
		t.Fatal("not unwrappable")
	}
}
