// Package domain holds the wishlist's rules: what a valid item is, in the spec's words
// (docs/spec.md, section 5: validation rules), and how its shopping link is made. No I/O lives
// here.
package domain

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/mediaurl"
)

// The spec's validation messages (docs/spec.md, section 5: validation rules), word for word.
const (
	MsgNameTooShort        = "Item name must be at least 3 characters."
	MsgDescriptionTooShort = "Please provide a detailed description (at least 10 characters)."
	MsgCategoryMissing     = "Please select a category."
	MsgSearchQueryTooShort = "Please provide a search query for the product."
	MsgImageURLInvalid     = "Please provide a valid image URL or leave it blank."
	// MsgShoppingURLInvalid is ours (the spec builds the link itself; a pasted shop link is kept).
	MsgShoppingURLInvalid = "Please provide a shop link starting with http:// or https://, or leave it blank."
)

// Messages for the family fields, in the same voice as the spec's.
const (
	MsgPriority     = "Please choose a priority: 1 (nice to have), 2 (would love) or 3 (most wanted)."
	MsgQuantity     = "Quantity must be between 1 and 99."
	MsgNotesTooLong = "Notes must be at most 500 characters."
	MsgListUnknown  = "Please choose one of your lists."
)

// MsgNULCharacter refuses text holding U+0000, which the database cannot store.
const MsgNULCharacter = "This text contains a character that cannot be saved (U+0000). Please remove it."

// Limits of our own, so one request cannot store an essay in a name.
const (
	MaxNameLength        = 100
	MaxDescriptionLength = 2000
	MaxCategoryLength    = 50
	MaxPriceLength       = 40
	MaxSearchQueryLength = 200
	MaxImageURLLength    = 2048
	MaxShoppingURLLength = 2048
	MaxFeatures          = 10
	MaxFeatureLength     = 200
	MaxNotesLength       = 500
	MaxQuantity          = 99
	// Priorities: 1 nice to have, 2 would love (the default), 3 most wanted.
	MinPriority, DefaultPriority, MaxPriority = 1, 2, 3
	// MaxItemsPerUser keeps one account from filling the database.
	MaxItemsPerUser = 500
	// RecentLimit is how many items "recent" answers.
	RecentLimit = 5
)

// Item is a saved wishlist entry.
type Item struct {
	ID          string    `json:"id"`
	UserID      string    `json:"-"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Price       *string   `json:"price"`
	ImageURL    *string   `json:"imageUrl"`
	Category    *string   `json:"category"`
	Features    []string  `json:"features"`
	SearchQuery string    `json:"searchQuery"`
	ShoppingURL string    `json:"shoppingUrl"`
	AIGenerated bool      `json:"aiGenerated"`
	SentToSanta bool      `json:"sentToSanta"`
	CreatedAt   time.Time `json:"createdAt"`
	ListID      string    `json:"listId"`
	Priority    int       `json:"priority"`
	Quantity    int       `json:"quantity"`
	Notes       string    `json:"notes"`
	// SuggestedByName names a suggestion's suggester (read with a suggestion only; the list
	// answers write it from the database).
	SuggestedByName string `json:"-"`
}

// FlexString accepts a JSON string, number or null: the photo flow sends an approximate price
// as either, the text form as text.
type FlexString struct {
	Value *string
	Set   bool // the field was present (an edit may clear it with null)
}

// UnmarshalJSON implements json.Unmarshaler.
func (f *FlexString) UnmarshalJSON(b []byte) error {
	raw := strings.TrimSpace(string(b))
	f.Set = true
	switch {
	case raw == "null":
		f.Value = nil
	case strings.HasPrefix(raw, `"`):
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		f.Value = &s
	default:
		n, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return &json.UnmarshalTypeError{Value: "value", Type: typeOfString}
		}
		s := strconv.FormatFloat(n, 'f', -1, 64)
		f.Value = &s
	}
	return nil
}

// Draft is an item as a client sends it: any of the spec's three shapes (docs/spec.md, section 3:
// photo/analysis flow, text form, gift options screen). Fields a client may not set (id, userId,
// createdAt) are accepted and ignored: the server decides them. shoppingUrl is kept when it is a
// valid http(s) link (a shop page the item was imported from); blank, it is built from the query.
type Draft struct {
	Name        *string    `json:"name"`
	Description *string    `json:"description"`
	Category    *string    `json:"category"`
	Price       FlexString `json:"price"`
	ImageURL    *string    `json:"imageUrl"`
	SearchQuery *string    `json:"searchQuery"`
	ShoppingURL *string    `json:"shoppingUrl"`
	Features    []string   `json:"features"`
	AIGenerated *bool      `json:"aiGenerated"`
	SentToSanta *bool      `json:"sentToSanta"`
	ListID      *string    `json:"listId"`
	Priority    *int       `json:"priority"`
	Quantity    *int       `json:"quantity"`
	Notes       *string    `json:"notes"`
}

// ValidationError maps fields to the messages a person reads.
type ValidationError struct {
	Fields map[string]string
	order  []string
}

func (v *ValidationError) add(field, msg string) {
	if v.Fields == nil {
		v.Fields = map[string]string{}
	}
	if _, seen := v.Fields[field]; !seen {
		v.order = append(v.order, field)
		v.Fields[field] = msg
	}
}

// ErrNotYourImage: the image URL names an upload of someone else's (media says so); the item
// is refused as with any invalid image URL, so nobody can get addresses signed for it.
var ErrNotYourImage = errors.New("image is not the caller's upload")

// FieldError is a validation error of one field.
func FieldError(field, msg string) *ValidationError {
	var v ValidationError
	v.add(field, msg)
	return &v
}

// Error returns the first problem, in form order, as the headline message.
func (v *ValidationError) Error() string {
	if len(v.order) == 0 {
		return "invalid item"
	}
	return v.Fields[v.order[0]]
}

// ErrNotFound is returned for an item that does not exist or belongs to someone else: the
// two are indistinguishable on purpose, so ids cannot be probed.
var ErrNotFound = errors.New("item not found")

// ErrWishlistFull is returned when a user already has MaxItemsPerUser items.
var ErrWishlistFull = fmt.Errorf("your wishlist is full (at most %d items); remove some to add more", MaxItemsPerUser)

// RoomForItem says whether a user who has n items may add one more. The store asks it with
// the count read under the user's lock, so two adds cannot race past the cap.
func RoomForItem(n int) error {
	if n >= MaxItemsPerUser {
		return ErrWishlistFull
	}
	return nil
}

// Validate checks a draft and returns the item to save (without id, user and time).
func (d Draft) Validate() (Item, error) {
	var v ValidationError
	item := Item{Features: []string{}}

	item.Name = strings.TrimSpace(deref(d.Name))
	switch n := utf8.RuneCountInString(item.Name); {
	case n < 3:
		v.add("name", MsgNameTooShort)
	case n > MaxNameLength:
		v.add("name", fmt.Sprintf("Item name must be at most %d characters.", MaxNameLength))
	}

	item.Description = strings.TrimSpace(deref(d.Description))
	switch n := utf8.RuneCountInString(item.Description); {
	case n < 10:
		v.add("description", MsgDescriptionTooShort)
	case n > MaxDescriptionLength:
		v.add("description", fmt.Sprintf("Description must be at most %d characters.", MaxDescriptionLength))
	}

	// The gift options screen sends no category at all; the wishlist shows such items under
	// 'Uncategorized'. A category that is sent must be chosen.
	if d.Category != nil {
		c := strings.TrimSpace(*d.Category)
		switch {
		case c == "":
			v.add("category", MsgCategoryMissing)
		case utf8.RuneCountInString(c) > MaxCategoryLength:
			v.add("category", fmt.Sprintf("Category must be at most %d characters.", MaxCategoryLength))
		default:
			item.Category = &c
		}
	}

	if d.Price.Value != nil {
		p := strings.TrimSpace(*d.Price.Value)
		if utf8.RuneCountInString(p) > MaxPriceLength {
			v.add("price", fmt.Sprintf("Price must be at most %d characters.", MaxPriceLength))
		} else if p != "" {
			item.Price = &p
		}
	}

	if d.ImageURL != nil {
		// A photo's address comes back as it was answered, signed; the plain
		// /media/ address is what is stored, and signed afresh on every answer.
		if u := mediaurl.Unsigned(strings.TrimSpace(*d.ImageURL)); u != "" {
			if !validImageURL(u) {
				v.add("imageUrl", MsgImageURLInvalid)
			} else {
				item.ImageURL = &u
			}
		}
	}

	q := strings.TrimSpace(deref(d.SearchQuery))
	switch n := utf8.RuneCountInString(q); {
	case n == 0:
		q = item.Name
	case n < 3:
		v.add("searchQuery", MsgSearchQueryTooShort)
	case n > MaxSearchQueryLength:
		v.add("searchQuery", fmt.Sprintf("Search query must be at most %d characters.", MaxSearchQueryLength))
	}
	item.SearchQuery = q
	item.ShoppingURL = ShoppingURL(q)
	if d.ShoppingURL != nil {
		if u := strings.TrimSpace(*d.ShoppingURL); u != "" {
			if !validShoppingURL(u) {
				v.add("shoppingUrl", MsgShoppingURLInvalid)
			} else {
				item.ShoppingURL = u
			}
		}
	}

	if len(d.Features) > MaxFeatures {
		v.add("features", fmt.Sprintf("At most %d features, please.", MaxFeatures))
	}
	for _, f := range d.Features {
		f = strings.TrimSpace(f)
		if utf8.RuneCountInString(f) > MaxFeatureLength {
			v.add("features", fmt.Sprintf("Each feature must be at most %d characters.", MaxFeatureLength))
			break
		}
		if f != "" && len(item.Features) < MaxFeatures {
			item.Features = append(item.Features, f)
		}
	}

	item.Priority = DefaultPriority
	if d.Priority != nil {
		if *d.Priority < MinPriority || *d.Priority > MaxPriority {
			v.add("priority", MsgPriority)
		}
		item.Priority = *d.Priority
	}
	item.Quantity = 1
	if d.Quantity != nil {
		if *d.Quantity < 1 || *d.Quantity > MaxQuantity {
			v.add("quantity", MsgQuantity)
		}
		item.Quantity = *d.Quantity
	}
	item.Notes = strings.TrimSpace(deref(d.Notes))
	if utf8.RuneCountInString(item.Notes) > MaxNotesLength {
		v.add("notes", MsgNotesTooLong)
	}
	// The list is checked against the caller's lists by the store; here only its form.
	item.ListID = strings.TrimSpace(deref(d.ListID))
	if item.ListID != "" && !IsUUID(item.ListID) {
		v.add("listId", MsgListUnknown)
	}

	item.AIGenerated = d.AIGenerated != nil && *d.AIGenerated
	item.SentToSanta = d.SentToSanta != nil && *d.SentToSanta

	// JSON may carry U+0000 (as \u0000) but PostgreSQL text and jsonb cannot store it: refuse it
	// here, in words, rather than fail the insert.
	for _, f := range []struct{ field, text string }{
		{"name", item.Name}, {"description", item.Description}, {"category", deref(item.Category)},
		{"price", deref(item.Price)}, {"imageUrl", deref(item.ImageURL)}, {"searchQuery", item.SearchQuery},
		{"shoppingUrl", item.ShoppingURL},
		{"features", strings.Join(item.Features, "")}, {"notes", item.Notes},
	} {
		if strings.ContainsRune(f.text, 0) {
			v.add(f.field, MsgNULCharacter)
		}
	}

	if len(v.Fields) > 0 {
		return Item{}, &v
	}
	return item, nil
}

// Edit applies a PATCH body to a saved item: fields the body carries replace the item's, the
// rest stay, and the result is validated as a new item would be, with the same messages.
func (d Draft) Edit(saved Item) (Item, error) {
	merged := Draft{
		Name: &saved.Name, Description: &saved.Description, Category: saved.Category,
		Price: FlexString{Value: saved.Price}, ImageURL: saved.ImageURL, SearchQuery: &saved.SearchQuery,
		Features: saved.Features, AIGenerated: &saved.AIGenerated, SentToSanta: &saved.SentToSanta,
		ListID: &saved.ListID, Priority: &saved.Priority, Quantity: &saved.Quantity, Notes: &saved.Notes,
	}
	if d.Name != nil {
		merged.Name = d.Name
	}
	if d.Description != nil {
		merged.Description = d.Description
	}
	if d.Category != nil {
		merged.Category = d.Category
	}
	if d.Price.Set {
		merged.Price = d.Price
	}
	if d.ImageURL != nil {
		merged.ImageURL = d.ImageURL
	}
	if d.SearchQuery != nil {
		merged.SearchQuery = d.SearchQuery
	}
	// A shop link the item was saved with stays through edits; one the server built from the
	// query follows the query (it is rebuilt when no link is merged in).
	if saved.ShoppingURL != "" && saved.ShoppingURL != ShoppingURL(saved.SearchQuery) {
		merged.ShoppingURL = &saved.ShoppingURL
	}
	if d.ShoppingURL != nil {
		merged.ShoppingURL = d.ShoppingURL
	}
	if d.Features != nil {
		merged.Features = d.Features
	}
	if d.ListID != nil {
		merged.ListID = d.ListID
	}
	if d.Priority != nil {
		merged.Priority = d.Priority
	}
	if d.Quantity != nil {
		merged.Quantity = d.Quantity
	}
	if d.Notes != nil {
		merged.Notes = d.Notes
	}
	// aiGenerated and sentToSanta are the server's record of how the item came to be.
	item, err := merged.Validate()
	if err != nil {
		return Item{}, err
	}
	if d.ListID != nil && item.ListID == "" {
		return Item{}, FieldError("listId", MsgListUnknown)
	}
	item.ID, item.UserID, item.CreatedAt = saved.ID, saved.UserID, saved.CreatedAt
	return item, nil
}

// IsUUID reports whether s is a UUID in its usual text form.
func IsUUID(s string) bool {
	_, err := uuid.Parse(s)
	return err == nil && len(s) == 36
}

// IsDataURL reports whether an image URL carries the image inline; such images are stored by
// the media service and replaced by their own URL before saving. Only the scheme is looked
// at: lower-casing a whole photo's worth of base64 cost 35 ms per upload.
func IsDataURL(u string) bool { return len(u) >= 5 && strings.EqualFold(u[:5], "data:") }

func validImageURL(raw string) bool {
	if IsDataURL(raw) {
		head, _, ok := strings.Cut(raw, ",")
		return ok && strings.HasPrefix(strings.ToLower(head), "data:image/") && strings.HasSuffix(strings.ToLower(head), ";base64")
	}
	if len(raw) > MaxImageURLLength {
		return false
	}
	// Our own stored images are served by the gateway at /media/...
	if strings.HasPrefix(raw, "/media/") {
		return !strings.Contains(raw, "..")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	return (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// validShoppingURL accepts an absolute http(s) link of at most MaxShoppingURLLength bytes,
// without credentials in it.
func validShoppingURL(raw string) bool {
	if len(raw) > MaxShoppingURLLength || strings.ContainsAny(raw, " \t\r\n") {
		return false
	}
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	return (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.User == nil
}

// ShoppingURL is a shop search for the query (docs/spec.md, section 2, "My Wishlist": 'a
// shopping search page for its search query').
func ShoppingURL(query string) string {
	return "https://www.google.com/search?tbm=shop&q=" + url.QueryEscape(query)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

var typeOfString = reflect.TypeOf("")
