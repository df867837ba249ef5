package wiring

import (
	"time"

	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/outbox"
	"github.com/santa-wishlist/santa/pkg/reminders"
)

// OutboxConfig is what a service that keeps its events in an outbox in its own database, and
// sends reminders through it (wishlist, family), reads from the environment the same way.
type OutboxConfig struct {
	DatabaseURL string
	NATSURL     string
	// EventsNamespace keeps this environment's events apart on a shared NATS (EVENTS_NAMESPACE).
	EventsNamespace events.Namespace
	// EventsReplicas is the stream's number of copies on a NATS cluster (EVENTS_REPLICAS).
	EventsReplicas int
	// OutboxRetention is how long published events stay in the outbox (OUTBOX_RETENTION).
	OutboxRetention time.Duration
	// ReminderInterval is how often this replica scans for due reminders (REMINDER_INTERVAL).
	ReminderInterval time.Duration
	// Clock is the reminders' clock (tests drive it); nil is time.Now.
	Clock func() time.Time
	// ErasureBackOff overrides the account-deletion consumers' redelivery waits (tests).
	ErasureBackOff []time.Duration
}

// OutboxConfigFromEnv reads DATABASE_URL and NATS_URL (both required), EVENTS_NAMESPACE,
// EVENTS_REPLICAS,
// OUTBOX_RETENTION and REMINDER_INTERVAL.
func OutboxConfigFromEnv(env *config.Env) OutboxConfig {
	return OutboxConfig{
		DatabaseURL:      env.Required("DATABASE_URL"),
		NATSURL:          env.Required("NATS_URL"),
		EventsNamespace:  events.NamespaceFromEnv(env),
		EventsReplicas:   events.ReplicasFromEnv(env),
		OutboxRetention:  env.Duration("OUTBOX_RETENTION", outbox.DefaultRetention),
		ReminderInterval: env.Duration("REMINDER_INTERVAL", reminders.DefaultInterval),
	}
}

// RunOutbox starts, until shutdown, the reminder scans (every replica scans; each reminder is
// sent once) and the outbox relay. Call it last: Run stops the relay first, after in-flight
// requests finished, then the consumers, then drains NATS and closes the pool.
func (w *Wiring) RunOutbox(cfg OutboxConfig, scans ...reminders.Scan) {
	w.Go(reminders.New(w.Pool, reminders.Options{Clock: cfg.Clock, Interval: cfg.ReminderInterval,
		Registry: w.Server.Registry, Logger: w.Logger}, scans...).Run)
	w.Go(outbox.NewRelay(w.Pool, w.JS, w.Server.Registry, w.Logger).WithRetention(cfg.OutboxRetention).Run)
}
