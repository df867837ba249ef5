package adapters_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"testing"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/migrate"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/wishlist/internal/adapters"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// Texts that exercise every escaping rule a JSON string has.
var awkwardTexts = []string{
	"plain gift",
	`quote " and backslash \ inside`,
	"tab\tnew line\ncarriage\rbell\bform\ffeed and \x01\x1f controls",
	"<script>alert('&')</script>",
	"emoji 🎅 and accents: crème brûlée, Ümlaut, 日本語",
	"line\u2028and paragraph\u2029separators",
	"",
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func newRepository(t *testing.T) *adapters.Repository {
	t.Helper()
	pool, _ := testenv.Postgres(t)
	if err := migrate.Apply(context.Background(), pool, "wishlist", adapters.Migrations(), quiet); err != nil {
		t.Fatal(err)
	}
	return adapters.NewRepository(pool, testenv.MediaURLSigner())
}

func listJSON(t *testing.T, r *adapters.Repository, userID string, limit int) []byte {
	t.Helper()
	var body []byte
	write := func(b json.RawMessage) { body = bytes.Clone(b) }
	var err error
	if limit == 0 {
		err = r.ListJSON(context.Background(), userID, "", write)
	} else {
		err = r.RecentJSON(context.Background(), userID, limit, write)
	}
	if err != nil {
		t.Fatalf("ListJSON: %v", err)
	}
	return body
}

func decode(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	return v
}

func ptr(s string) *string { return &s }

// The list written from PostgreSQL's binary values must say what encoding/json writes for the
// same items: the API's shape is domain.Item's. (Features come as PostgreSQL prints jsonb, with
// its own spacing and escaping, so the two are compared as decoded JSON.)
func TestListJSONIsTheItemsAsEncodingJSONWritesThem(t *testing.T) {
	r := newRepository(t)
	ctx := context.Background()
	owner, other := "user-"+uuid.NewString(), "user-"+uuid.NewString()

	var created []domain.Item
	for i, text := range awkwardTexts {
		item := domain.Item{
			ID: uuid.NewString(), UserID: owner,
			Name: fmt.Sprintf("gift %d %s", i, text), Description: "description " + text,
			Features:    []string{text, "second " + text},
			SearchQuery: "query " + text, ShoppingURL: "https://www.google.com/search?tbm=shop&q=" + text,
			AIGenerated: i%2 == 0, SentToSanta: i%3 == 0,
		}
		if i%2 == 1 { // every other item has its optional fields, the rest leave them NULL
			item.Price, item.ImageURL, item.Category = ptr("$"+text), ptr("https://img.example/"+text), ptr(text)
		}
		if i == 0 {
			item.Features = []string{}
		}
		item.Priority, item.Quantity, item.Notes = 1+i%3, 1+i, "notes "+text
		saved, err := r.Create(ctx, item, "Owner")
		if err != nil {
			t.Fatalf("create %d: %v", i, err)
		}
		created = append(created, saved)
	}
	if _, err := r.Create(ctx, domain.Item{ID: uuid.NewString(), UserID: other, Name: "not yours",
		Description: "another family's gift", Features: []string{}, SearchQuery: "x", ShoppingURL: "x",
		Priority: 2, Quantity: 1}, "Other"); err != nil {
		t.Fatal(err)
	}

	newestFirst := make([]domain.Item, len(created))
	for i, it := range created {
		it.CreatedAt = it.CreatedAt.UTC()
		newestFirst[len(created)-1-i] = it
	}
	for _, limit := range []int{0, domain.RecentLimit} {
		want := newestFirst
		if limit > 0 {
			want = want[:limit]
		}
		wantJSON, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		got := listJSON(t, r, owner, limit)
		wantItems := decode(t, wantJSON)
		if limit == 0 { // a list as its owner reads it: each item with its revealed claims (none here)
			for _, it := range wantItems.([]any) {
				it.(map[string]any)["claims"] = []any{}
			}
		}
		if !reflect.DeepEqual(decode(t, got), wantItems) {
			t.Errorf("limit %d:\n got %s\nwant %s", limit, got, wantJSON)
		}
	}
}

func TestListJSONOfAnEmptyWishlistIsAnEmptyArray(t *testing.T) {
	r := newRepository(t)
	if got := listJSON(t, r, "nobody-"+uuid.NewString(), 0); string(got) != "[]" {
		t.Errorf("got %s, want []", got)
	}
}

// Invalid UTF-8 cannot reach a UTF8 database, but the encoder must still write valid JSON
// the way encoding/json would if it ever did.
func TestAppendStringEscapesAsEncodingJSON(t *testing.T) {
	for _, s := range append(awkwardTexts, "bad \xff byte", "cut rune \xe2\x82", "\x7f del") {
		want, _ := json.Marshal(s)
		got := adapters.AppendJSONString(nil, []byte(s))
		if !bytes.Equal(got, want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
}

func BenchmarkAppendString(b *testing.B) {
	s := []byte("A present used to measure the list, with a longer description — and a <b>tag</b>")
	buf := make([]byte, 0, 256)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		buf = adapters.AppendJSONString(buf[:0], s)
	}
}

// An item is scanned back exactly as it was saved, and an edit saves every field an owner may
// edit: the scans, the INSERT and the UPDATE are all built from the one column table.
func TestAnEditReadsTheSavedItemAndSavesEveryEditableField(t *testing.T) {
	r := newRepository(t)
	ctx := context.Background()
	owner := "user-" + uuid.NewString()
	saved, err := r.Create(ctx, domain.Item{ID: uuid.NewString(), UserID: owner, Name: "Sledge",
		Description: "wooden", Price: ptr("$40"), Features: []string{"red"}, SearchQuery: "sledge",
		ShoppingURL: "https://shop.example/sledge", AIGenerated: true, Priority: 2, Quantity: 2, Notes: "size M"}, "Owner")
	if err != nil {
		t.Fatal(err)
	}
	saved.CreatedAt = saved.CreatedAt.UTC()
	var edited domain.Item
	if _, err := r.Update(ctx, owner, saved.ID, func(read domain.Item) (domain.Item, error) {
		read.CreatedAt = read.CreatedAt.UTC()
		if !reflect.DeepEqual(read, saved) {
			t.Errorf("read back\n %+v\nwant\n %+v", read, saved)
		}
		edited = read
		edited.Name, edited.Description, edited.Price = "Big sledge", "oak", nil
		edited.ImageURL, edited.Category = ptr("https://img.example/sledge"), ptr("Toys")
		edited.Features, edited.SearchQuery, edited.ShoppingURL = []string{"blue", "fast"}, "big sledge", "https://shop.example/big"
		edited.Priority, edited.Quantity, edited.Notes = 3, 1, "size L"
		return edited, nil
	}); err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal([]domain.Item{edited})
	if err != nil {
		t.Fatal(err)
	}
	got := decode(t, listJSON(t, r, owner, domain.RecentLimit))
	if !reflect.DeepEqual(got, decode(t, want)) {
		t.Errorf("after the edit:\n got %v\nwant %s", got, want)
	}
}
