// Package service wires the notification service, for main and for component tests.
package service

import (
	"context"
	"log/slog"
	"net/netip"
	"time"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/auth/firebaseauth"
	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/lifecycle"
	"github.com/santa-wishlist/santa/pkg/safedial"
	"github.com/santa-wishlist/santa/pkg/wiring"
	"github.com/santa-wishlist/santa/services/notification/internal/adapters"
	"github.com/santa-wishlist/santa/services/notification/internal/app"
	"github.com/santa-wishlist/santa/services/notification/internal/ports"
)

// ConsumerName is the durable consumer of every product event.
const ConsumerName = "notification"

// EmailConsumerName is the durable consumer of the events that send email (family.invited):
// its own, so a slow or failing SMTP server never holds up live notices.
const EmailConsumerName = "notification-email"

// Config is what the service needs from its environment.
type Config struct {
	DatabaseURL string
	NATSURL     string
	// EventsNamespace keeps this environment's events apart on a shared NATS (EVENTS_NAMESPACE).
	EventsNamespace events.Namespace
	// EventsReplicas is the stream's number of copies on a NATS cluster (EVENTS_REPLICAS).
	EventsReplicas int
	Server         httpserver.Options
	// Identity verifies the assertion every request must carry (IDENTITY_PUBLIC_KEYS).
	Identity *auth.IdentityVerifier
	Streams  httpserver.StreamLimits
	// RetryBackOff overrides the consumer's redelivery waits (tests make them short).
	RetryBackOff []time.Duration
	// ErasureBackOff overrides the user.deleted consumer's redelivery waits (tests).
	ErasureBackOff []time.Duration
	// SMTPURL (empty: no email is sent) is where invitations go out; MailFrom is the sender and
	// PublicURL the web app's origin, for the links in emails.
	SMTPURL   string
	MailFrom  string
	PublicURL string
	// EmailBackOff are the waits between attempts to send one email.
	EmailBackOff []time.Duration
	// VAPID is the Web Push key pair (from VAPID_PRIVATE_KEY) and contact (VAPID_SUBJECT);
	// without a key nothing is pushed and the push routes answer 404.
	VAPID adapters.VAPID
	// PushAllow are the local push services (PUSH_ALLOW, address:port pairs) that
	// subscriptions may point to and pushes may reach although they are not on the internet.
	PushAllow []netip.AddrPort
	// PushBackOff are the waits between attempts to push one event.
	PushBackOff []time.Duration
	// FirebaseProjectID (FIREBASE_PROJECT_ID) is the project whose user records give the
	// addresses notices are emailed to (the Admin SDK's GetUser); AllowAuthEmulator lets
	// FIREBASE_AUTH_EMULATOR_HOST stand in for it in development and tests. Without a
	// project (or without SMTP) no notice is emailed.
	FirebaseProjectID string
	AllowAuthEmulator bool
	// DigestWindow (EMAIL_DIGEST_WINDOW) is how long a user's digest collects notices after
	// its first; EmailSendEvery (EMAIL_SEND_EVERY) how often the sender looks for what is due.
	DigestWindow   time.Duration
	EmailSendEvery time.Duration
	// Clock is the notice emails' clock (nil: the real one); tests drive it.
	Clock func() time.Time
}

// NoticeEmailConsumerName is the durable consumer that queues notices for email: its own, so
// neither SMTP nor the live stream holds up the other.
const NoticeEmailConsumerName = "notification-email-notices"

// PushConsumerName is the durable consumer that pushes notices to closed apps: its own, so
// a slow push service never holds up live notices.
const PushConsumerName = "notification-push"

// LoadConfig reads and checks the environment.
func LoadConfig(env *config.Env) Config {
	cfg := Config{
		DatabaseURL:     env.Required("DATABASE_URL"),
		NATSURL:         env.Required("NATS_URL"),
		EventsNamespace: events.NamespaceFromEnv(env),
		EventsReplicas:  events.ReplicasFromEnv(env),
		Server:          httpserver.OptionsFromEnv(env, "notification", "8084"),
		Identity:        auth.IdentityVerifierFromEnv(env, "notification"),
		Streams:         httpserver.StreamLimitsFromEnv(env),
		SMTPURL:         env.String("SMTP_URL", ""),
		MailFrom:        env.String("MAIL_FROM", "Santa Wishlist <no-reply@santa-wishlist.example>"),
		PublicURL:       env.String("PUBLIC_URL", "http://localhost:8080"),
		EmailBackOff: []time.Duration{5 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute,
			30 * time.Minute, time.Hour},
		// The first wait is also the server's ack wait for the first attempt: room for a
		// large family's devices pushed eight at a time with a 10 s timeout each.
		PushBackOff:       []time.Duration{time.Minute, 2 * time.Minute, 5 * time.Minute, 15 * time.Minute, 30 * time.Minute},
		FirebaseProjectID: env.String("FIREBASE_PROJECT_ID", ""),
		AllowAuthEmulator: env.Bool("ALLOW_AUTH_EMULATOR", false),
		DigestWindow:      env.Duration("EMAIL_DIGEST_WINDOW", time.Hour),
		EmailSendEvery:    env.Duration("EMAIL_SEND_EVERY", 15*time.Second),
	}
	if key := env.String("VAPID_PRIVATE_KEY", ""); key != "" {
		vapid, err := adapters.ParseVAPIDKey(key)
		if err != nil {
			env.Problem("%v", err)
		}
		vapid.Subject = env.String("VAPID_SUBJECT", "mailto:no-reply@santa-wishlist.example")
		cfg.VAPID = vapid
	}
	allow, err := safedial.ParseAllow(env.String("PUSH_ALLOW", ""))
	if err != nil {
		env.Problem("PUSH_ALLOW: %v", err)
	}
	cfg.PushAllow = allow
	// The gateway forwards a live stream from an HTTP/2 device over a few shared HTTP/2
	// connections (an HTTP/1.1 device's stream gets a connection of its own, taken over).
	cfg.Server.CleartextHTTP2 = true
	return cfg
}

// Build connects, migrates, starts the consumer and the fan-out, and returns the server. Open
// streams end when ctx ends, so the server's shutdown does not wait on them.
func Build(ctx context.Context, cfg Config, logger *slog.Logger) (*httpserver.Server, error) {
	w := wiring.NewInternal(cfg.Server, cfg.Identity, logger)
	if err := w.OpenPostgres(ctx, wiring.Database{URL: cfg.DatabaseURL, Service: "notification",
		Migrations: adapters.Migrations()}); err != nil {
		return nil, err
	}
	if err := w.ConnectNATS(cfg.NATSURL, "notification", cfg.EventsNamespace, cfg.EventsReplicas); err != nil {
		return nil, err
	}
	srv := w.Server
	notices := adapters.NewNotices(w.Pool)
	fanout := adapters.NewFanout(w.NC, cfg.EventsNamespace)
	subscriptions := adapters.NewSubscriptions(w.Pool)
	prefs := adapters.NewPreferences(w.Pool)
	hub := app.NewHub(srv.Registry)
	// Listen before consuming, so no notice is stored before this replica can hear of it.
	fanSub, err := fanout.Listen(ctx, hub.Announce)
	if err != nil {
		return nil, w.Fail(err)
	}
	w.Closes(func() error { _ = fanSub.Unsubscribe(); return nil })
	stopRecheck := fanout.OnReconnect(hub.Recheck)
	w.Closes(func() error { stopRecheck(); return nil })
	if err := w.Consumer(events.Consume(ctx, w.JS, events.ConsumerConfig{Durable: ConsumerName, BackOff: cfg.RetryBackOff},
		app.NewNotifier(notices, fanout, logger).Handle, logger, w.Metrics)); err != nil {
		return nil, err
	}
	// A deleted account's notices go, and its open streams on every replica end.
	if err := w.EraseUsers(ctx, "notification", func(ctx context.Context, uid string) error {
		if err := notices.EraseUser(ctx, uid); err != nil {
			return err
		}
		if err := subscriptions.EraseUser(ctx, uid); err != nil {
			return err
		}
		if err := prefs.EraseUser(ctx, uid); err != nil {
			return err
		}
		return fanout.Announce(uid, app.SeqGone)
	}, cfg.ErasureBackOff); err != nil {
		return nil, err
	}
	if cfg.SMTPURL != "" {
		mailer, err := adapters.NewSMTPMailer(cfg.SMTPURL, cfg.MailFrom)
		if err != nil {
			return nil, w.Fail(err)
		}
		if err := w.Consumer(events.Consume(ctx, w.JS, events.ConsumerConfig{Durable: EmailConsumerName,
			Subjects: []string{events.TypeFamilyInvited}, BackOff: cfg.EmailBackOff},
			app.NewEmailer(mailer, notices, prefs, prefs, cfg.PublicURL, logger).Handle, logger, w.Metrics)); err != nil {
			return nil, err
		}
		if cfg.FirebaseProjectID != "" {
			if err := startNoticeMail(ctx, w, cfg, mailer, prefs, logger); err != nil {
				return nil, err
			}
		}
	}
	if cfg.VAPID.PublicKey != "" {
		// Every event: NATS 2.9 filters on one subject only; domain.PushOf picks what is pushed.
		if err := w.Consumer(events.Consume(ctx, w.JS, events.ConsumerConfig{Durable: PushConsumerName, BackOff: cfg.PushBackOff}, app.NewPusher(subscriptions, adapters.NewWebPush(cfg.VAPID, cfg.PushAllow), prefs, logger).Handle,
			logger, w.Metrics)); err != nil {
			return nil, err
		}
	}
	// The server's shutdown waits for every handler, and a stream never ends by itself, so
	// streams end when ctx does (SIGTERM, the moment readiness starts failing); their devices
	// reconnect, to another replica, with Last-Event-ID.
	streams := cfg.Streams
	if streams.Max == 0 { // a Config built in code, not from the environment
		streams = httpserver.DefaultStreamLimits
	}
	srv.ParkPath(ports.StreamPath) // an idle stream waits with the smallest stack
	feed := app.NewFeed(hub, notices)
	ports.StreamRoute(srv.Engine, feed, httpserver.NewStreamGate(srv.Registry, streams), ctx)
	ports.Register(srv.Engine, feed, prefs, ports.PushConfig{Store: subscriptions, PublicKey: cfg.VAPID.PublicKey, Allow: cfg.PushAllow})
	srv.AddReadinessCheck("postgres", notices.Ping)
	srv.AddReadinessCheck("nats", lifecycle.NATSReady(w.NC))
	// Run stops the consumers (the event in hand finishes) and the fan-out, then drains NATS,
	// then closes the pool the handlers were using.
	return srv, nil
}

// startNoticeMail starts emailing notices: the consumer that queues them and the sender that
// sends what is due (on every replica: FOR UPDATE SKIP LOCKED keeps them from sending one
// email twice).
func startNoticeMail(ctx context.Context, w *wiring.Wiring, cfg Config, mailer app.Mailer, prefs *adapters.Preferences, logger *slog.Logger) error {
	directory, err := firebaseauth.NewDirectory(ctx, cfg.FirebaseProjectID, cfg.AllowAuthEmulator)
	if err != nil {
		return w.Fail(err)
	}
	window, every := cfg.DigestWindow, cfg.EmailSendEvery
	if window <= 0 {
		window = time.Hour
	}
	if every <= 0 {
		every = 15 * time.Second
	}
	m := &app.NoticeMailer{Outbox: adapters.NewEmailOutbox(w.Pool), Prefs: prefs, Directory: directory, Mailer: mailer,
		PublicURL: cfg.PublicURL, Window: window, BackOff: cfg.EmailBackOff, Now: cfg.Clock, Logger: logger.With("component", "notice-mailer")}
	if err := w.Consumer(events.Consume(ctx, w.JS, events.ConsumerConfig{Durable: NoticeEmailConsumerName, BackOff: cfg.RetryBackOff},
		m.Handle, logger, w.Metrics)); err != nil {
		return err
	}
	w.Go(func(ctx context.Context) { m.Run(ctx, every) })
	return nil
}
