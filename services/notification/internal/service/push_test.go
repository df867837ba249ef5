package service_test

import (
	"bytes"
	"fmt"
	"net/http"
	"testing"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"
	"github.com/google/uuid"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/notification/internal/adapters"
	"github.com/santa-wishlist/santa/services/notification/internal/service"
)

// pushed is a service with Web Push set up against a local push service.
type pushed struct {
	svc *instance
	ps  *pushService
	b   broker
}

func startPushed(t *testing.T, tweak ...func(*service.Config)) pushed {
	t.Helper()
	priv, pub, err := webpush.GenerateVAPIDKeys()
	if err != nil {
		t.Fatal(err)
	}
	_, dbURL := testenv.Postgres(t)
	nats := testenv.StartNATS(t)
	ps := newPushService(t, pub)
	svc := start(t, dbURL, nats.URL(), func(c *service.Config) {
		c.VAPID = adapters.VAPID{PublicKey: pub, PrivateKey: priv, Subject: "mailto:elves@santa-wishlist.example"}
		c.PushAllow = append(c.PushAllow, ps.addr())
		// Each wait is also the server's ack wait for that attempt: long enough that no attempt
		// is still pushing when the next one starts, however loaded the machine.
		c.PushBackOff = []time.Duration{time.Second, time.Second, time.Second, time.Second, time.Second}
		for _, f := range tweak {
			f(c)
		}
	})
	return pushed{svc: svc, ps: ps, b: newBroker(t, nats.URL())}
}

// device subscribes a new device of uid and registers it with the service.
func (p pushed) device(t *testing.T, uid string) *device {
	t.Helper()
	d := p.ps.subscribe()
	r := as(t, p.svc.base, uid, streamOpts{}).Do("POST", "/api/push/subscriptions", bytes.NewReader(mustJSON(t, p.ps.subscription(d))))
	if r.Status != 201 {
		t.Fatalf("subscribe: %d %s", r.Status, r.Body)
	}
	return d
}

func (p pushed) publish(t *testing.T, typ, uid string, data map[string]any) events.Envelope {
	t.Helper()
	env, err := events.NewEnvelope(typ, uid, data)
	if err != nil {
		t.Fatal(err)
	}
	p.b.publish(env)
	return env
}

// settled waits until the push consumer has handled everything published.
func (p pushed) settled() { p.b.consumerSettledNamed(service.PushConsumerName, 15*time.Second) }

// A Secret Santa draw is pushed once to every device of every participant, encrypted for
// each device, signed with the server's VAPID key, kept a week by the push service; a
// redelivered event pushes nothing again.
func TestPushReachesEveryDeviceOnce(t *testing.T) {
	p := startPushed(t)
	annPhone, annLaptop, ben, zed := p.device(t, "ann"), p.device(t, "ann"), p.device(t, "ben"), p.device(t, "zed")
	familyID := uuid.NewString()
	drawn := p.publish(t, events.TypeSecretSantaDrawn, "ann", map[string]any{"familyId": familyID, "familyName": "Smiths",
		"drawnAt": time.Now().UTC(), "participants": []string{"ann", "ben"}})
	p.settled()
	drawn.OccurredAt = drawn.OccurredAt.Add(time.Millisecond) // the same event, sent again
	p.b.publishRaw(events.TypeSecretSantaDrawn, mustJSON(t, drawn))
	p.settled()
	for name, d := range map[string]*device{"ann's phone": annPhone, "ann's laptop": annLaptop, "ben": ben} {
		got, posts := p.ps.inbox(d)
		if len(got) != 1 || posts != 1 {
			t.Fatalf("%s received %d pushes in %d posts, want 1: %+v", name, len(got), posts, got)
		}
		m := got[0]
		if m.Message["title"] != "Your Secret Santa match is ready" || m.Message["url"] != "/family/"+familyID+"/secret-santa" ||
			m.Message["kind"] != "secret-santa" || m.Message["tag"] != "secret-santa-"+familyID {
			t.Fatalf("%s: message %+v", name, m.Message)
		}
		if m.TTL != 7*24*3600 || m.Urgency != "normal" || m.Topic == "" || m.Subject != "mailto:elves@santa-wishlist.example" {
			t.Fatalf("%s: TTL %d, urgency %q, topic %q, subject %q", name, m.TTL, m.Urgency, m.Topic, m.Subject)
		}
	}
	if got, posts := p.ps.inbox(zed); posts != 0 {
		t.Fatalf("an outsider was pushed %+v", got)
	}
	// Someone joining is pushed to the admins, at low urgency.
	p.publish(t, events.TypeFamilyMemberJoined, "ben", map[string]any{"familyId": familyID, "familyName": "Smiths",
		"uid": "ben", "displayName": "Ben", "role": "member", "admins": []string{"ann"}})
	p.settled()
	got, _ := p.ps.inbox(annPhone)
	if len(got) != 2 || got[1].Message["title"] != "Ben joined Smiths" || got[1].Message["url"] != "/family" || got[1].Urgency != "low" {
		t.Fatalf("ann's phone after the join: %+v", got)
	}
	if got, _ := p.ps.inbox(ben); len(got) != 1 {
		t.Fatalf("the one who joined was told: %+v", got)
	}
}

// A push service that answers 404 or 410 has forgotten the device: its subscription goes and
// it is not pushed again. A 5xx or 429 is tried again later, and delivered once.
func TestPushServiceAnswers(t *testing.T) {
	p := startPushed(t)
	gone, missing, flaky, busy := p.device(t, "ann"), p.device(t, "ann"), p.device(t, "ann"), p.device(t, "ann")
	p.ps.answerNext(gone, http.StatusGone)
	p.ps.answerNext(missing, http.StatusNotFound)
	p.ps.answerNext(flaky, http.StatusInternalServerError, http.StatusBadGateway)
	p.ps.answerNext(busy, http.StatusTooManyRequests)
	claimRemoved := func() {
		p.publish(t, events.TypeItemUnclaimed, "ann", map[string]any{"claimerId": "ann", "itemId": uuid.NewString(),
			"itemName": "Red bicycle", "listId": uuid.NewString(), "listName": "My Wishlist", "ownerName": "Kid",
			"quantity": 1, "purchased": false, "reason": "removed"})
		p.settled()
	}
	claimRemoved()
	claimRemoved()
	for name, c := range map[string]struct {
		d              *device
		posts, arrived int
	}{"gone": {gone, 1, 0}, "missing": {missing, 1, 0}, "flaky": {flaky, 4, 2}, "busy": {busy, 3, 2}} {
		got, posts := p.ps.inbox(c.d)
		if posts != c.posts || len(got) != c.arrived {
			t.Fatalf("%s: %d posts, %d pushes arrived; want %d and %d", name, posts, len(got), c.posts, c.arrived)
		}
	}
	got, _ := p.ps.inbox(flaky)
	if got[0].Message["title"] != "A gift you claimed was removed" || got[0].Message["body"] != "Red bicycle was removed from Kid's list" ||
		got[0].Message["url"] != "/claims" || got[0].TTL != 7*24*3600 {
		t.Fatalf("claim-removed push: %+v", got[0])
	}
	// The removed subscriptions are gone: the device's own DELETE finds nothing.
	for _, d := range []*device{gone, missing} {
		r := as(t, p.svc.base, "ann", streamOpts{}).Do("DELETE", "/api/push/subscriptions",
			bytes.NewReader(mustJSON(t, map[string]string{"endpoint": p.ps.endpoint(d)})))
		if r.Status != 404 {
			t.Fatalf("DELETE of a subscription the push service dropped: %d %s", r.Status, r.Body)
		}
	}
}

// The subscription routes: bad input is a 400 that says what is wrong, an endpoint must be
// https to the internet (or the configured local push service), one user never removes
// another's device, and a device that changes hands is pushed only for its new user.
func TestPushSubscriptions(t *testing.T) {
	p := startPushed(t)
	d := p.ps.subscribe()
	good := p.ps.subscription(d)
	keys := good["keys"].(map[string]string)
	post := func(uid string, body []byte) (int, string) {
		r := as(t, p.svc.base, uid, streamOpts{}).Do("POST", "/api/push/subscriptions", bytes.NewReader(body))
		return r.Status, string(r.Body)
	}
	with := func(endpoint, p256dh, auth string) []byte {
		return mustJSON(t, map[string]any{"endpoint": endpoint, "keys": map[string]string{"p256dh": p256dh, "auth": auth}})
	}
	for name, body := range map[string][]byte{
		"plain http":          with("http://push.example.com/x", keys["p256dh"], keys["auth"]),
		"private address":     with("https://10.0.0.7/x", keys["p256dh"], keys["auth"]),
		"loopback":            with("https://127.0.0.1/x", keys["p256dh"], keys["auth"]),
		"a bare name":         with("https://localhost/x", keys["p256dh"], keys["auth"]),
		"another port":        with("https://push.example.com:8443/x", keys["p256dh"], keys["auth"]),
		"local, another port": with("http://127.0.0.1:1/x", keys["p256dh"], keys["auth"]),
		"no endpoint":         with("", keys["p256dh"], keys["auth"]),
		"short key":           with("https://push.example.com/x", keys["p256dh"][:20], keys["auth"]),
		"auth not base64":     with("https://push.example.com/x", keys["p256dh"], "!!!!"),
		"not JSON":            []byte("{"),
		"wrong type":          []byte(`{"endpoint": 5}`),
	} {
		if status, body := post("ann", body); status != 400 || !bytes.Contains([]byte(body), []byte(`"code"`)) {
			t.Errorf("%s: %d %s", name, status, body)
		}
	}
	if status, body := post("ann", with("https://fcm.googleapis.com/fcm/send/abc", keys["p256dh"], keys["auth"])); status != 201 {
		t.Fatalf("a public https endpoint: %d %s", status, body)
	}
	if status, _ := post("", mustJSON(t, good)); status != 401 {
		t.Fatalf("without a user: %d", status)
	}
	// The same device saved twice is one subscription.
	_, first := post("ann", mustJSON(t, good))
	_, again := post("ann", mustJSON(t, good))
	if first != again {
		t.Fatalf("saved twice: %s then %s", first, again)
	}
	del := func(uid string) int {
		return as(t, p.svc.base, uid, streamOpts{}).Do("DELETE", "/api/push/subscriptions",
			bytes.NewReader(mustJSON(t, map[string]string{"endpoint": p.ps.endpoint(d)}))).Status
	}
	if status := del("zed"); status != 404 {
		t.Fatalf("another user's DELETE: %d", status)
	}
	// The device changes hands: it is ben's now, and ann's notices no longer reach it.
	if status, body := post("ben", mustJSON(t, good)); status != 201 {
		t.Fatalf("ben takes the device: %d %s", status, body)
	}
	familyID := uuid.NewString()
	p.publish(t, events.TypeSecretSantaDrawn, "ann", map[string]any{"familyId": familyID, "familyName": "Smiths",
		"drawnAt": time.Now().UTC(), "participants": []string{"ann"}})
	p.settled()
	if got, posts := p.ps.inbox(d); posts != 0 {
		t.Fatalf("ann's notice reached the device ben took: %+v", got)
	}
	if status := del("ann"); status != 404 {
		t.Fatalf("ann's DELETE of ben's device: %d", status)
	}
	if status := del("ben"); status != 204 {
		t.Fatalf("ben's DELETE: %d", status)
	}
	p.publish(t, events.TypeSecretSantaDrawn, "ben", map[string]any{"familyId": familyID, "familyName": "Smiths",
		"drawnAt": time.Now().UTC(), "participants": []string{"ben"}})
	p.settled()
	if got, posts := p.ps.inbox(d); posts != 0 {
		t.Fatalf("a signed-out device was pushed: %+v", got)
	}
}

// The promise from the attacker's side: the list's owner has devices subscribed and the
// family claims, marks bought, releases, and is told of removals. Every one of those events
// reaches the family's devices; not one push reaches the owner's. (A push the owner does get,
// the draw, proves the owner's devices work.)
func TestNoPushCausedByAClaimReachesTheOwner(t *testing.T) {
	p := startPushed(t)
	ownerPhone, ownerLaptop := p.device(t, "kid"), p.device(t, "kid")
	aunt, uncle := p.device(t, "aunt"), p.device(t, "uncle")
	listID, itemID := uuid.NewString(), uuid.NewString()
	claim := map[string]any{"claimerId": "aunt", "itemId": itemID, "itemName": "Red bicycle", "listId": listID,
		"listName": "My Wishlist", "ownerName": "Kid", "quantity": 1, "purchased": false}
	p.publish(t, events.TypeItemClaimed, "aunt", claim)
	p.publish(t, events.TypeListChanged, "aunt", map[string]any{"listId": listID, "viewers": []string{"aunt", "uncle"}, "cause": "item.claimed"})
	claim["purchased"] = true
	p.publish(t, events.TypeItemClaimed, "aunt", claim)
	p.publish(t, events.TypeListChanged, "aunt", map[string]any{"listId": listID, "viewers": []string{"uncle"}, "cause": "item.claimed"})
	released := map[string]any{}
	for k, v := range claim {
		released[k] = v
	}
	released["claimerId"], released["reason"] = "uncle", "released"
	p.publish(t, events.TypeItemUnclaimed, "uncle", released)
	p.publish(t, events.TypeListChanged, "uncle", map[string]any{"listId": listID, "viewers": []string{"aunt"}, "cause": "item.unclaimed"})
	claim["reason"] = "removed"
	p.publish(t, events.TypeItemUnclaimed, "aunt", claim)
	p.settled()
	for name, c := range map[string]struct {
		d    *device
		want int
	}{"aunt": {aunt, 3}, "uncle": {uncle, 2}} {
		if got, _ := p.ps.inbox(c.d); len(got) != c.want {
			t.Fatalf("%s received %d pushes, want %d: %+v", name, len(got), c.want, got)
		}
	}
	for _, d := range []*device{ownerPhone, ownerLaptop} {
		if got, posts := p.ps.inbox(d); posts != 0 {
			t.Fatalf("the owner's device was pushed %d times: %+v", posts, got)
		}
	}
	p.publish(t, events.TypeSecretSantaDrawn, "kid", map[string]any{"familyId": uuid.NewString(), "familyName": "Smiths",
		"drawnAt": time.Now().UTC(), "participants": []string{"kid", "aunt"}})
	p.settled()
	for _, d := range []*device{ownerPhone, ownerLaptop} {
		if got, _ := p.ps.inbox(d); len(got) != 1 || got[0].Message["kind"] != "secret-santa" {
			t.Fatalf("the owner's device after the draw: %+v", got)
		}
	}
}

// A deleted account's devices are forgotten with it: nothing more is pushed to them.
func TestADeletedAccountsDevicesAreForgotten(t *testing.T) {
	p := startPushed(t)
	annDevice, benDevice := p.device(t, "ann"), p.device(t, "ben")
	deleted, err := events.NewEnvelope(events.TypeUserDeleted, "ann", events.UserDeletedData{RequestedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	p.b.publish(deleted)
	testenv.Eventually(t, 15*time.Second, func() error {
		r := as(t, p.svc.base, "ann", streamOpts{}).Do("DELETE", "/api/push/subscriptions",
			bytes.NewReader(mustJSON(t, map[string]string{"endpoint": p.ps.endpoint(annDevice)})))
		if r.Status != 404 {
			return fmt.Errorf("ann's device is still subscribed: %d", r.Status)
		}
		return nil
	})
	p.publish(t, events.TypeSecretSantaDrawn, "ben", map[string]any{"familyId": uuid.NewString(), "familyName": "Smiths",
		"drawnAt": time.Now().UTC(), "participants": []string{"ann", "ben"}})
	p.settled()
	if _, posts := p.ps.inbox(annDevice); posts != 0 {
		t.Fatal("a deleted account's device was pushed")
	}
	if got, _ := p.ps.inbox(benDevice); len(got) != 1 {
		t.Fatalf("ben's device: %+v", got)
	}
}
