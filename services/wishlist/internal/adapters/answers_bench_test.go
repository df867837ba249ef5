package adapters

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"testing"

	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/caller"
	"github.com/santa-wishlist/santa/pkg/migrate"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// What lists for someone else and suggestions cost the two hottest family reads, against the
// same reads as they were before them ("today"), on one database in one run (make bench-lists):
//   - a giver's shared view of a 50-item list with 10 suggestions (60 rows either way: before,
//     the suggestions would have been plain items);
//   - the recipient's own list of 50 items that also holds 10 suggestions they must not see,
//     against a list of the same 50 items before suggestions existed.
//
// The "today" readers are the queries as they stood before this change, kept here only to
// measure against.
func BenchmarkListAnswers(b *testing.B) {
	ctx := context.Background()
	pool, _ := testenv.Postgres(b)
	if err := migrate.Apply(ctx, pool, "wishlist", Migrations(), slog.New(slog.DiscardHandler)); err != nil {
		b.Fatal(err)
	}
	r := NewRepository(pool, testenv.MediaURLSigner())
	fill := func(owner string, suggestions int) (listID, token string) {
		list, err := r.CreateList(ctx, domain.List{ID: uuid.NewString(), UserID: owner, Name: "Christmas", OwnerName: owner,
			RevealAt: domain.DefaultRevealAt(now()), FamilyIDs: []string{}, Recipient: domain.Recipient{Kind: domain.RecipientSelf}})
		if err != nil {
			b.Fatal(err)
		}
		for i := range 50 {
			it := benchItem(fmt.Sprintf("Gift number %d", i))
			it.UserID, it.ListID = owner, list.ID
			if _, err := r.Create(ctx, it, owner); err != nil {
				b.Fatal(err)
			}
		}
		token = "tok" + uuid.NewString() + "0123456"
		if _, err := r.SetShare(ctx, owner, list.ID, token, owner); err != nil {
			b.Fatal(err)
		}
		for i := range suggestions {
			if _, err := r.Suggest(ctx, token, caller.Caller{UID: "gran", Name: "Gran"}, benchItem(fmt.Sprintf("Idea %d", i))); err != nil {
				b.Fatal(err)
			}
		}
		return list.ID, token
	}
	withSuggestions, token := fill("tom", 10)
	plain, _ := fill("tim", 0)
	sink := func(json.RawMessage) {}

	// Before group gifts: what is claimed was the claims alone, and a giver's item had no
	// groupGift or priceAmount.
	claimsOnly := []column{
		{sql: "(SELECT COALESCE(sum(c.quantity), 0) FROM claims c WHERE c.item_id = items.id AND c.reveal_at > now())::int4",
			key: "claimed", write: writeInt4},
		seasonClaimed[1],
	}
	oldMember := newProjection(concat(itemFields, claimsOnly))
	beforeGiving := newProjection(concat(itemFields, claimsOnly, suggestionColumns))
	shared := func(p projection, token string) error {
		l, err := findShared(ctx, r.pool, token)
		if err == nil {
			_, err = r.pool.Exec(ctx, `INSERT INTO list_viewers (list_id, user_id, seen_at) VALUES ($1, $2, now())
				ON CONFLICT (list_id, user_id) DO UPDATE SET seen_at = now()`, l.ID, "aunt")
		}
		var head []byte
		if err == nil {
			head, err = json.Marshal(map[string]any{"viewer": "member", "list": map[string]string{"id": l.ID, "name": l.Name, "ownerName": l.OwnerName}})
		}
		if err == nil {
			err = r.writeRows(ctx, p, head, []byte("}"), sink, "SELECT "+p.sql+" FROM items WHERE items.list_id = $1"+sharedOrder, l.ID, "aunt")
		}
		return err
	}
	// Group gifts (make bench-lists): the giver's shared view of a 50-item list where 10 items
	// have a group gift with 5 pledges each, against the same list's view before group gifts.
	_, giving := fill("ted", 0)
	var ids []string
	if err := pool.QueryRow(ctx, "SELECT array_agg(items.id::text) FROM items JOIN lists l ON l.id = items.list_id WHERE l.share_token = $1",
		giving).Scan(&ids); err != nil {
		b.Fatal(err)
	}
	for _, id := range ids[:10] {
		start := domain.GroupGiftRequest{Target: json.RawMessage(`"500.00"`), Amount: json.RawMessage(`"10.00"`)}
		if _, err := r.StartGroupGift(ctx, giving, id, caller.Caller{UID: "p0", Name: "P0"}, func(price *string, free int) (domain.GroupGiftPlan, error) {
			return domain.PlanGroupGift(start, price, free)
		}); err != nil {
			b.Fatal(err)
		}
		for p := 1; p < 5; p++ {
			if _, err := r.Pledge(ctx, giving, id, caller.Caller{UID: fmt.Sprintf("p%d", p), Name: "Pledger"}, func(cur string) (int64, error) {
				return domain.ParseAmount(json.RawMessage(`"12.34"`), cur, "amount")
			}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("group gifts shared view/today", func(b *testing.B) {
		for b.Loop() {
			if err := shared(beforeGiving, giving); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("group gifts shared view/now", func(b *testing.B) {
		for b.Loop() {
			if err := r.SharedJSON(ctx, giving, "aunt", sink); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("giver shared view/today", func(b *testing.B) {
		for b.Loop() {
			if err := shared(oldMember, token); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("giver shared view/now", func(b *testing.B) {
		for b.Loop() {
			if err := r.SharedJSON(ctx, token, "aunt", sink); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("recipient own list/today", func(b *testing.B) {
		for b.Loop() {
			err := r.writeRows(ctx, ownerProjection, nil, nil, sink, "SELECT "+ownerProjection.sql+
				" FROM items JOIN lists l ON l.id = items.list_id WHERE l.user_id = $1 AND l.id = $2"+listOrder, "tim", plain)
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("recipient own list/now", func(b *testing.B) {
		for b.Loop() {
			if err := r.ListJSON(ctx, "tom", withSuggestions, sink); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func benchItem(name string) domain.Item {
	price := "$19.99"
	return domain.Item{ID: uuid.NewString(), Name: name, Description: "A lovely present for Christmas, in red",
		Price: &price, Features: []string{"red", "wooden"}, SearchQuery: name, ShoppingURL: domain.ShoppingURL(name),
		Priority: 2, Quantity: 2, Notes: "any edition"}
}
