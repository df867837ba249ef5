package adapters

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/lifecycle"
)

// Fan-out across replicas. Each replica's share of the durable consumer sees only some
// events, but a user's devices may be connected to any replica. So the replica that stored a
// notice publishes a small core-NATS message, {userId, seq}, on notify.user.<uid>, and every
// replica, subscribed to notify.user.*, wakes its own streams of that user, which then read
// what is new from PostgreSQL.
//
// Why core NATS and not PostgreSQL LISTEN/NOTIFY: the service already holds a NATS
// connection that reconnects by itself; LISTEN would pin one database connection per replica
// outside the pool (and does not work through a transaction-pooling proxy), and NOTIFY takes a
// database-wide lock at commit. Why no JetStream: the message is only a wake-up call. PostgreSQL
// is the record: a replica that was cut off from NATS has every stream read PostgreSQL once it
// is back (OnReconnect), and a device that reconnects resumes with Last-Event-ID. Because
// streams read from PostgreSQL rather than from the message, messages arriving out of order,
// twice or late never reorder, duplicate or skip a notice.
//
// The subjects are in the environment's events namespace (EVENTS_NAMESPACE: test.notify.user.*),
// so two stacks on one NATS never wake each other's streams.
const fanoutPrefix = "notify.user."

// safeToken is what can stand as one subject token as it is.
var safeToken = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)

// Subject is the subject of one user's wake-up calls. A uid that is not a valid subject
// token (dots, spaces, wildcards) is replaced by its hash: receivers read the uid from the
// message, the subject only makes the traffic readable and filterable.
func (f *Fanout) Subject(userID string) string {
	if safeToken.MatchString(userID) {
		return f.prefix + userID
	}
	sum := sha256.Sum256([]byte(userID))
	return f.prefix + "h" + hex.EncodeToString(sum[:16])
}

// Subjects is what every replica of the namespace subscribes to.
func (f *Fanout) Subjects() string { return f.prefix + "*" }

// Fanout publishes and receives wake-up calls.
type Fanout struct {
	nc     *nats.Conn
	prefix string
}

// NewFanout uses an open connection, in the events namespace ns.
func NewFanout(nc *nats.Conn, ns events.Namespace) *Fanout {
	return &Fanout{nc: nc, prefix: ns.Subject(fanoutPrefix)}
}

type wakeUp struct {
	UserID string `json:"userId"`
	Seq    int64  `json:"seq"`
}

// Announce tells every replica that the user has notices up to seq.
func (f *Fanout) Announce(userID string, seq int64) error {
	raw, err := json.Marshal(wakeUp{UserID: userID, Seq: seq})
	if err != nil {
		return err
	}
	if err := f.nc.Publish(f.Subject(userID), raw); err != nil {
		return fmt.Errorf("announce notice %d: %w", seq, err)
	}
	return nil
}

// Listen calls wake for every announced notice until the subscription is closed. It returns
// once the server has registered the subscription, so nothing announced afterwards is missed
// (waiting for NATS up to lifecycle.StartupWait, or until ctx ends).
func (f *Fanout) Listen(ctx context.Context, wake func(userID string, seq int64)) (*nats.Subscription, error) {
	sub, err := f.nc.Subscribe(f.Subjects(), func(m *nats.Msg) {
		var w wakeUp
		if json.Unmarshal(m.Data, &w) != nil || w.UserID == "" || w.Seq == 0 || w.Seq < -1 {
			return
		}
		wake(w.UserID, w.Seq)
	})
	if err != nil {
		return nil, fmt.Errorf("subscribe %s: %w", f.Subjects(), err)
	}
	// A server that is starting or restarting (a JetStream cluster forming) may not answer the
	// flush in time. The subscription is sent again on every reconnection, so the flush is
	// what to wait for, as for any other dependency at start; a pod that exited on the first
	// timeout went into the crash loop's growing back-off while NATS came up.
	err = lifecycle.Retry(ctx, f.nc.Flush, func(error) bool { return f.nc.IsClosed() })
	if err != nil {
		_ = sub.Unsubscribe()
		return nil, fmt.Errorf("subscribe %s: %w", f.Subjects(), err)
	}
	return sub, nil
}

// OnReconnect calls missed after every reconnection to NATS, once the server holds this
// connection's subscriptions again: wake-ups published while the replica was disconnected
// (its NATS server restarted, or was moved) never reach it, so its streams must look in
// PostgreSQL themselves. The returned stop ends it.
func (f *Fanout) OnReconnect(missed func()) (stop func()) {
	status := f.nc.StatusChanged(nats.CONNECTED)
	go func() {
		for range status { // ends when stop removes the listener, which closes the channel
			// CONNECTED is reported just before the client sends its subscriptions again;
			// a flush returns once the server has processed them, so nothing announced
			// after the streams' reads is missed.
			_ = f.nc.FlushTimeout(5 * time.Second)
			missed()
		}
	}()
	return func() { f.nc.RemoveStatusListener(status) }
}
