//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

// notices are a user's stored notices (what their live stream delivered), newest first.
func notices(c *client) []struct {
	Event string
	Data  map[string]any
} {
	c.t.Helper()
	var out []struct {
		Event string
		Data  map[string]any
	}
	c.must(http.StatusOK, "GET", "/api/notifications", nil, &out)
	return out
}

func eventsOf(c *client) string {
	var names []string
	for _, n := range notices(c) {
		names = append(names, n.Event)
	}
	return strings.Join(names, ",")
}

// Through the whole stack (wishlist's outbox, NATS, notification): the pledge that completes a
// group gift tells both pledgers, and after the reveal the recipient's thanks reach the one
// who claimed; the recipient hears nothing of the group gift, nor does the pledger who did not
// claim hear of the thanks.
func TestAGroupGiftsPledgersAndAThankedGiverAreTold(t *testing.T) {
	tim := newNamedUser(t, "tim", "Tim")
	gran, aunt := newNamedUser(t, "gran", "Granny"), newNamedUser(t, "aunt", "Aunt Mary")
	reveal := future(6 * time.Second)
	l := newList(t, tim, "Birthday", reveal)
	token := shareList(t, tim, l.ID)
	var kite, book struct{ ID string }
	tim.must(http.StatusCreated, "POST", "/api/wishlist", map[string]any{"name": "Kite", "description": "A red kite with a long tail", "price": "€20.00", "listId": l.ID}, &kite)
	tim.must(http.StatusCreated, "POST", "/api/wishlist", map[string]any{"name": "Atlas", "description": "A big atlas of the world", "price": "€30.00", "listId": l.ID}, &book)
	aunt.must(http.StatusOK, "PUT", "/api/shared/"+token+"/items/"+kite.ID+"/claim", map[string]any{"quantity": 1}, nil)
	gran.must(http.StatusCreated, "POST", "/api/shared/"+token+"/items/"+book.ID+"/group-gift", map[string]any{"amount": "10.00"}, nil)
	aunt.must(http.StatusOK, "PUT", "/api/shared/"+token+"/items/"+book.ID+"/pledge", map[string]any{"amount": "20.00"}, nil)

	for name, c := range map[string]*client{"gran": gran, "aunt": aunt} {
		testenv.Eventually(t, 20*time.Second, func() error {
			for _, n := range notices(c) {
				if n.Event == "group-gift-complete" {
					if n.Data["itemName"] != "Atlas" || n.Data["ownerName"] != "Tim" || n.Data["listName"] != "Birthday" {
						return fmt.Errorf("%s's notice: %+v", name, n)
					}
					return nil
				}
			}
			return fmt.Errorf("%s has no group-gift-complete yet: %s", name, eventsOf(c))
		})
	}

	// After the reveal Tim thanks for the kite (the thanks wait for the date to pass).
	time.Sleep(time.Until(*reveal))
	testenv.Eventually(t, 20*time.Second, func() error {
		code, body := tim.json("POST", "/api/wishlist/"+kite.ID+"/thanks", map[string]any{"message": "It flies so high!"})
		if code != http.StatusCreated {
			return fmt.Errorf("thanks: %d %s", code, body)
		}
		return nil
	})
	testenv.Eventually(t, 20*time.Second, func() error {
		for _, n := range notices(aunt) {
			if n.Event == "thank-you" {
				if n.Data["message"] != "It flies so high!" || n.Data["itemName"] != "Kite" || n.Data["recipientName"] != "Tim" {
					return fmt.Errorf("the aunt's thanks: %+v", n)
				}
				return nil
			}
		}
		return fmt.Errorf("the aunt has no thank-you yet: %s", eventsOf(aunt))
	})
	// Later events of the same pipeline have arrived, so these would have too.
	if got := eventsOf(gran); strings.Contains(got, "thank-you") {
		t.Fatalf("gran, who gave no kite, was thanked: %s", got)
	}
	raw, _ := json.Marshal(notices(tim))
	for _, leak := range []string{"group-gift", "Granny", "Aunt Mary", "Atlas", "thank-you"} {
		if strings.Contains(string(raw), leak) {
			t.Fatalf("Tim's notices tell %q: %s", leak, raw)
		}
	}
}
