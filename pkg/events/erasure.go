package events

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/nats-io/nats.go/jetstream"
)

// ErasingServices hold a user's data and answer user.deleted with user.erased (the enum of
// user-erased.schema.json's service). The account's owner (wishlist) waits for every one of
// them before it reports the deletion complete.
var ErasingServices = []string{"wishlist", "family", "notification", "media", "vision", "gateway"}

// erasedNamespace makes user.erased ids from the user.deleted id and the service: a service
// that erases twice (a redelivery) answers with the same id, which the stream drops.
var erasedNamespace = uuid.MustParse("5b0f8d0e-5e3a-4d55-9d55-6f1f0c1a7e18")

// ErasedEnvelope is service's answer to the user.deleted event deleted.
func ErasedEnvelope(deleted Envelope, service string) Envelope {
	raw, _ := json.Marshal(UserErasedData{Service: service})
	return Envelope{
		ID:         uuid.NewSHA1(erasedNamespace, []byte(deleted.ID+"/"+service)).String(),
		Type:       TypeUserErased,
		OccurredAt: time.Now().UTC(),
		UserID:     deleted.UserID,
		Data:       raw,
	}
}

// EraseFunc erases everything a service holds about uid. It must be idempotent: it runs again
// when the event is redelivered, and finds nothing left.
type EraseFunc func(ctx context.Context, uid string) error

// ErasureBackOff is long: an erasure must complete even when a store is away for hours, so
// the event is retried for about a day before JetStream gives up on it.
var ErasureBackOff = []time.Duration{
	time.Second, 5 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute,
	30 * time.Minute, time.Hour, 2 * time.Hour, 4 * time.Hour, 8 * time.Hour, 8 * time.Hour,
}

// ConsumeUserDeleted starts service's durable user.deleted consumer: it erases the user and
// then publishes user.erased {service}. A service that is down when the account is deleted
// finds the event waiting on its durable consumer when it starts again. backOff nil means
// ErasureBackOff.
func ConsumeUserDeleted(ctx context.Context, js jetstream.JetStream, service string, erase EraseFunc,
	backOff []time.Duration, logger *slog.Logger, m *ConsumerMetrics) (*Consumer, error) {
	if backOff == nil {
		backOff = ErasureBackOff
	}
	return Consume(ctx, js, ConsumerConfig{
		Durable:  service + "-user-deleted",
		Subjects: []string{TypeUserDeleted},
		BackOff:  backOff,
	}, func(ctx context.Context, env Envelope) error {
		if env.Type != TypeUserDeleted {
			return nil
		}
		if err := erase(ctx, env.UserID); err != nil {
			return fmt.Errorf("erase user: %w", err)
		}
		if err := Publish(ctx, js, ErasedEnvelope(env, service)); err != nil {
			return err // erased already; the retry erases nothing and answers again
		}
		logger.Info("erased a deleted account's data", "event_id", env.ID, "service", service)
		return nil
	}, logger, m)
}
