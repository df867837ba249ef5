package service_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

// Giving together, budgets, thanks and what I gave (docs/family.md). Amounts are exact decimal
// strings; the recipient never learns of a group gift before its reveal date.

type groupGiftView struct {
	GroupGift struct {
		Organizer     struct{ DisplayName string } `json:"organizer"`
		OrganizerIsMe bool                         `json:"organizerIsMe"`
		Target        string                       `json:"target"`
		Currency      string                       `json:"currency"`
		Pledged       string                       `json:"pledged"`
		Remaining     string                       `json:"remaining"`
		Complete      bool                         `json:"complete"`
		Pledges       []struct {
			DisplayName string `json:"displayName"`
			Amount      string `json:"amount"`
			Mine        bool   `json:"mine"`
		} `json:"pledges"`
	} `json:"groupGift"`
}

// pricedGift adds an item with a price to the user's list and shares the list.
func pricedGift(w *wishlist, owner, name, price string, quantity int) (token, item string) {
	def := w.defaultList(owner)
	var it struct{ ID string }
	w.must(201, "POST", "/api/wishlist", owner, gift(name, map[string]any{"price": price, "quantity": quantity}), &it)
	return w.share(owner, def.ID), it.ID
}

func TestConcurrentPledgesThatCrossTheTargetCompleteItExactlyOnce(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())
	token, bike := pricedGift(w, "kid", "Red bicycle", "€100.00", 1)
	base := "/api/shared/" + token + "/items/" + bike

	var started groupGiftView
	w.must(201, "POST", base+"/group-gift", "mum", map[string]any{}, &started)
	if g := started.GroupGift; g.Target != "100.00" || g.Currency != "EUR" || g.Pledged != "0.00" || g.Complete || !g.OrganizerIsMe {
		t.Fatalf("started %+v", g)
	}
	w.refused(409, "group_gift_exists", "POST", base+"/group-gift", "dad", map[string]any{})

	// Six relatives pledge 33.33 at once: three leave it short (99.99), the fourth completes it,
	// and whoever comes after that is refused.
	givers := []string{"g1", "g2", "g3", "g4", "g5", "g6"}
	codes := make([]int, len(givers))
	var wg sync.WaitGroup
	for i, g := range givers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], _ = w.as("PUT", base+"/pledge", g, g, map[string]any{"amount": "33.33"})
		}()
	}
	wg.Wait()
	ok, refused := 0, 0
	for _, c := range codes {
		switch c {
		case 200:
			ok++
		case 409:
			refused++
		default:
			t.Fatalf("pledge answered %d", c)
		}
	}
	if ok != 4 || refused != 2 {
		t.Fatalf("%d pledges accepted and %d refused, want 4 and 2 (%v)", ok, refused, codes)
	}
	var view sharedView
	w.must(200, "GET", "/api/shared/"+token, "mum", nil, &view)
	raw, _ := json.Marshal(view.Items[0]["groupGift"])
	var g groupGiftView
	_ = json.Unmarshal([]byte(`{"groupGift":`+string(raw)+`}`), &g)
	if g.GroupGift.Pledged != "133.32" || g.GroupGift.Remaining != "0.00" || !g.GroupGift.Complete || len(g.GroupGift.Pledges) != 4 {
		t.Fatalf("after the pledges: %s", raw)
	}
	if view.Items[0]["claimed"] != float64(1) {
		t.Fatalf("a complete group gift takes the item: claimed %v", view.Items[0]["claimed"])
	}
	w.refused(409, "not_enough_left", "PUT", base+"/claim", "dad", map[string]any{"quantity": 1})

	// Exactly one event says it completed the gift, naming the four pledgers.
	testenv.Eventually(t, 10*time.Second, func() error {
		completed := 0
		for _, e := range streamEvents(t, broker.URL()) {
			if e.Type != "item.pledged" {
				continue
			}
			conformsToSchema(t, e)
			var d struct {
				CompletedNow bool     `json:"completedNow"`
				Pledgers     []string `json:"pledgers"`
				Pledged      string   `json:"pledged"`
			}
			_ = json.Unmarshal(e.Data, &d)
			if d.CompletedNow {
				completed++
				if len(d.Pledgers) != 4 || d.Pledged != "133.32" {
					return fmt.Errorf("completing event %s", e.Data)
				}
			}
		}
		if completed != 1 {
			return fmt.Errorf("%d completing events", completed)
		}
		return nil
	})

	// A pledger withdrawing makes it incomplete again, and frees the item.
	for i, c := range codes {
		if c == 200 {
			w.must(204, "DELETE", base+"/pledge", givers[i], nil, nil)
			break
		}
	}
	w.must(200, "GET", "/api/shared/"+token, "mum", nil, &view)
	raw, _ = json.Marshal(view.Items[0]["groupGift"])
	if !strings.Contains(string(raw), `"pledged":"99.99"`) || !strings.Contains(string(raw), `"complete":false`) || view.Items[0]["claimed"] != float64(0) {
		t.Fatalf("after a withdrawal: %s, claimed %v", raw, view.Items[0]["claimed"])
	}
}

func TestAPledgeAndAClaimRaceForTheLastUnit(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	w := start(t, dbURL, testenv.StartNATS(t).URL())
	for round := range 8 {
		token, item := pricedGift(w, "kid", fmt.Sprintf("Lego set %d", round), "$50", 1)
		base := "/api/shared/" + token + "/items/" + item
		w.must(201, "POST", base+"/group-gift", "mum", map[string]any{"amount": "40.00"}, nil)
		var pledge, claim int
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			pledge, _ = w.as("PUT", base+"/pledge", "gran", "Gran", map[string]any{"amount": "10.00"})
		}()
		go func() {
			defer wg.Done()
			claim, _ = w.as("PUT", base+"/claim", "aunt", "Aunt", map[string]any{"quantity": 1})
		}()
		wg.Wait()
		if !(pledge == 200 && claim == 409) && !(pledge == 409 && claim == 200) {
			t.Fatalf("round %d: pledge %d and claim %d; exactly one must win", round, pledge, claim)
		}
		var view sharedView
		w.must(200, "GET", "/api/shared/"+token, "uncle", nil, &view)
		if view.Items[0]["claimed"] != float64(1) {
			t.Fatalf("round %d: claimed %v, want the one unit", round, view.Items[0]["claimed"])
		}
	}
}

func TestAmountsAreExactDecimalStrings(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	w := start(t, dbURL, testenv.StartNATS(t).URL())
	_, scarf := pricedGift(w, "grandpa", "Scarf", "24,90 €", 2)
	token, free := pricedGift(w, "grandpa", "A surprise", "whatever you like", 1) // the link now
	base := "/api/shared/" + token + "/items/"

	for _, bad := range []any{"0", "0.00", "-5", "abc", "1.234", 25, 25.5, "1e3", ""} {
		e := w.refused(422, "validation_failed", "POST", base+scarf+"/group-gift", "mum", map[string]any{"target": bad})
		if e.Error.Fields["target"] == "" {
			t.Fatalf("target %v: fields %v", bad, e.Error.Fields)
		}
	}
	// No readable price: the target is required.
	e := w.refused(422, "validation_failed", "POST", base+free+"/group-gift", "mum", map[string]any{})
	if e.Error.Fields["target"] == "" {
		t.Fatalf("no price, no target: %v", e.Error.Fields)
	}
	e = w.refused(422, "validation_failed", "POST", base+free+"/group-gift", "mum", map[string]any{"target": "30.00", "currency": "EURO"})
	if e.Error.Fields["currency"] == "" {
		t.Fatalf("bad currency: %v", e.Error.Fields)
	}
	w.must(201, "POST", base+free+"/group-gift", "mum", map[string]any{"target": "30.00", "currency": "GBP"}, nil)

	var g groupGiftView
	w.must(201, "POST", base+scarf+"/group-gift", "mum", map[string]any{}, &g)
	if g.GroupGift.Target != "49.80" || g.GroupGift.Currency != "EUR" {
		t.Fatalf("the default target is the price times the units: %+v", g.GroupGift)
	}
	for _, bad := range []any{"0", "-5", "abc", "1.234", 25, "", true} {
		e := w.refused(422, "validation_failed", "PUT", base+scarf+"/pledge", "aunt", map[string]any{"amount": bad})
		if e.Error.Fields["amount"] == "" {
			t.Fatalf("amount %v: fields %v", bad, e.Error.Fields)
		}
	}
	// Cents add up exactly: 0.10 + 0.20 is 0.30.
	w.must(200, "PUT", base+scarf+"/pledge", "aunt", map[string]any{"amount": "0.10"}, nil)
	w.must(200, "PUT", base+scarf+"/pledge", "uncle", map[string]any{"amount": "0.20"}, &g)
	if g.GroupGift.Pledged != "0.30" || g.GroupGift.Remaining != "49.50" {
		t.Fatalf("0.10 + 0.20 = %s (remaining %s)", g.GroupGift.Pledged, g.GroupGift.Remaining)
	}
	// Only the organizer cancels, and only while alone.
	w.refused(403, "not_organizer", "DELETE", base+scarf+"/group-gift", "aunt", nil)
	w.refused(409, "group_gift_has_pledges", "DELETE", base+scarf+"/group-gift", "mum", nil)
	w.must(204, "DELETE", base+scarf+"/pledge", "aunt", nil, nil)
	w.must(204, "DELETE", base+scarf+"/pledge", "aunt", nil, nil) // idempotent
	w.must(204, "DELETE", base+scarf+"/pledge", "uncle", nil, nil)
	w.must(204, "DELETE", base+scarf+"/group-gift", "mum", nil, nil)
	w.refused(404, "group_gift_not_found", "PUT", base+scarf+"/pledge", "aunt", map[string]any{"amount": "5.00"})
	// The recipient cannot start one; signed out is the gateway's 401.
	w.refused(403, "own_list", "POST", base+scarf+"/group-gift", "grandpa", map[string]any{})
}

// The shopping list shows the pledges, and the budget page adds claims and pledges per person
// and currency; nobody else sees a giver's budgets.
func TestTheShoppingListAndBudgetsAddUpPerPerson(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	w := start(t, dbURL, testenv.StartNATS(t).URL())
	token, bike := pricedGift(w, "tom", "Bike", "€120.00", 1)
	var book struct{ ID string }
	w.must(201, "POST", "/api/wishlist", "tom", gift("Book", map[string]any{"price": "12,50 €", "quantity": 2}), &book)
	var mug struct{ ID string }
	w.must(201, "POST", "/api/wishlist", "tom", gift("Mug", map[string]any{"price": "$8"}), &mug)
	var odd struct{ ID string }
	w.must(201, "POST", "/api/wishlist", "tom", gift("Surprise", map[string]any{"price": "a little something"}), &odd)
	base := "/api/shared/" + token + "/items/"
	w.must(201, "POST", base+bike+"/group-gift", "gran", map[string]any{"amount": "50.00"}, nil)
	w.must(200, "PUT", base+book.ID+"/claim", "gran", map[string]any{"quantity": 2}, nil)
	w.must(200, "PUT", base+mug.ID+"/claim", "gran", map[string]any{"quantity": 1}, nil)
	w.must(200, "PUT", base+odd.ID+"/claim", "gran", map[string]any{"quantity": 1}, nil)

	var list []struct {
		Quantity  int
		Recipient struct{ Key, DisplayName string }
		Amount    *struct{ Amount, Currency string }
		Pledge    *struct {
			Amount, Currency string
			GroupGift        struct {
				Target, Pledged string
				Complete        bool
			}
		}
		Item struct{ Name string }
	}
	w.must(200, "GET", "/api/claims", "gran", nil, &list)
	if len(list) != 4 {
		t.Fatalf("shopping list %+v", list)
	}
	byName := map[string]int{}
	for i, e := range list {
		byName[e.Item.Name] = i
		if e.Recipient.Key != "u:tom" || e.Recipient.DisplayName != "Tom" {
			t.Fatalf("recipient %+v", e.Recipient)
		}
	}
	if b := list[byName["Bike"]]; b.Quantity != 0 || b.Pledge == nil || b.Pledge.Amount != "50.00" || b.Pledge.GroupGift.Target != "120.00" {
		t.Fatalf("the pledge on the shopping list: %+v", b)
	}
	if b := list[byName["Book"]]; b.Amount == nil || b.Amount.Amount != "25.00" || b.Amount.Currency != "EUR" {
		t.Fatalf("two books at 12,50 €: %+v", b.Amount)
	}

	w.must(200, "PUT", "/api/budgets/u:tom", "gran", map[string]any{"amount": "100.00", "currency": "EUR", "displayName": "Tom"}, nil)
	w.refused(422, "validation_failed", "PUT", "/api/budgets/u:tom", "gran", map[string]any{"amount": 100, "currency": "EUR", "displayName": "Tom"})
	w.refused(404, "not_found", "PUT", "/api/budgets/nobody", "gran", map[string]any{"amount": "1.00", "currency": "EUR", "displayName": "X"})
	var budgets []struct {
		Recipient struct{ Key, DisplayName string }
		Budget    *struct{ Amount, Currency string }
		Totals    []struct{ Amount, Currency string }
		Unpriced  int
	}
	w.must(200, "GET", "/api/budgets", "gran", nil, &budgets)
	if len(budgets) != 1 {
		t.Fatalf("budgets %+v", budgets)
	}
	b := budgets[0]
	// 50.00 pledged + 25.00 of books in euros; the mug's 8 dollars apart; the surprise unpriced.
	if b.Budget == nil || b.Budget.Amount != "100.00" || len(b.Totals) != 2 || b.Totals[0].Currency != "EUR" || b.Totals[0].Amount != "75.00" ||
		b.Totals[1].Currency != "USD" || b.Totals[1].Amount != "8.00" || b.Unpriced != 1 {
		t.Fatalf("gran's budget for Tom: %+v", b)
	}
	// Another giver, and Tom himself, see no budget of gran's.
	for _, other := range []string{"aunt", "tom"} {
		body := string(w.must(200, "GET", "/api/budgets", other, nil, nil))
		if strings.Contains(body, "100.00") {
			t.Fatalf("%s sees gran's budget: %s", other, body)
		}
	}
	w.must(204, "DELETE", "/api/budgets/u:tom", "gran", nil, nil)
}

// Thanks: before any claim on an item is revealed, the answer is the same whether or not secret
// claims exist; after it, every giver is thanked once and keeps it in "What I gave", after the
// item is deleted too.
func TestThanksAfterTheRevealAndWhatIGave(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())
	def := w.defaultList("emma")
	claimed := w.addTo("emma", def.ID, "Red bicycle", 1)
	plain := w.addTo("emma", def.ID, "Snow globe", 1)
	token := w.share("emma", def.ID)
	w.must(200, "PUT", "/api/shared/"+token+"/items/"+claimed+"/claim", "aunt", map[string]any{"quantity": 1}, nil)

	say := func(item string) string {
		code, b := w.as("POST", "/api/wishlist/"+item+"/thanks", "emma", "Emma", map[string]any{"message": "Thank you!"})
		return fmt.Sprintf("%d %s", code, b)
	}
	if a, b := say(claimed), say(plain); a != b || !strings.Contains(a, "nothing_revealed") {
		t.Fatalf("thanks before the reveal differ:\n claimed:   %s\n unclaimed: %s", a, b)
	}
	w.refused(422, "validation_failed", "POST", "/api/wishlist/"+claimed+"/thanks", "emma", map[string]any{"message": ""})
	w.refused(404, "not_found", "POST", "/api/wishlist/"+claimed+"/thanks", "aunt", map[string]any{"message": "hi"})

	// A second season item, group-funded, revealed soon.
	soon := time.Now().Add(1500 * time.Millisecond).Truncate(time.Millisecond)
	w.must(200, "PATCH", "/api/lists/"+def.ID, "emma", map[string]any{"revealAt": soon}, nil)
	w.must(204, "DELETE", "/api/shared/"+token+"/items/"+claimed+"/claim", "aunt", nil, nil)
	w.must(200, "PUT", "/api/shared/"+token+"/items/"+claimed+"/claim", "aunt", map[string]any{"quantity": 1}, nil)
	var lamp struct{ ID string }
	w.must(201, "POST", "/api/wishlist", "emma", gift("Lamp", map[string]any{"price": "$30"}), &lamp)
	w.must(201, "POST", "/api/shared/"+token+"/items/"+lamp.ID+"/group-gift", "gran", map[string]any{"amount": "20.00"}, nil)
	w.must(200, "PUT", "/api/shared/"+token+"/items/"+lamp.ID+"/pledge", "uncle", map[string]any{"amount": "10.00"}, nil)
	if given := string(w.must(200, "GET", "/api/gifts/given", "aunt", nil, nil)); given != "[]" {
		t.Fatalf("before the reveal, gifts given: %s", given)
	}
	time.Sleep(time.Until(soon) + 200*time.Millisecond)

	// The owner's list shows who gave, and the group gift's givers with their amounts.
	var items []struct {
		ID     string
		Claims []struct {
			DisplayName string
			Quantity    int
			Amount      string
			ThankedAt   *time.Time
		}
	}
	w.must(200, "GET", "/api/wishlist", "emma", nil, &items)
	lampGivers := 0
	for _, it := range items {
		if it.ID == lamp.ID {
			lampGivers = len(it.Claims)
		}
	}
	if lampGivers != 2 {
		t.Fatalf("the lamp's revealed givers: %+v", items)
	}
	var thanks struct {
		Message string
		Thanked int
	}
	w.must(201, "POST", "/api/wishlist/"+lamp.ID+"/thanks", "emma", map[string]any{"message": "I love the lamp"}, &thanks)
	if thanks.Thanked != 2 {
		t.Fatalf("thanked %+v", thanks)
	}
	w.refused(409, "already_thanked", "POST", "/api/wishlist/"+lamp.ID+"/thanks", "emma", map[string]any{"message": "again"})
	w.must(201, "POST", "/api/wishlist/"+claimed+"/thanks", "emma", map[string]any{"message": "The bike!"}, nil)

	// The giver's history keeps the gift and its thanks after the item is deleted.
	w.must(204, "DELETE", "/api/wishlist/"+claimed, "emma", nil, nil)
	var given []struct {
		Season    int
		Recipient struct{ DisplayName string }
		Item      struct{ Name string }
		Quantity  int
		Together  *struct{ Amount, Currency string }
		Thanks    *struct{ Message string }
	}
	w.must(200, "GET", "/api/gifts/given", "aunt", nil, &given)
	if len(given) != 1 || given[0].Item.Name != "Red bicycle" || given[0].Recipient.DisplayName != "Emma" || given[0].Thanks == nil ||
		given[0].Thanks.Message != "The bike!" || given[0].Season < 2025 {
		t.Fatalf("aunt's gifts given: %+v", given)
	}
	w.must(200, "GET", "/api/gifts/given", "uncle", nil, &given)
	if len(given) != 1 || given[0].Together == nil || given[0].Together.Amount != "10.00" || given[0].Thanks == nil {
		t.Fatalf("uncle's gifts given: %+v", given)
	}

	// Exactly one item.thanked per thanks, naming the givers, never anyone else.
	testenv.Eventually(t, 10*time.Second, func() error {
		var thanked []string
		for _, e := range streamEvents(t, broker.URL()) {
			if e.Type == "item.thanked" {
				conformsToSchema(t, e)
				var d struct{ Givers []string }
				_ = json.Unmarshal(e.Data, &d)
				thanked = append(thanked, strings.Join(d.Givers, ","))
			}
		}
		if strings.Join(thanked, " ") != "gran,uncle aunt" {
			return fmt.Errorf("item.thanked givers %v", thanked)
		}
		return nil
	})
}

// When the owner removes an item, each pledger of its group gift is told, as a claimer is: an
// item.pledged {action: removed} that is the pledger's own event (never the owner's).
func TestRemovingAnItemTellsItsPledgers(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())
	token, kite := pricedGift(w, "kid", "Kite", "€60.00", 1)
	base := "/api/shared/" + token + "/items/" + kite
	w.must(201, "POST", base+"/group-gift", "mum", map[string]any{"amount": "20.00"}, nil)
	w.must(200, "PUT", base+"/pledge", "gran", map[string]any{"amount": "15.50"}, nil)
	w.must(204, "DELETE", "/api/wishlist/"+kite, "kid", nil, nil)

	testenv.Eventually(t, 10*time.Second, func() error {
		told := map[string]string{}
		for _, e := range streamEvents(t, broker.URL()) {
			if e.Type != "item.pledged" {
				continue
			}
			conformsToSchema(t, e)
			var d struct {
				Action, ItemName, OwnerName string
				Amount                      *string
				Pledgers                    []string
			}
			_ = json.Unmarshal(e.Data, &d)
			if d.Action != "removed" {
				continue
			}
			if e.UserID == "kid" || d.ItemName != "Kite" || d.Amount == nil || len(d.Pledgers) != 0 {
				return fmt.Errorf("a removal event %s for %s", e.Data, e.UserID)
			}
			told[e.UserID] = *d.Amount
		}
		if len(told) != 2 || told["mum"] != "20.00" || told["gran"] != "15.50" {
			return fmt.Errorf("pledgers told: %v", told)
		}
		return nil
	})
}

// Lowering an item's quantity fits this season's group gift to it: a complete one keeps its
// units (the family's joint gift goes last) and the newest claims are released, so what is
// taken never exceeds the quantity.
func TestLoweringTheQuantityFitsAGroupGiftToIt(t *testing.T) {
	_, dbURL := testenv.Postgres(t)
	broker := testenv.StartNATS(t)
	w := start(t, dbURL, broker.URL())
	token, lego := pricedGift(w, "kid", "Lego castle", "€40.00", 3)
	base := "/api/shared/" + token + "/items/" + lego
	w.must(200, "PUT", base+"/claim", "dad", map[string]any{"quantity": 1}, nil)
	var started groupGiftView
	w.must(201, "POST", base+"/group-gift", "mum", map[string]any{}, &started)
	if started.GroupGift.Target != "80.00" { // the two units still free
		t.Fatalf("target %s", started.GroupGift.Target)
	}
	w.must(200, "PUT", base+"/pledge", "gran", map[string]any{"amount": "80.00"}, nil)
	claimed := func() any {
		var view sharedView
		w.must(200, "GET", "/api/shared/"+token, "uncle", nil, &view)
		return view.Items[0]["claimed"]
	}
	if c := claimed(); c != float64(3) {
		t.Fatalf("claimed %v before, want 3", c)
	}
	w.must(200, "PATCH", "/api/wishlist/"+lego, "kid", map[string]any{"quantity": 2}, nil)
	if c := claimed(); c != float64(2) {
		t.Fatalf("claimed %v at quantity 2, want 2 (the group gift's)", c)
	}
	var mine []struct{ ItemID string }
	w.must(200, "GET", "/api/claims", "dad", nil, &mine)
	for _, c := range mine {
		if c.ItemID == lego {
			t.Fatal("dad's claim survived a quantity the complete group gift fills")
		}
	}
	w.must(200, "PATCH", "/api/wishlist/"+lego, "kid", map[string]any{"quantity": 1}, nil)
	if c := claimed(); c != float64(1) {
		t.Fatalf("claimed %v at quantity 1, want 1", c)
	}
	testenv.Eventually(t, 10*time.Second, func() error {
		for _, e := range streamEvents(t, broker.URL()) {
			if e.Type == "item.unclaimed" && e.UserID == "dad" && strings.Contains(string(e.Data), `"reason":"quantity_lowered"`) {
				return nil
			}
		}
		return fmt.Errorf("dad was not told his claim was released")
	})
}
