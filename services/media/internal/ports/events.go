package ports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/media/internal/app"
	"github.com/santa-wishlist/santa/services/media/internal/domain"
)

// ItemDeletedConsumer is the durable consumer's name in production.
const ItemDeletedConsumer = "media-item-deleted"

// HandleItemDeleted removes a deleted item's objects. A malformed event is poison (it can
// never succeed); a storage failure is returned for redelivery, which is safe because the
// deletion is idempotent.
func HandleItemDeleted(svc *app.Service, logger *slog.Logger) events.Handler {
	return func(ctx context.Context, env events.Envelope) error {
		if env.Type != events.TypeItemDeleted {
			return nil
		}
		var data events.ItemData
		if err := json.Unmarshal(env.Data, &data); err != nil {
			return fmt.Errorf("%w: item.deleted data: %v", events.ErrPoison, err)
		}
		imageURL := ""
		if data.ImageURL != nil {
			imageURL = *data.ImageURL
		}
		n, err := svc.DeleteForItem(ctx, app.ItemDeleted{ItemID: data.ID, ImageURL: imageURL, UserID: env.UserID})
		if errors.Is(err, domain.ErrInvalidItemID) {
			return fmt.Errorf("%w: %v", events.ErrPoison, err)
		}
		if err != nil {
			return fmt.Errorf("delete objects of item %s: %w", data.ID, err)
		}
		logger.Info("deleted item's media", "event_id", env.ID, "item_id", data.ID, "objects", n)
		return nil
	}
}

// ConsumeItemDeleted starts the durable item.deleted consumer.
func ConsumeItemDeleted(ctx context.Context, js jetstream.JetStream, durable string, svc *app.Service,
	logger *slog.Logger, metrics *events.ConsumerMetrics) (*events.Consumer, error) {
	return events.Consume(ctx, js, events.ConsumerConfig{
		Durable:  durable,
		Subjects: []string{events.TypeItemDeleted},
	}, HandleItemDeleted(svc, logger), logger, metrics)
}
