package ports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/family/internal/app"
)

// ListsConsumer is the durable consumer of wishlist's list.families events.
const ListsConsumer = "family-lists"

// HandleListFamilies applies list.families to the projection of shared lists. Malformed data
// is poison; a database failure is retried (applying is idempotent).
func HandleListFamilies(f *app.Families) events.Handler {
	return func(ctx context.Context, env events.Envelope) error {
		if env.Type != events.TypeListFamilies {
			return nil
		}
		var d events.ListFamiliesData
		if err := json.Unmarshal(env.Data, &d); err != nil {
			return fmt.Errorf("%w: list.families data: %v", events.ErrPoison, err)
		}
		err := f.ListFamilies(ctx, d)
		if errors.Is(err, app.ErrBadListEvent) {
			return fmt.Errorf("%w: %v", events.ErrPoison, err)
		}
		return err
	}
}

// ConsumeListFamilies starts the durable list.families consumer.
func ConsumeListFamilies(ctx context.Context, js jetstream.JetStream, f *app.Families,
	logger *slog.Logger, metrics *events.ConsumerMetrics) (*events.Consumer, error) {
	return events.Consume(ctx, js, events.ConsumerConfig{
		Durable:  ListsConsumer,
		Subjects: []string{events.TypeListFamilies},
	}, HandleListFamilies(f), logger, metrics)
}
