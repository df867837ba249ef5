package domain_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

func envelope(t *testing.T, typ string, data string) events.Envelope {
	t.Helper()
	env, err := events.NewEnvelope(typ, "kid", json.RawMessage(data))
	if err != nil {
		t.Fatal(err)
	}
	return env
}

func TestNoticesOfEachEvent(t *testing.T) {
	cases := []struct {
		typ, data, event, want string
	}{
		{events.TypeItemCreated, `{"id":"i1","name":"Sled","imageUrl":null,"category":"Toys","wishlistCount":3}`,
			domain.EventWishlistCount, `{"count":3,"itemId":"i1","cause":"item.created"}`},
		{events.TypeItemDeleted, `{"id":"i1","name":"Sled","imageUrl":null,"category":"Toys","wishlistCount":0}`,
			domain.EventWishlistCount, `{"count":0,"itemId":"i1","cause":"item.deleted"}`},
		{events.TypeSantaSent, `{"id":"g1","name":"Kite","imageUrl":"/media/x.jpg"}`,
			domain.EventSanta, `{"message":"Santa received your gift request!","itemId":"g1","name":"Kite"}`},
	}
	for _, c := range cases {
		env := envelope(t, c.typ, c.data)
		n, err := domain.FromEvent(env)
		if err != nil {
			t.Fatalf("%s: %v", c.typ, err)
		}
		if n.Event != c.event || string(n.Data) != c.want || n.EventID != env.ID || n.UserID != "kid" || !n.OccurredAt.Equal(env.OccurredAt) {
			t.Fatalf("%s: %+v", c.typ, n)
		}
	}
}

func TestMalformedEventsAreRecognised(t *testing.T) {
	cases := map[string]events.Envelope{
		"no count":       envelope(t, events.TypeItemCreated, `{"id":"i1","name":"Sled"}`),
		"negative count": envelope(t, events.TypeItemDeleted, `{"id":"i1","wishlistCount":-1}`),
		"count a string": envelope(t, events.TypeItemCreated, `{"id":"i1","wishlistCount":"3"}`),
		"no item id":     envelope(t, events.TypeItemCreated, `{"wishlistCount":3}`),
		"santa no id":    envelope(t, events.TypeSantaSent, `{"name":"Kite"}`),
		"unknown type":   envelope(t, "item.renamed", `{"id":"i1"}`),
	}
	badID := envelope(t, events.TypeSantaSent, `{"id":"g1","name":"Kite"}`)
	badID.ID = "42"
	cases["id not a UUID"] = badID
	for name, env := range cases {
		if _, err := domain.FromEvent(env); !errors.Is(err, domain.ErrMalformed) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestWithNewestCount(t *testing.T) {
	now := time.Now()
	n, _ := domain.FromEvent(envelope(t, events.TypeItemCreated, `{"id":"i1","wishlistCount":3}`))
	n.OccurredAt = now

	if got, _ := n.WithNewestCount(5, now.Add(-time.Second)).Count(); got != 3 {
		t.Fatalf("an older known count changed a newer event: %d", got)
	}
	if got, _ := n.WithNewestCount(5, now).Count(); got != 3 {
		t.Fatalf("a known count of the same moment changed the event: %d", got)
	}
	late := n.WithNewestCount(1, now.Add(time.Second))
	if string(late.Data) != `{"count":1,"itemId":"i1","cause":"item.created"}` {
		t.Fatalf("a late event keeps the newer count and its own item and cause: %s", late.Data)
	}
	santa, _ := domain.FromEvent(envelope(t, events.TypeSantaSent, `{"id":"g1","name":"Kite"}`))
	if got := santa.WithNewestCount(1, now.Add(time.Hour)); string(got.Data) != string(santa.Data) {
		t.Fatalf("santa notice changed: %s", got.Data)
	}
	if _, ok := santa.Count(); ok {
		t.Fatal("a santa notice has no count")
	}
}

// Events that tell nobody anything: they are consumed (not terminated as poison) and make no
// notice. list.families in particular names a list's owner and never goes to their stream.
func TestEventsWithoutNotices(t *testing.T) {
	for _, typ := range []string{events.TypeListFamilies, events.TypeFamilyMemberLeft, events.TypeFamilyInvited} {
		env, err := events.NewEnvelope(typ, "ann", map[string]any{"listId": "8c4e5d0e-7c39-4c1b-9a53-4e1f0f3b9a11"})
		if err != nil {
			t.Fatal(err)
		}
		notices, err := domain.NoticesFromEvent(env)
		if err != nil || len(notices) != 0 {
			t.Errorf("%s: %v, %v; want no notice and no error", typ, notices, err)
		}
	}
}
