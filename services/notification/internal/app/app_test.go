package app_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/services/notification/internal/app"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

func rang(s *app.Subscription) bool {
	select {
	case <-s.Wake():
		return true
	default:
		return false
	}
}

func TestHubWakesOnlyTheUsersStreams(t *testing.T) {
	hub := app.NewHub(prometheus.NewRegistry())
	phone, _ := hub.Subscribe("kid")
	tablet, _ := hub.Subscribe("kid")
	other, _ := hub.Subscribe("other-kid")

	hub.Announce("kid", 7)
	hub.Announce("kid", 5) // arrived late: the latest stays 7
	hub.Announce("kid", 9)
	for _, s := range []*app.Subscription{phone, tablet} {
		if !rang(s) || s.Latest() != 9 {
			t.Fatalf("latest %d", s.Latest())
		}
		if rang(s) {
			t.Fatal("three announcements while busy ring once")
		}
	}
	if rang(other) || other.Latest() != 0 {
		t.Fatal("another user's stream was woken")
	}
	hub.Unsubscribe(phone)
	hub.Announce("kid", 10)
	if rang(phone) {
		t.Fatal("a closed stream was woken")
	}
	if !rang(tablet) {
		t.Fatal("the open one was not")
	}
}

func TestHubLimitsStreamsPerUserAndCountsThem(t *testing.T) {
	reg := prometheus.NewRegistry()
	hub := app.NewHub(reg)
	var subs []*app.Subscription
	for i := 0; i < app.MaxStreamsPerUser; i++ {
		s, err := hub.Subscribe("kid")
		if err != nil {
			t.Fatal(err)
		}
		subs = append(subs, s)
	}
	if _, err := hub.Subscribe("kid"); !errors.Is(err, app.ErrTooManyStreams) {
		t.Fatalf("one too many: %v", err)
	}
	if _, err := hub.Subscribe("other-kid"); err != nil {
		t.Fatal(err)
	}
	gauge := func() float64 {
		mfs, _ := reg.Gather()
		for _, mf := range mfs {
			if mf.GetName() == "notification_streams_open" {
				return mf.GetMetric()[0].GetGauge().GetValue()
			}
		}
		return -1
	}
	if g := gauge(); g != app.MaxStreamsPerUser+1 {
		t.Fatalf("gauge %v", g)
	}
	hub.Unsubscribe(subs[0])
	hub.Unsubscribe(subs[0]) // twice is harmless
	if g := gauge(); g != app.MaxStreamsPerUser {
		t.Fatalf("gauge %v", g)
	}
	if _, err := hub.Subscribe("kid"); err != nil {
		t.Fatalf("a freed place: %v", err)
	}
}

type fakeStore struct {
	stored map[string]domain.Notice
	seq    int64
	err    error
}

func (f *fakeStore) Insert(_ context.Context, n domain.Notice) (domain.Notice, bool, error) {
	if f.err != nil {
		return n, false, f.err
	}
	if old, ok := f.stored[n.EventID]; ok {
		return old, false, nil
	}
	f.seq++
	n.Seq = f.seq
	f.stored[n.EventID] = n
	return n, true, nil
}

type announced struct {
	user string
	seq  int64
}

type fakeAnnouncer struct{ got []announced }

func (f *fakeAnnouncer) Announce(userID string, seq int64) error {
	f.got = append(f.got, announced{userID, seq})
	return nil
}

func TestNotifierStoresOnceAndAnnouncesTheStoredSeq(t *testing.T) {
	store := &fakeStore{stored: map[string]domain.Notice{}}
	ann := &fakeAnnouncer{}
	n := app.NewNotifier(store, ann, slog.New(slog.NewTextHandler(io.Discard, nil)))
	env, _ := events.NewEnvelope(events.TypeSantaSent, "kid", map[string]string{"id": "g1", "name": "Kite"})
	for i := 0; i < 2; i++ {
		if err := n.Handle(context.Background(), env); err != nil {
			t.Fatal(err)
		}
	}
	if len(store.stored) != 1 {
		t.Fatalf("%d stored", len(store.stored))
	}
	// Announced again on the redelivery (the first delivery may have died before announcing);
	// with the same seq, which streams have sent already.
	if len(ann.got) != 2 || ann.got[0] != (announced{"kid", 1}) || ann.got[1] != ann.got[0] {
		t.Fatalf("announced %+v", ann.got)
	}
}

func TestNotifierTellsPoisonFromPassingTrouble(t *testing.T) {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	bad, _ := events.NewEnvelope(events.TypeItemCreated, "kid", map[string]string{"id": "i1"})
	n := app.NewNotifier(&fakeStore{stored: map[string]domain.Notice{}}, &fakeAnnouncer{}, logger)
	if err := n.Handle(context.Background(), bad); !errors.Is(err, events.ErrPoison) {
		t.Fatalf("malformed: %v", err)
	}
	good, _ := events.NewEnvelope(events.TypeSantaSent, "kid", map[string]string{"id": "g1"})
	down := app.NewNotifier(&fakeStore{err: errors.New("connection refused")}, &fakeAnnouncer{}, logger)
	if err := down.Handle(context.Background(), good); err == nil || errors.Is(err, events.ErrPoison) {
		t.Fatalf("database away must be retried, not terminated: %v", err)
	}
	reused := app.NewNotifier(&fakeStore{err: domain.ErrMalformed}, &fakeAnnouncer{}, logger)
	if err := reused.Handle(context.Background(), good); !errors.Is(err, events.ErrPoison) {
		t.Fatalf("store says malformed: %v", err)
	}
}

func TestRecheckRingsEveryStreamOnTheReplica(t *testing.T) {
	hub := app.NewHub(prometheus.NewRegistry())
	phone, _ := hub.Subscribe("kid")
	tablet, _ := hub.Subscribe("kid")
	other, _ := hub.Subscribe("other-kid")
	hub.Recheck()
	for _, s := range []*app.Subscription{phone, tablet, other} {
		if !rang(s) {
			t.Fatal("a stream was not rung")
		}
	}
}
