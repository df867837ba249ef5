package app

import (
	"context"

	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

const (
	// pageSize bounds one read of a user's notices; a device far behind gets several pages.
	pageSize = 200
	// listSize is how many notices the list returns.
	listSize = 50
)

// Reader reads a user's stored notices.
type Reader interface {
	// After returns the user's notices with a seq above after, oldest first.
	After(ctx context.Context, userID string, after int64, limit int) ([]domain.Notice, error)
	// Latest returns the user's newest notices, newest first.
	Latest(ctx context.Context, userID string, limit int) ([]domain.Notice, error)
	// Position returns the user's newest seq and current wishlist count.
	Position(ctx context.Context, userID string) (seq int64, count int, err error)
}

// Feed is what a device reads: its live stream of notices and the list of its latest ones.
type Feed struct {
	hub     *Hub
	notices Reader
}

// NewFeed serves devices from the hub's wake-ups and the stored notices.
func NewFeed(hub *Hub, notices Reader) *Feed { return &Feed{hub: hub, notices: notices} }

// Latest is the user's latest notices, newest first.
func (f *Feed) Latest(ctx context.Context, userID string) ([]domain.Notice, error) {
	return f.notices.Latest(ctx, userID, listSize)
}

// Cursor is one open stream's place in its user's notices.
type Cursor struct {
	sub    *Subscription
	userID string
	sent   int64
	// behind: PostgreSQL may hold notices above sent that no wake-up will announce (the
	// backlog of a resuming device, the rest of a full page).
	behind bool
	// Count is the user's wishlist count when the stream opened, for the hello.
	Count int
}

// Wake is signalled when Next may have something to send.
func (c *Cursor) Wake() <-chan struct{} { return c.sub.Wake() }

// Gone is closed when the user's account was deleted.
func (c *Cursor) Gone() <-chan struct{} { return c.sub.Gone() }

// OnWake has f called whenever Wake is signalled or Gone closes, for a stream that waits for
// them elsewhere (in a read on its connection, which f interrupts). Wake is signalled as well.
func (c *Cursor) OnWake(f func()) { c.sub.interrupt.Store(&f) }

// Open starts a stream. The order of work is what makes it gap-free: subscribe to the wake-ups
// first, then read the position and the backlog, then on each wake-up send what PostgreSQL
// has above the last seq sent. A notice stored while the backlog is read rings the doorbell,
// so it is sent next; one already in the backlog is not above the last seq sent, so it is not
// sent twice. A fresh device (resuming false) starts from now: the hello count covers the
// past. A resuming one starts after resume, unless resume is above the user's newest seq,
// which cannot be one of theirs (a forged header, a database restored from a backup): then
// from now as well. Close must follow a successful Open.
func (f *Feed) Open(ctx context.Context, userID string, resume int64, resuming bool) (*Cursor, error) {
	sub, err := f.hub.Subscribe(userID)
	if err != nil {
		return nil, err
	}
	latest, count, err := f.notices.Position(ctx, userID)
	if err != nil {
		f.hub.Unsubscribe(sub)
		return nil, err
	}
	c := &Cursor{sub: sub, userID: userID, sent: latest, Count: count}
	if resuming && resume <= latest {
		c.sent = resume
	}
	if c.behind = c.sent < latest; c.behind {
		sub.Ring() // the backlog goes out the same way as live notices
	}
	return c, nil
}

// Next returns what to send after a wake-up, oldest first, and counts it as sent: if sending
// fails the stream ends, and the device resumes from the last id it did receive.
func (f *Feed) Next(ctx context.Context, c *Cursor) ([]domain.Notice, error) {
	recheck := c.sub.recheck.Swap(false)
	if !c.behind && !recheck && c.sub.Latest() <= c.sent {
		return nil, nil // announced again, or already sent
	}
	page, err := f.notices.After(ctx, c.userID, c.sent, pageSize)
	if err != nil {
		return nil, err
	}
	if len(page) > 0 {
		c.sent = page[len(page)-1].Seq
	}
	if c.behind = len(page) == pageSize; c.behind {
		c.sub.Ring()
	}
	return page, nil
}

// Close ends the stream's subscription.
func (f *Feed) Close(c *Cursor) { f.hub.Unsubscribe(c.sub) }
