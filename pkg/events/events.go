// Package events is the one way services talk through NATS JetStream: one stream, one JSON
// envelope, a publisher that lets JetStream drop duplicates, and a consumer helper that acks
// explicitly, retries with back-off and terminates poison messages instead of looping on them.
package events

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	neturl "net/url"
	"time"

	"github.com/google/uuid"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/santa-wishlist/santa/pkg/lifecycle"
)

// StreamName is the stream holding every product event of the default namespace; see
// Namespace for the others.
const StreamName = "SANTA"

// Event types; each is also the subject it is published on.
const (
	TypeItemCreated = "item.created"
	TypeItemDeleted = "item.deleted"
	TypeSantaSent   = "santa.sent"
	// Family lists. item.claimed and item.unclaimed carry the claimer as userId,
	// never the list's owner; list.changed goes to a shared list's recent viewers.
	TypeItemUpdated   = "item.updated"
	TypeItemClaimed   = "item.claimed"
	TypeItemUnclaimed = "item.unclaimed"
	TypeListDeleted   = "list.deleted"
	TypeListChanged   = "list.changed"
	// Giving together and thanks. item.pledged carries the giver who pledged (or started,
	// withdrew, cancelled) as userId and goes to givers only; item.thanked carries the one who
	// thanked, after the gifts' reveal date, and names the givers thanked.
	TypeItemPledged = "item.pledged"
	TypeItemThanked = "item.thanked"
	// TypeListFamilies is a list's sharing with families as it now stands (wishlist owns
	// familyIds; family keeps a projection of it for GET /api/families).
	TypeListFamilies = "list.families"
	// Lists for someone else. list.suggestion.created carries its suggester as userId and goes to
	// no recipient; list.managers.changed names who keeps a list now.
	TypeSuggestionCreated   = "list.suggestion.created"
	TypeListManagersChanged = "list.managers.changed"
	// Families. secretsanta.drawn names the participants, never a pair.
	TypeFamilyInvited      = "family.invited"
	TypeFamilyMemberJoined = "family.member.joined"
	TypeFamilyMemberLeft   = "family.member.left"
	TypeSecretSantaDrawn   = "secretsanta.drawn"
	// TypeSecretSantaMessage is a message in a Secret Santa conversation, addressed (userId) to
	// the side that receives it; it never names the other side.
	TypeSecretSantaMessage = "secretsanta.message"
	// Accounts. user.deleted asks every service to erase the user; each answers
	// with user.erased naming itself, and the account's owner (wishlist) counts the answers.
	TypeUserDeleted = "user.deleted"
	TypeUserErased  = "user.erased"
	// Reminders, each published once per (kind, subject, occasion) by the service
	// that owns what it is about, addressed to its recipient as userId. None carries anything
	// a claim on the recipient's own lists would tell them.
	TypeReminderDrawSoon  = "reminder.draw_soon"
	TypeReminderShopping  = "reminder.shopping"
	TypeReminderListEmpty = "reminder.list_empty"
	// TypeReminderExchangeSoon: a family's Secret Santa exchange is at most 3 days away; to
	// each participant of its draw.
	TypeReminderExchangeSoon = "reminder.exchange_soon"
)

// DuplicateWindow is how long JetStream remembers event ids. An outbox relay that crashes
// after publishing but before marking the row republishes within this window, and JetStream
// drops the copy.
const DuplicateWindow = 30 * time.Minute

// Envelope is the wire shape of every event on the SANTA stream. The subject equals `type`;
// `id` is also the Nats-Msg-Id, so JetStream drops a republished copy.
type Envelope struct {
	ID         string    `json:"id" jsonschema:"format=uuid"`
	Type       string    `json:"type"`
	OccurredAt time.Time `json:"occurredAt"`
	// Firebase uid of the wishlist's owner; for item.claimed and item.unclaimed the claimer
	// (never the owner), for item.pledged the giver, for item.thanked who thanked, for
	// list.changed whoever caused the change; for list.families the list's owner; for
	// list.suggestion.created the suggester; for list.managers.changed who changed the
	// managers; for family events see each data schema; for user.deleted and user.erased the
	// deleted account; for reminder.* the person reminded
	UserID string          `json:"userId" jsonschema:"minLength=1"`
	Data   json.RawMessage `json:"data" jsonschema:"type=object"`
}

// NewEnvelope wraps data in an envelope with a fresh id.
func NewEnvelope(eventType, userID string, data any) (Envelope, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return Envelope{}, fmt.Errorf("encode %s data: %w", eventType, err)
	}
	return Envelope{ID: uuid.NewString(), Type: eventType, OccurredAt: time.Now().UTC(), UserID: userID, Data: raw}, nil
}

// Validate checks the fields every consumer relies on.
func (e Envelope) Validate() error {
	switch {
	case e.ID == "":
		return errors.New("event has no id")
	case dataTypes[e.Type] == nil:
		return fmt.Errorf("unknown event type %q", e.Type)
	case e.UserID == "":
		return errors.New("event has no userId")
	case e.OccurredAt.IsZero():
		return errors.New("event has no occurredAt")
	case len(e.Data) == 0 || e.Data[0] != '{':
		return errors.New("event data is not an object")
	}
	return nil
}

// Connect opens a NATS connection that keeps reconnecting, so a broker restart is a pause,
// not an outage.
func Connect(url, name string, logger *slog.Logger) (*nats.Conn, jetstream.JetStream, error) {
	nc, err := nats.Connect(url,
		nats.Name(name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(500*time.Millisecond),
		nats.RetryOnFailedConnect(true),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				logger.Warn("nats disconnected", "err", err)
			}
		}),
		nats.ReconnectHandler(func(*nats.Conn) { logger.Info("nats reconnected") }),
	)
	if err != nil {
		return nil, nil, fmt.Errorf("connect to nats at %s: %w", redact(url), err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, nil, fmt.Errorf("jetstream: %w", err)
	}
	return nc, js, nil
}

// streamTopics are the subject trees the product stream holds; every event type lies in one
// (TestEveryEventTypeIsInTheStream), and each service's NATS user may publish only its own
// (deploy/local/stack.sh, the chart's dependencies.yaml).
var streamTopics = []string{"item.>", "santa.>", "list.>", "family.>", "secretsanta.>", "user.>", "reminder.>"}

func streamSubjects(ns Namespace) []string {
	out := make([]string, len(streamTopics))
	for i, t := range streamTopics {
		out[i] = ns.Subject(t)
	}
	return out
}

// EnsureStream creates or updates the product stream of js's namespace.
func EnsureStream(ctx context.Context, js jetstream.JetStream) (jetstream.Stream, error) {
	ns := NamespaceOf(js)
	s, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:       ns.Stream(),
		Subjects:   streamSubjects(ns),
		Storage:    jetstream.FileStorage,
		Replicas:   replicasOf(js),
		Retention:  jetstream.LimitsPolicy,
		MaxAge:     7 * 24 * time.Hour,
		Duplicates: DuplicateWindow,
	})
	if err != nil {
		return nil, fmt.Errorf("ensure stream %s: %w", ns.Stream(), err)
	}
	return s, nil
}

// EnsureStreamAtStartup is EnsureStream for a service that is starting: while NATS does not
// answer (the connection is still being made, the NATS pod is restarting) or a clustered
// JetStream is still forming (formingCluster), it tries again for up to lifecycle.StartupWait,
// inside the chart's startup probe; any other answer of JetStream's that refuses the stream
// fails at once.
func EnsureStreamAtStartup(ctx context.Context, js jetstream.JetStream) error {
	return lifecycle.Retry(ctx, func() error {
		_, err := EnsureStream(ctx, js)
		return err
	}, RefusedForGood)
}

// formingCluster are JetStream's answers while a clustered JetStream is still forming, as on a
// cold start of the three servers, which start side by side with the services: no meta leader
// elected yet (10006, 10008, 10009), fewer servers known than the stream's replicas (10005),
// JetStream not yet enabled (10039, 10076). They pass within seconds of the last server coming
// up, so a starting service waits for them as for a server that does not answer yet.
var formingCluster = map[jetstream.ErrorCode]bool{10005: true, 10006: true, 10008: true, 10009: true, 10039: true, 10076: true}

// RefusedForGood tells lifecycle.Retry which errors of a starting service's JetStream calls no
// wait can change: JetStream answered and refused, other than while its cluster forms.
func RefusedForGood(err error) bool {
	var refused *jetstream.APIError
	return errors.As(err, &refused) && !formingCluster[refused.ErrorCode]
}

// Publish sends an envelope on its type's subject in js's namespace, with its id as
// Nats-Msg-Id, and waits for JetStream's ack.
func Publish(ctx context.Context, js jetstream.JetStream, env Envelope) error {
	payload, err := json.Marshal(env)
	if err != nil {
		return fmt.Errorf("encode event %s: %w", env.ID, err)
	}
	if _, err := js.Publish(ctx, NamespaceOf(js).Subject(env.Type), payload, jetstream.WithMsgID(env.ID)); err != nil {
		return fmt.Errorf("publish event %s: %w", env.ID, err)
	}
	return nil
}

// redact hides the password of a nats://user:password@host URL (the services' NATS users).
func redact(raw string) string {
	if u, err := neturl.Parse(raw); err == nil {
		return u.Redacted()
	}
	return "(unparsable NATS URL)"
}
