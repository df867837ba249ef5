package adapters

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/santa-wishlist/santa/pkg/caller"
	"github.com/santa-wishlist/santa/pkg/migrate"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// The givers' shared view reads each item's group gift in its list query (givingFrom) and the
// group gift routes read one alone (groupGiftView): the two are the same value, for every viewer,
// currency and name, and appendMoney writes what money_text and domain.FormatMinor write.
func TestTheSharedViewsGroupGiftIsTheRoutesAnswer(t *testing.T) {
	ctx := context.Background()
	pool, _ := testenv.Postgres(t)
	if err := migrate.Apply(ctx, pool, "wishlist", Migrations(), slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	r := NewRepository(pool, testenv.MediaURLSigner())
	list, err := r.CreateList(ctx, domain.List{ID: uuid.NewString(), UserID: "kid", Name: "Christmas", OwnerName: "Kid",
		RevealAt: domain.DefaultRevealAt(now()), FamilyIDs: []string{}, Recipient: domain.Recipient{Kind: domain.RecipientSelf}})
	if err != nil {
		t.Fatal(err)
	}
	token := "tok" + uuid.NewString() + "0123456"
	if _, err := r.SetShare(ctx, "kid", list.ID, token, "kid"); err != nil {
		t.Fatal(err)
	}
	gifts := map[string]string{} // item id -> currency
	for _, c := range []struct{ price, currency, pledge string }{{"€120.00", "EUR", "33.33"}, {"¥20000", "JPY", "5000"}, {"BHD 12.500", "BHD", "1.250"}, {"$5", "USD", ""}} {
		it := benchItem("Gift in " + c.currency)
		it.Price = &c.price
		it.UserID, it.ListID = "kid", list.ID
		if _, err := r.Create(ctx, it, "kid"); err != nil {
			t.Fatal(err)
		}
		gifts[it.ID] = c.currency
		cur := c.currency
		start := domain.GroupGiftRequest{Currency: &cur}
		if _, err := r.StartGroupGift(ctx, token, it.ID, caller.Caller{UID: "gran", Name: `Gran "Nana" <3 Ünal`}, func(price *string, free int) (domain.GroupGiftPlan, error) {
			return domain.PlanGroupGift(start, price, free)
		}); err != nil {
			t.Fatal(err)
		}
		if c.pledge == "" {
			continue // a group gift with no pledge yet
		}
		for _, who := range []string{"aunt", "uncle"} {
			if _, err := r.Pledge(ctx, token, it.ID, caller.Caller{UID: who, Name: "Auntie " + who}, func(cur string) (int64, error) {
				return domain.ParseAmount(json.RawMessage(`"`+c.pledge+`"`), cur, "amount")
			}); err != nil {
				t.Fatal(err)
			}
		}
	}
	plain := benchItem("No group gift")
	plain.UserID, plain.ListID = "kid", list.ID
	if _, err := r.Create(ctx, plain, "kid"); err != nil {
		t.Fatal(err)
	}

	for _, viewer := range []string{"gran", "aunt", "cousin"} {
		var view struct{ Items []map[string]any }
		if err := r.SharedJSON(ctx, token, viewer, func(b json.RawMessage) {
			if err := json.Unmarshal(b, &view); err != nil {
				t.Fatalf("%s: %v", b, err)
			}
		}); err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, item := range view.Items {
			id, _ := item["id"].(string)
			if _, ok := gifts[id]; !ok {
				if item["groupGift"] != nil {
					t.Errorf("an item without a group gift shows %v", item["groupGift"])
				}
				continue
			}
			seen++
			var want any
			err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
				var id2 string
				if err := tx.QueryRow(ctx, "SELECT id::text FROM group_gifts WHERE item_id = $1", id).Scan(&id2); err != nil {
					return err
				}
				g, err := groupGiftView(ctx, tx, id2, viewer)
				if err != nil {
					return err
				}
				raw, _ := json.Marshal(g)
				return json.Unmarshal(raw, &want)
			})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(item["groupGift"], want) {
				t.Errorf("%s as %s:\n shared view %v\n route       %v", gifts[id], viewer, item["groupGift"], want)
			}
		}
		if seen != len(gifts) {
			t.Fatalf("%d group gifts in the view, want %d", seen, len(gifts))
		}
	}

	for _, c := range []struct {
		minor int64
		cur   string
	}{{0, "EUR"}, {5, "EUR"}, {2500, "EUR"}, {12345678901, "EUR"}, {2500, "JPY"}, {12500, "BHD"}, {7, "BHD"}, {1, "CLF"}, {99999, "CLF"}} {
		digits := domain.Digits(c.cur)
		got := string(appendMoney(nil, c.minor, int(digits)))
		var sql string
		if err := pool.QueryRow(ctx, "SELECT money_text($1, $2)", c.minor, digits).Scan(&sql); err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("%q", domain.FormatMinor(c.minor, c.cur)); got != want || got != fmt.Sprintf("%q", sql) {
			t.Errorf("appendMoney(%d, %s) = %s; FormatMinor %s; money_text %q", c.minor, c.cur, got, want, sql)
		}
	}
}
