package adapters

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// An item's columns, written once: itemFields says, for each answered field, the SQL that
// yields it, its JSON key, how the list answers write its binary value, which domain.Item
// field it is read into and written from, and when it is written. The list answers, the
// scans, the INSERT and the UPDATE are all built from it, so a new item field is its
// migration, its domain.Item field and one row here.

// column is one answered field.
type column struct {
	sql   string
	key   string
	write func(buf, v []byte) ([]byte, error)
	photo bool // its address is signed for the answer
	// field points at the domain.Item field the column is scanned into and written from; nil
	// for a computed column (the claim summaries of the list answers).
	field func(*domain.Item) any
	saved saving
	// values, when set, makes the column read that many values (sql lists them, comma-separated)
	// and writes them as one JSON value with writeValues instead of write.
	values      int
	writeValues func(buf []byte, v [][]byte) ([]byte, error)
}

// saving says when a column is written.
type saving int

const (
	savedNever    saving = iota // the database sets it (created_at) or it is computed
	savedOnCreate               // set once when the item is made (id, how it was made)
	savedAlways                 // set on create and by an owner's edit
)

var itemFields = []column{
	{sql: "items.id", key: "id", write: writeUUID, field: func(it *domain.Item) any { return &it.ID }, saved: savedOnCreate},
	{sql: "items.name", key: "name", write: writeText, field: func(it *domain.Item) any { return &it.Name }, saved: savedAlways},
	{sql: "items.description", key: "description", write: writeText, field: func(it *domain.Item) any { return &it.Description }, saved: savedAlways},
	{sql: "items.price", key: "price", write: writeNullableText, field: func(it *domain.Item) any { return &it.Price }, saved: savedAlways},
	{sql: "items.image_url", key: "imageUrl", write: writeNullableText, photo: true, field: func(it *domain.Item) any { return &it.ImageURL }, saved: savedAlways},
	{sql: "items.category", key: "category", write: writeNullableText, field: func(it *domain.Item) any { return &it.Category }, saved: savedAlways},
	{sql: "items.features", key: "features", write: writeJSONB, field: func(it *domain.Item) any { return &it.Features }, saved: savedAlways},
	{sql: "items.search_query", key: "searchQuery", write: writeText, field: func(it *domain.Item) any { return &it.SearchQuery }, saved: savedAlways},
	{sql: "items.shopping_url", key: "shoppingUrl", write: writeText, field: func(it *domain.Item) any { return &it.ShoppingURL }, saved: savedAlways},
	{sql: "items.ai_generated", key: "aiGenerated", write: writeBool, field: func(it *domain.Item) any { return &it.AIGenerated }, saved: savedOnCreate},
	{sql: "items.sent_to_santa", key: "sentToSanta", write: writeBool, field: func(it *domain.Item) any { return &it.SentToSanta }, saved: savedOnCreate},
	{sql: "items.created_at", key: "createdAt", write: writeTime, field: func(it *domain.Item) any { return &it.CreatedAt }, saved: savedNever},
	{sql: "items.list_id", key: "listId", write: writeUUID, field: func(it *domain.Item) any { return &it.ListID }, saved: savedAlways},
	{sql: "items.priority", key: "priority", write: writeInt2, field: func(it *domain.Item) any { return &it.Priority }, saved: savedAlways},
	{sql: "items.quantity", key: "quantity", write: writeInt2, field: func(it *domain.Item) any { return &it.Quantity }, saved: savedAlways},
	{sql: "items.notes", key: "notes", write: writeText, field: func(it *domain.Item) any { return &it.Notes }, saved: savedAlways},
}

// itemColumns are what scanItem reads: the owner, then itemFields in order.
var itemColumns = "items.user_id, " + itemProjection.sql

// Statements built from itemFields once.
var (
	insertItemSQL, updateItemSQL = itemWrites()
)

// itemWrites builds the INSERT (user_id, then every column saved on create; $n in order) and
// the UPDATE (every column an edit saves, for the item $1).
func itemWrites() (insert, update string) {
	names, params := []string{"user_id"}, []string{"$1"}
	var sets []string
	for _, c := range itemFields {
		name := strings.TrimPrefix(c.sql, "items.")
		if c.saved != savedNever {
			names = append(names, name)
			params = append(params, "$"+strconv.Itoa(len(params)+1))
		}
		if c.saved == savedAlways {
			sets = append(sets, name+" = $"+strconv.Itoa(len(sets)+2))
		}
	}
	insert = "INSERT INTO items (" + strings.Join(names, ", ") + ") VALUES (" + strings.Join(params, ", ") + ") RETURNING created_at"
	update = "UPDATE items SET " + strings.Join(sets, ", ") + " WHERE id = $1"
	return insert, update
}

// itemValues are the arguments of the columns saved when, in itemFields' order.
func itemValues(it *domain.Item, when func(saving) bool) []any {
	normalizeFeatures(it) // the column holds a JSON array, never null
	var values []any
	for _, c := range itemFields {
		if when(c.saved) {
			values = append(values, c.field(it))
		}
	}
	return values
}

func insertItem(ctx context.Context, tx pgx.Tx, item *domain.Item) error {
	args := append([]any{item.UserID}, itemValues(item, func(s saving) bool { return s != savedNever })...)
	if err := tx.QueryRow(ctx, insertItemSQL, args...).Scan(&item.CreatedAt); err != nil {
		return fmt.Errorf("insert item: %w", err)
	}
	return nil
}

func updateItem(ctx context.Context, tx pgx.Tx, id string, next *domain.Item) error {
	args := append([]any{id}, itemValues(next, func(s saving) bool { return s == savedAlways })...)
	if _, err := tx.Exec(ctx, updateItemSQL, args...); err != nil {
		return fmt.Errorf("update item %s: %w", id, err)
	}
	return nil
}

// itemTargets are the scan targets of itemColumns, in their order.
func itemTargets(it *domain.Item) []any {
	targets := []any{&it.UserID}
	for _, c := range itemFields {
		targets = append(targets, c.field(it))
	}
	return targets
}

func scanItem(row pgx.CollectableRow) (domain.Item, error) {
	var it domain.Item
	if err := row.Scan(itemTargets(&it)...); err != nil {
		return it, err
	}
	normalizeFeatures(&it)
	return it, nil
}

// normalizeFeatures gives an item without features an empty list, as the API answers it and
// the column stores it.
func normalizeFeatures(it *domain.Item) {
	if it.Features == nil {
		it.Features = []string{}
	}
}
