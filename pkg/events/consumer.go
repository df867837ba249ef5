package events

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/pkg/lifecycle"
)

// ErrPoison marks an event that can never be handled (bad shape, unknown type). The consumer
// terminates it instead of redelivering it forever.
var ErrPoison = errors.New("poison event")

// Handler handles one event. It must be idempotent: JetStream delivers at least once.
type Handler func(ctx context.Context, env Envelope) error

// ConsumerConfig describes one durable consumer.
type ConsumerConfig struct {
	Durable string
	// Subjects filters the events; more than one needs NATS 2.10 or newer.
	Subjects []string
	// BackOff lists the waits between redeliveries; its length+1 bounds the attempts.
	BackOff []time.Duration
	AckWait time.Duration
}

// ConsumerMetrics are shared by every consumer of a service.
type ConsumerMetrics struct {
	Pending   *prometheus.GaugeVec
	Processed *prometheus.CounterVec
}

// NewConsumerMetrics registers events_consumer_pending and events_processed_total.
func NewConsumerMetrics(reg prometheus.Registerer) *ConsumerMetrics {
	m := &ConsumerMetrics{
		Pending: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "events_consumer_pending", Help: "Events not yet delivered or not yet acked (consumer lag).",
		}, []string{"consumer"}),
		Processed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "events_processed_total", Help: "Events handled, by outcome (ok, retry, poison).",
		}, []string{"consumer", "result"}),
	}
	reg.MustRegister(m.Pending, m.Processed)
	return m
}

// Consumer is a running durable consumer.
type Consumer struct {
	cc     jetstream.ConsumeContext
	cancel context.CancelFunc
	done   chan struct{}
}

// Stop stops taking new messages and waits for the lag reporter; a message being handled
// finishes first (Drain).
func (c *Consumer) Stop() {
	c.cc.Drain()
	c.cancel()
	<-c.done
}

// Consume starts a durable pull consumer on the product stream of js's namespace; the
// durable's name and the subjects are taken into the namespace too.
func Consume(ctx context.Context, js jetstream.JetStream, cfg ConsumerConfig, handle Handler, logger *slog.Logger, m *ConsumerMetrics) (*Consumer, error) {
	ns := NamespaceOf(js)
	cfg.Durable = ns.Durable(cfg.Durable)
	subjects := make([]string, len(cfg.Subjects))
	for i, s := range cfg.Subjects {
		subjects[i] = ns.Subject(s)
	}
	cfg.Subjects = subjects
	if len(cfg.BackOff) == 0 {
		cfg.BackOff = []time.Duration{time.Second, 5 * time.Second, 30 * time.Second, 2 * time.Minute}
	}
	if cfg.AckWait == 0 {
		cfg.AckWait = 30 * time.Second
	}
	if err := EnsureStreamAtStartup(ctx, js); err != nil {
		return nil, err
	}
	consumerCfg := jetstream.ConsumerConfig{
		Durable:       cfg.Durable,
		AckPolicy:     jetstream.AckExplicitPolicy,
		DeliverPolicy: jetstream.DeliverAllPolicy,
		AckWait:       cfg.AckWait,
		MaxDeliver:    len(cfg.BackOff) + 1,
		BackOff:       cfg.BackOff,
	}
	// NATS 2.9 (Debian's) knows only a single filter subject; several need 2.10. No subjects
	// means every event of the stream.
	switch len(cfg.Subjects) {
	case 0:
	case 1:
		consumerCfg.FilterSubject = cfg.Subjects[0]
	default:
		consumerCfg.FilterSubjects = cfg.Subjects
	}
	var cons jetstream.Consumer
	err := lifecycle.Retry(ctx, func() (err error) {
		cons, err = js.CreateOrUpdateConsumer(ctx, ns.Stream(), consumerCfg)
		return err
	}, RefusedForGood)
	if err != nil {
		return nil, fmt.Errorf("create consumer %s: %w", cfg.Durable, err)
	}
	log := logger.With("consumer", cfg.Durable)
	processed := func(result string) {
		if m != nil {
			m.Processed.WithLabelValues(cfg.Durable, result).Inc()
		}
	}
	cc, err := cons.Consume(func(msg jetstream.Msg) {
		var env Envelope
		if err := json.Unmarshal(msg.Data(), &env); err != nil || env.Validate() != nil {
			log.Error("terminating malformed event", "subject", msg.Subject(), "err", errors.Join(err, env.Validate()))
			_ = msg.Term()
			processed("poison")
			return
		}
		hctx, cancel := context.WithTimeout(context.Background(), cfg.AckWait)
		err := handle(hctx, env)
		cancel()
		switch {
		case err == nil:
			if ackErr := msg.DoubleAck(context.Background()); ackErr != nil {
				log.Warn("ack failed; the event will be redelivered and handled idempotently", "event_id", env.ID, "err", ackErr)
			}
			processed("ok")
		case errors.Is(err, ErrPoison):
			log.Error("terminating poison event", "event_id", env.ID, "type", env.Type, "err", err)
			_ = msg.Term()
			processed("poison")
		default:
			meta, _ := msg.Metadata()
			attempt := uint64(0)
			if meta != nil {
				attempt = meta.NumDelivered
			}
			log.Warn("event handling failed; will retry with back-off", "event_id", env.ID, "attempt", attempt, "err", err)
			// The server applies BackOff to redeliveries after an ack timeout, but redelivers a
			// plain Nak at once (all attempts could be spent in milliseconds), so the delay is
			// given explicitly: BackOff[attempt-1], the last one repeated.
			_ = msg.NakWithDelay(cfg.BackOff[min(max(int(attempt), 1), len(cfg.BackOff))-1])
			processed("retry")
		}
	},
		// With BackOff set, the server uses BackOff[0] as the ack wait: a large client-side
		// buffer would let buffered messages expire and be redelivered while still waiting.
		jetstream.PullMaxMessages(16),
		jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
			log.Debug("consume", "err", err)
		}))
	if err != nil {
		return nil, fmt.Errorf("consume %s: %w", cfg.Durable, err)
	}

	lagCtx, cancel := context.WithCancel(context.Background())
	c := &Consumer{cc: cc, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(c.done)
		reportLag(lagCtx, cons, cfg.Durable, m)
	}()
	return c, nil
}

func reportLag(ctx context.Context, cons jetstream.Consumer, name string, m *ConsumerMetrics) {
	if m == nil {
		<-ctx.Done()
		return
	}
	tick := time.NewTicker(2 * time.Second)
	defer tick.Stop()
	for {
		infoCtx, cancel := context.WithTimeout(ctx, time.Second)
		if info, err := cons.Info(infoCtx); err == nil {
			m.Pending.WithLabelValues(name).Set(float64(info.NumPending + uint64(info.NumAckPending)))
		}
		cancel()
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
