// Package reminders runs a service's reminders: a due-scan, run periodically by every replica,
// and a send that happens once per reminder however many replicas scan and whenever one of
// them crashes. Once comes from a table of sent reminders whose key is (kind, subject,
// occasion): the key and the reminder's outbox event are written in one transaction, so a
// reminder is sent exactly when its key is stored. Two replicas sending the same reminder at
// once meet on the key (the second waits for the first to commit, then inserts nothing); a
// replica that crashes before committing leaves neither key nor event, and the next scan
// sends it.
//
// The owning service's migration must create the table:
//
//	CREATE TABLE sent_reminders (
//	    kind text NOT NULL, subject text NOT NULL, occasion text NOT NULL,
//	    recipient text NOT NULL, event_id uuid NOT NULL,
//	    sent_at timestamptz NOT NULL DEFAULT now(),
//	    PRIMARY KEY (kind, subject, occasion));
//	CREATE INDEX sent_reminders_recipient ON sent_reminders (recipient);
package reminders

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/outbox"
)

// Due is one reminder that a scan found due: its key and the event that sends it.
type Due struct {
	// Kind is the event type; Subject what (or whom) it is about; Occasion the date it is for.
	Kind, Subject, Occasion string
	// Event is addressed to the recipient (its UserID).
	Event events.Envelope
}

// Scan answers the reminders due at now that have not been sent (it may answer one that
// another replica is sending right now: Record sends it once anyway).
type Scan func(ctx context.Context, now time.Time) ([]Due, error)

// Record stores the reminder's key and enqueues its event inside tx, and says whether it did:
// false when the reminder was sent already (by this replica or another). A transaction
// holding the same key uncommitted makes it wait for that one to end.
func Record(ctx context.Context, tx pgx.Tx, d Due) (bool, error) {
	if d.Kind != d.Event.Type {
		return false, fmt.Errorf("reminder %s carries a %s event", d.Kind, d.Event.Type)
	}
	tag, err := tx.Exec(ctx, `INSERT INTO sent_reminders (kind, subject, occasion, recipient, event_id)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (kind, subject, occasion) DO NOTHING`,
		d.Kind, d.Subject, d.Occasion, d.Event.UserID, d.Event.ID)
	if err != nil {
		return false, fmt.Errorf("record reminder %s %s %s: %w", d.Kind, d.Subject, d.Occasion, err)
	}
	if tag.RowsAffected() == 0 {
		return false, nil
	}
	return true, outbox.Enqueue(ctx, tx, d.Event)
}

// EraseUser deletes, inside the caller's transaction, the keys of the reminders sent to uid.
func EraseUser(ctx context.Context, tx pgx.Tx, uid string) error {
	if _, err := tx.Exec(ctx, "DELETE FROM sent_reminders WHERE recipient = $1", uid); err != nil {
		return fmt.Errorf("erase sent reminders: %w", err)
	}
	return nil
}

// DefaultInterval is how often each replica scans unless the service says otherwise
// (REMINDER_INTERVAL). Reminders are days ahead: a few minutes late is on time.
const DefaultInterval = 5 * time.Minute

// Scheduler runs scans and sends what they find.
type Scheduler struct {
	pool     *pgxpool.Pool
	scans    []Scan
	clock    func() time.Time
	interval time.Duration
	logger   *slog.Logger
	sent     *prometheus.CounterVec
	failed   prometheus.Counter
}

// Options configure a Scheduler; zero values take the defaults (time.Now, DefaultInterval,
// no metrics).
type Options struct {
	Clock    func() time.Time
	Interval time.Duration
	// Registry, when set, gets reminders_sent_total{kind} and reminders_scan_failures_total.
	Registry prometheus.Registerer
	Logger   *slog.Logger
}

// New builds a scheduler of the scans on the service's pool.
func New(pool *pgxpool.Pool, opts Options, scans ...Scan) *Scheduler {
	s := &Scheduler{pool: pool, scans: scans, clock: opts.Clock, interval: opts.Interval, logger: opts.Logger,
		sent: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "reminders_sent_total", Help: "Reminders sent (their event committed to the outbox), by kind.",
		}, []string{"kind"}),
		failed: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "reminders_scan_failures_total", Help: "Reminder scans or sends that failed (retried at the next scan).",
		}),
	}
	if s.clock == nil {
		s.clock = time.Now
	}
	if s.interval <= 0 {
		s.interval = DefaultInterval
	}
	if s.logger == nil {
		s.logger = slog.New(slog.DiscardHandler)
	}
	s.logger = s.logger.With("component", "reminders")
	if opts.Registry != nil {
		opts.Registry.MustRegister(s.sent, s.failed)
	}
	return s
}

// RunOnce scans once at the clock's now and sends every due reminder; it answers how many it
// sent. A failing send stops nothing else: what was not sent is due again at the next scan.
func (s *Scheduler) RunOnce(ctx context.Context) (int, error) {
	now := s.clock()
	sent := 0
	var firstErr error
	fail := func(err error) {
		s.failed.Inc()
		if firstErr == nil {
			firstErr = err
		}
	}
	for _, scan := range s.scans {
		due, err := scan(ctx, now)
		if err != nil {
			fail(err)
			continue
		}
		for _, d := range due {
			var done bool
			err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
				var err error
				done, err = Record(ctx, tx, d)
				return err
			})
			if err != nil {
				fail(err)
				continue
			}
			if done {
				sent++
				s.sent.WithLabelValues(d.Kind).Inc()
			}
		}
	}
	return sent, firstErr
}

// Run scans at once and then every interval until ctx ends.
func (s *Scheduler) Run(ctx context.Context) {
	for {
		if n, err := s.RunOnce(ctx); err != nil && ctx.Err() == nil {
			s.logger.Warn("reminder scan failed; will retry", "err", err, "sent", n)
		} else if n > 0 {
			s.logger.Info("reminders sent", "sent", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(s.interval):
		}
	}
}

// DaysLeft is the whole number of UTC calendar days from now's day to at's day.
func DaysLeft(now, at time.Time) int {
	d := func(t time.Time) time.Time {
		t = t.UTC()
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	}
	return int(d(at).Sub(d(now)).Hours() / 24)
}

// EventAt is an event for a reminder, stamped with the scan's clock (a test's clock makes a
// test's events).
func EventAt(now time.Time, eventType, userID string, data any) (events.Envelope, error) {
	env, err := events.NewEnvelope(eventType, userID, data)
	env.OccurredAt = now.UTC()
	return env, err
}
