package service_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/notification/internal/adapters"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// A replica's streams hear of new notices through wake-ups, core NATS messages that a replica
// cut off from NATS never receives. The notice itself is stored, so once the replica is back on
// NATS its streams read what they missed.
func TestANoticeStoredWhileAReplicaWasAwayFromNATSReachesItsStreams(t *testing.T) {
	pool, dbURL := testenv.Postgres(t)
	nats := testenv.StartNATS(t)
	replica := start(t, dbURL, nats.URL())
	phone := openStream(t, replica.base, "anna", streamOpts{})
	phone.hello(t, 0)

	nats.Stop()
	// Another replica stores the notice meanwhile; its wake-up reaches no one here.
	data, _ := json.Marshal(map[string]string{"message": domain.SantaMessage})
	stored, _, err := adapters.NewNotices(pool).Insert(context.Background(), domain.Notice{
		EventID: "7a1b2c3d-0000-4000-8000-00000000a1a1", UserID: "anna", Event: domain.EventSanta, Data: data, OccurredAt: time.Now(),
	})
	if err != nil {
		t.Fatal(err)
	}
	nats.Start()

	e := phone.next(t)
	if e.Event != domain.EventSanta || e.seq(t) != stored.Seq {
		t.Fatalf("after the reconnection the phone got %+v, want the santa notice %d", e, stored.Seq)
	}
	phone.nothing(t, 300*time.Millisecond) // read once, sent once
}
