package ports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/wishlist/internal/app"
)

// FamiliesConsumer is the durable consumer of the family service's membership events.
const FamiliesConsumer = "wishlist-families"

// HandleMembership applies a membership event to wishlist's projection. Malformed data is
// poison; a database failure is retried, which is safe because applying is idempotent.
func HandleMembership(w *app.Wishlist) events.Handler {
	return func(ctx context.Context, env events.Envelope) error {
		var err error
		switch env.Type {
		case events.TypeFamilyMemberJoined:
			var d events.MemberJoinedData
			if err := json.Unmarshal(env.Data, &d); err != nil {
				return fmt.Errorf("%w: %s data: %v", events.ErrPoison, env.Type, err)
			}
			err = w.MemberJoined(ctx, d.FamilyID, d.UID, d.DisplayName, env.OccurredAt)
		case events.TypeFamilyMemberLeft:
			var d events.MemberLeftData
			if err := json.Unmarshal(env.Data, &d); err != nil {
				return fmt.Errorf("%w: %s data: %v", events.ErrPoison, env.Type, err)
			}
			err = w.MemberLeft(ctx, d.FamilyID, d.UID, d.FamilyDeleted, env.OccurredAt)
		default:
			return nil
		}
		if errors.Is(err, app.ErrBadEvent) {
			return fmt.Errorf("%w: %s: %v", events.ErrPoison, env.Type, err)
		}
		return err
	}
}

// ConsumeMemberships starts the durable consumer of family.member.* events.
func ConsumeMemberships(ctx context.Context, js jetstream.JetStream, w *app.Wishlist,
	logger *slog.Logger, metrics *events.ConsumerMetrics) (*events.Consumer, error) {
	return events.Consume(ctx, js, events.ConsumerConfig{
		Durable:  FamiliesConsumer,
		Subjects: []string{"family.member.>"},
	}, HandleMembership(w), logger, metrics)
}
