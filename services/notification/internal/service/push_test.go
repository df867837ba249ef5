package service_test

import (
	"bytes"
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

func startPushed(t *testing.T) pushed {
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
		c.PushBackOff = []time.Duration{50 * time.Millisecond, 50 * time.Millisecond, 50 * time.Millisecond}
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
