// Package service wires the notification service, for main and for component tests.
package service

import (
	"context"
	"log/slog"
	"time"

	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/lifecycle"
	"github.com/santa-wishlist/santa/pkg/migrate"
	"github.com/santa-wishlist/santa/pkg/postgres"
	"github.com/santa-wishlist/santa/services/notification/internal/adapters"
	"github.com/santa-wishlist/santa/services/notification/internal/app"
	"github.com/santa-wishlist/santa/services/notification/internal/ports"
)

// ConsumerName is the durable consumer of every product event.
const ConsumerName = "notification"

// Config is what the service needs from its environment.
type Config struct {
	DatabaseURL string
	NATSURL     string
	// EventsNamespace keeps this environment's events apart on a shared NATS (EVENTS_NAMESPACE).
	EventsNamespace events.Namespace
	Server          httpserver.Options
	Streams         httpserver.StreamLimits
	// RetryBackOff overrides the consumer's redelivery waits (tests make them short).
	RetryBackOff []time.Duration
}

// LoadConfig reads and checks the environment.
func LoadConfig(env *config.Env) Config {
	cfg := Config{
		DatabaseURL:     env.Required("DATABASE_URL"),
		NATSURL:         env.Required("NATS_URL"),
		EventsNamespace: events.NamespaceFromEnv(env),
		Server:          httpserver.OptionsFromEnv(env, "notification", "8084"),
		Streams:         httpserver.StreamLimitsFromEnv(env),
	}
	// The gateway forwards every live stream over a few HTTP/2 connections.
	cfg.Server.CleartextHTTP2 = true
	return cfg
}

// Build connects, migrates, starts the consumer and the fan-out, and returns the server. Open
// streams end when ctx ends, so the server's shutdown does not wait on them.
func Build(ctx context.Context, cfg Config, logger *slog.Logger) (*httpserver.Server, error) {
	pool, err := postgres.Connect(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	if err := migrate.Apply(ctx, pool, "notification", adapters.Migrations(), logger); err != nil {
		pool.Close()
		return nil, err
	}
	nc, js, err := events.Connect(cfg.NATSURL, "notification", logger)
	if err != nil {
		pool.Close()
		return nil, err
	}
	js = events.InNamespace(js, cfg.EventsNamespace)
	cfg.Server.Logger = logger
	srv := httpserver.New(cfg.Server)
	notices := adapters.NewNotices(pool)
	fanout := adapters.NewFanout(nc)
	hub := app.NewHub(srv.Registry)
	// Listen before consuming, so no notice is stored before this replica can hear of it.
	fanSub, err := fanout.Listen(hub.Announce)
	if err != nil {
		nc.Close()
		pool.Close()
		return nil, err
	}
	consumer, err := events.Consume(ctx, js, events.ConsumerConfig{Durable: ConsumerName, BackOff: cfg.RetryBackOff},
		app.NewNotifier(notices, fanout, logger).Handle, logger, events.NewConsumerMetrics(srv.Registry))
	if err != nil {
		nc.Close()
		pool.Close()
		return nil, err
	}
	// The server's shutdown waits for every handler, and a stream never ends by itself, so
	// streams end when ctx does (SIGTERM, the moment readiness starts failing); their devices
	// reconnect, to another replica, with Last-Event-ID.
	streams := cfg.Streams
	if streams.Max == 0 { // a Config built in code, not from the environment
		streams = httpserver.DefaultStreamLimits
	}
	ports.Routes(srv.Engine, app.NewFeed(hub, notices), httpserver.NewStreamGate(srv.Registry, streams), ctx.Done())
	srv.AddReadinessCheck("postgres", notices.Ping)
	srv.AddReadinessCheck("nats", lifecycle.NATSReady(nc))
	// Run calls these in reverse: stop consuming (the event in hand finishes), then close
	// NATS, then the pool the handler was using.
	srv.OnShutdown(func(context.Context) error { pool.Close(); return nil })
	srv.OnShutdown(lifecycle.DrainNATS(nc))
	srv.OnShutdown(func(context.Context) error { _ = fanSub.Unsubscribe(); consumer.Stop(); return nil })
	return srv, nil
}
