package domain_test

import (
	"encoding/json"
	"net/netip"
	"strings"
	"testing"

	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// Only the notices that matter with the app closed are pushed, each with a topic a push
// service accepts (at most 32 base64url characters) that tells different subjects apart.
func TestPushOf(t *testing.T) {
	if _, ok := domain.PushOf(domain.Notice{Event: domain.EventWishlistCount, Data: json.RawMessage(`{"count":1}`)}, "en"); ok {
		t.Fatal("the badge count was pushed")
	}
	if _, ok := domain.PushOf(domain.Notice{Event: domain.EventSanta, Data: json.RawMessage(`{"message":"x"}`)}, "en"); ok {
		t.Fatal("Santa's answer, for the device in use, was pushed")
	}
	joined := func(uid string) domain.Push {
		data, _ := json.Marshal(domain.MemberJoinedData{Message: uid + " joined", FamilyID: "6f1c3c1e-5d1b-4b8e-9a43-1f5b1b0e6b11", FamilyName: "Smiths", UID: uid})
		p, ok := domain.PushOf(domain.Notice{Event: domain.EventFamilyMemberJoined, Data: data}, "en")
		if !ok {
			t.Fatal("a join was not pushed")
		}
		return p
	}
	a, b := joined("a-rather-long-user-id-0000000001"), joined("a-rather-long-user-id-0000000002")
	for _, p := range []domain.Push{a, b} {
		if len(p.Topic) > 32 || p.Topic == "" {
			t.Fatalf("topic %q", p.Topic)
		}
	}
	if a.Topic == b.Topic || a.Message.Tag == b.Message.Tag {
		t.Fatal("two people joining would replace each other's notification")
	}
}

// Every pushed notice is written in the device's language: none of the four kinds reads as
// the English push on a German, French or Spanish phone, and the names stay in.
func TestPushesAreInTheDevicesLanguage(t *testing.T) {
	notice := func(event string, data any) domain.Notice {
		raw, _ := json.Marshal(data)
		return domain.Notice{EventID: "e", Event: event, Data: raw}
	}
	notices := []domain.Notice{
		notice(domain.EventSecretSanta, domain.SecretSantaData{FamilyID: "f1", FamilyName: "Smiths"}),
		notice(domain.EventFamilyMemberJoined, domain.MemberJoinedData{Message: "Cleo joined Smiths", FamilyID: "f1", FamilyName: "Smiths", UID: "c", DisplayName: "Cleo"}),
		notice(domain.EventClaimRemoved, domain.ClaimRemovedData{Message: "Kite was removed from Kid's list", ItemID: "i", ItemName: "Kite", OwnerName: "Kid"}),
		notice(domain.EventSharedListChanged, domain.SharedListData{ListID: "l1"}),
	}
	names := []string{"Smiths", "Cleo", "Kite", ""}
	for i, n := range notices {
		en, _ := domain.PushOf(n, "en")
		for _, lang := range []string{"de", "fr-CA", "es"} {
			p, ok := domain.PushOf(n, lang)
			if !ok || p.Message.Title == "" || p.Message.Title == en.Message.Title || p.Message.URL != en.Message.URL || p.Topic != en.Topic {
				t.Errorf("%s in %s: %+v (English: %+v)", n.Event, lang, p.Message, en.Message)
			}
			if !strings.Contains(p.Message.Title+" "+p.Message.Body, names[i]) {
				t.Errorf("%s in %s lost the name %q: %+v", n.Event, lang, names[i], p.Message)
			}
		}
	}
}

func TestCheckSubscription(t *testing.T) {
	const p256dh = "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U"
	const auth = "8eDyX_uCN0XRhSbY5hs7Hg"
	local := map[netip.AddrPort]bool{netip.MustParseAddrPort("127.0.0.4:18088"): true}
	for endpoint, ok := range map[string]bool{
		"https://fcm.googleapis.com/fcm/send/abc":       true,
		"https://updates.push.services.mozilla.com/w/x": true,
		"https://10.1.2.3/x":                            false,
		"https://8.8.8.8/x":                             true,
		"https://192.168.1.2/x":                         false,
		"https://[::1]/x":                               false,
		"https://intranet/x":                            false,
		"https://user:pw@push.example.com/x":            false,
		"http://127.0.0.4:18088/push/1":                 true,
		"http://127.0.0.4:18089/push/1":                 false,
		"ftp://push.example.com/x":                      false,
	} {
		err := domain.CheckSubscription(domain.Subscription{Endpoint: endpoint, P256dh: p256dh, Auth: auth}, local)
		if (err == nil) != ok {
			t.Errorf("%s: %v, want accepted %v", endpoint, err, ok)
		}
	}
}
