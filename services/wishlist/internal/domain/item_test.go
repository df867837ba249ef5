package domain

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func decode(t *testing.T, raw string) Draft {
	t.Helper()
	var d Draft
	if err := json.Unmarshal([]byte(raw), &d); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return d
}

func TestValidationMessagesAreTheSpecs(t *testing.T) {
	cases := map[string]struct {
		body  string
		field string
		msg   string
	}{
		"short name":           {`{"name":"ab","description":"long enough text","category":"Toys"}`, "name", "Item name must be at least 3 characters."},
		"short description":    {`{"name":"Sled","description":"short","category":"Toys"}`, "description", "Please provide a detailed description (at least 10 characters)."},
		"empty category":       {`{"name":"Sled","description":"long enough text","category":"  "}`, "category", "Please select a category."},
		"short search query":   {`{"name":"Sled","description":"long enough text","category":"Toys","searchQuery":"ab"}`, "searchQuery", "Please provide a search query for the product."},
		"bad image url":        {`{"name":"Sled","description":"long enough text","category":"Toys","imageUrl":"not a url"}`, "imageUrl", "Please provide a valid image URL or leave it blank."},
		"javascript url":       {`{"name":"Sled","description":"long enough text","category":"Toys","imageUrl":"javascript:alert(1)"}`, "imageUrl", "Please provide a valid image URL or leave it blank."},
		"data url not image":   {`{"name":"Sled","description":"long enough text","imageUrl":"data:text/html;base64,PGgxPg=="}`, "imageUrl", "Please provide a valid image URL or leave it blank."},
		"huge name":            {`{"name":"` + strings.Repeat("a", 101) + `","description":"long enough text"}`, "name", "Item name must be at most 100 characters."},
		"name of spaces only":  {`{"name":"     ","description":"long enough text"}`, "name", "Item name must be at least 3 characters."},
		"NUL in a description": {`{"name":"Sled","description":"long enough\u0000text"}`, "description", MsgNULCharacter},
		"NUL in a feature":     {`{"name":"Sled","description":"long enough text","features":["ok","b\u0000d"]}`, "features", MsgNULCharacter},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := decode(t, tc.body).Validate()
			var v *ValidationError
			if !errors.As(err, &v) {
				t.Fatalf("want a validation error, got %v", err)
			}
			if v.Fields[tc.field] != tc.msg {
				t.Fatalf("field %s: got %q, want %q (all: %v)", tc.field, v.Fields[tc.field], tc.msg, v.Fields)
			}
		})
	}
}

func TestTheSpecsThreeItemShapesAreAccepted(t *testing.T) {
	photo := `{"name":"Racing Car","description":"A fast red toy car.","price":29.99,"imageUrl":"","category":"Toys",
		"features":["remote control","LED lights","rechargeable"],"searchQuery":"rc racing car","shoppingUrl":"","aiGenerated":true,"sentToSanta":false}`
	text := `{"name":"Board Game","description":"A family strategy game.","category":"Toys","price":null,"imageUrl":null,
		"searchQuery":"","shoppingUrl":"https://x","features":[],"aiGenerated":false,"sentToSanta":false,"userId":"someone-else"}`
	gift := `{"name":"Wishlist Item","description":"A gift item from your wishlist","price":"$0.00","imageUrl":"https://example.com/a.jpg"}`

	item, err := decode(t, photo).Validate()
	if err != nil {
		t.Fatal(err)
	}
	if *item.Price != "29.99" || !item.AIGenerated || len(item.Features) != 3 || item.SearchQuery != "rc racing car" {
		t.Fatalf("photo shape: %+v", item)
	}
	if item.ShoppingURL != "https://www.google.com/search?tbm=shop&q=rc+racing+car" {
		t.Fatalf("a blank shopping url is built by the server from the query, got %s", item.ShoppingURL)
	}

	item, err = decode(t, text).Validate()
	if err != nil {
		t.Fatal(err)
	}
	if item.Price != nil || item.ImageURL != nil || item.SearchQuery != "Board Game" || item.AIGenerated {
		t.Fatalf("text shape: %+v", item)
	}

	item, err = decode(t, gift).Validate()
	if err != nil {
		t.Fatal(err)
	}
	if item.Category != nil || *item.Price != "$0.00" || *item.ImageURL != "https://example.com/a.jpg" {
		t.Fatalf("gift shape: %+v", item)
	}
}

func TestPriceOfTheWrongTypeIsATypeError(t *testing.T) {
	var d Draft
	err := json.Unmarshal([]byte(`{"price":{"amount":3}}`), &d)
	var typeErr *json.UnmarshalTypeError
	if !errors.As(err, &typeErr) || typeErr.Field != "price" {
		t.Fatalf("want a type error on price, got %v", err)
	}
}

func TestAShopLinkIsKeptAsTheShoppingURLAndABadOneRefused(t *testing.T) {
	const shop = "https://shop.example/toys/railway?ref=1"
	item, err := decode(t, `{"name":"Wooden railway","description":"A beech-wood railway.","shoppingUrl":" `+shop+` "}`).Validate()
	if err != nil || item.ShoppingURL != shop {
		t.Fatalf("kept: %v %q", err, item.ShoppingURL)
	}
	for _, bad := range []string{"javascript:alert(1)", "ftp://x.example/a", "shop.example/a", "https://user:pw@shop.example/",
		"https://shop.example/a b", "https://" + strings.Repeat("a", MaxShoppingURLLength) + ".example/", "https://shop.example/\\u0000"} {
		_, err := decode(t, `{"name":"Wooden railway","description":"A beech-wood railway.","shoppingUrl":"`+bad+`"}`).Validate()
		var v *ValidationError
		if !errors.As(err, &v) || v.Fields["shoppingUrl"] != MsgShoppingURLInvalid {
			t.Errorf("%.40q: %v", bad, err)
		}
	}

	// Edits keep an imported link, follow the query with a built one, and clear on "".
	saved, _ := decode(t, `{"name":"Wooden railway","description":"A beech-wood railway.","shoppingUrl":"`+shop+`"}`).Validate()
	edited, err := decode(t, `{"name":"Wooden railway set","searchQuery":"wooden railway"}`).Edit(saved)
	if err != nil || edited.ShoppingURL != shop {
		t.Fatalf("edit keeps the link: %v %q", err, edited.ShoppingURL)
	}
	cleared, err := decode(t, `{"shoppingUrl":""}`).Edit(edited)
	if err != nil || cleared.ShoppingURL != ShoppingURL("wooden railway") {
		t.Fatalf("clearing: %v %q", err, cleared.ShoppingURL)
	}
	built, _ := decode(t, `{"name":"Kite","description":"A red kite for windy days."}`).Validate()
	requeried, err := decode(t, `{"searchQuery":"red kite"}`).Edit(built)
	if err != nil || requeried.ShoppingURL != ShoppingURL("red kite") {
		t.Fatalf("a built link follows the query: %v %q", err, requeried.ShoppingURL)
	}
}
