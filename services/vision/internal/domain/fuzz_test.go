package domain

import (
	"testing"
	"unicode/utf8"
)

// FuzzParseReply feeds arbitrary model text through every reader. Whatever the text, none may
// panic, and every answer either is an AIFailure or carries the spec's non-empty fields
// (docs/spec.md, section 3).
func FuzzParseReply(f *testing.F) {
	for _, seed := range []string{
		`{"name":"Red Bike","description":"A bike.","category":"Toys","searchQuery":"red bike","approximatePrice":"$99","features":["a","b","c"]}`,
		"```json\n{\"name\": \"Train\", \"price\": \"$12.99\"}\n```",
		"Here is it: {\"name\":\"x\"} and {\"name\":\"y\"}",
		`{"name":"Set {of} 3 }}","d":"\"}"}`,
		"name: Teddy\ndescription: soft\nprice: $5",
		"{{{{{{{{{{",
		"}}}}{\"",
		`{"features":"a,b,c","price":-1,"approximatePrice":1e309}`,
		`{"name":null,"price":true,"features":[{"x":1},null,3.5]}`,
		"\xff\xfe{\"name\":\"\xff\"}",
		"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r := ModelReply{Candidates: 1, Text: text, HasText: true}
		if a, err := AnalysisFromReply(r); err == nil {
			if a.Name == "" || a.Description == "" || a.Category == "" || a.SearchQuery == "" || a.Features == nil {
				t.Fatalf("analysis with empty field: %+v", a)
			}
			if len(a.Features) > maxFeatures || utf8.RuneCountInString(a.Name) > maxNameLength {
				t.Fatalf("limits not applied: %+v", a)
			}
		} else if _, ok := AsAIFailure(err); !ok {
			t.Fatalf("unexpected error type %T", err)
		}
		g, err := GiftFromReply(r)
		if err != nil {
			if _, ok := AsAIFailure(err); !ok {
				t.Fatalf("unexpected error type %T", err)
			}
		} else if g.Name == "" || g.Description == "" || g.Price == "" {
			t.Fatalf("gift with empty field: %+v", g)
		}
		if it, err := ItemFromReply(r); err == nil {
			if it.Name == "" || it.Price == "" || it.EstimatedPrice == "" || it.Category == "" {
				t.Fatalf("item with empty field: %+v", it)
			}
		}
		_ = ExtractFields(text)
	})
}
