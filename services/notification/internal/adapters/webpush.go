package adapters

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"code.dny.dev/ssrf"
	webpush "github.com/SherClockHolmes/webpush-go"

	"github.com/santa-wishlist/santa/pkg/safedial"
	"github.com/santa-wishlist/santa/services/notification/internal/app"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// VAPID is the application server's key pair (RFC 8292), base64url, and the contact the push
// services are given in its JWT (a mailto: or https: URL).
type VAPID struct {
	PublicKey, PrivateKey, Subject string
}

// WebPush sends RFC 8291 encrypted pushes through the SSRF-safe dialer.
type WebPush struct {
	vapid  VAPID
	client *http.Client
}

// NewWebPush builds the sender; allow are the address:port pairs of local push services that
// may be reached although they are not on the internet.
func NewWebPush(vapid VAPID, allow []netip.AddrPort) *WebPush {
	const timeout = 10 * time.Second
	transport := &http.Transport{
		Proxy:                 nil, // an environment proxy would dial for us, unchecked
		DialContext:           safedial.Dialer(timeout, allow).DialContext,
		TLSHandshakeTimeout:   timeout,
		ResponseHeaderTimeout: timeout,
		MaxIdleConnsPerHost:   4,
	}
	// webpush-go writes "mailto:" before any subject that is not an https: URL.
	vapid.Subject = strings.TrimPrefix(vapid.Subject, "mailto:")
	return &WebPush{vapid: vapid, client: &http.Client{Transport: transport, Timeout: timeout,
		// A push service answers; it does not redirect. Following one would POST elsewhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// Send pushes one message to one device and says what came of it.
func (w *WebPush) Send(ctx context.Context, sub domain.Subscription, p domain.Push) app.PushResult {
	payload, err := json.Marshal(p.Message)
	if err != nil {
		return app.PushResult{Outcome: app.PushRejected, Err: err}
	}
	resp, err := webpush.SendNotificationWithContext(ctx, payload, &webpush.Subscription{Endpoint: sub.Endpoint,
		Keys: webpush.Keys{P256dh: sub.P256dh, Auth: sub.Auth}}, &webpush.Options{
		HTTPClient:      w.client,
		Subscriber:      w.vapid.Subject,
		VAPIDPublicKey:  w.vapid.PublicKey,
		VAPIDPrivateKey: w.vapid.PrivateKey,
		TTL:             int(p.TTL / time.Second),
		Urgency:         webpush.Urgency(p.Urgency),
		Topic:           p.Topic,
	})
	if errors.Is(err, ssrf.ErrProhibitedIP) || errors.Is(err, ssrf.ErrProhibitedNetwork) || errors.Is(err, ssrf.ErrProhibitedPort) ||
		errors.Is(err, ssrf.ErrInvalidHostPort) {
		// The endpoint's name leads inside: no later try will be let through either.
		return app.PushResult{Outcome: app.PushRejected, Err: err}
	}
	if err != nil {
		// The network, a timeout: worth another try later.
		return app.PushResult{Outcome: app.PushRetry, Err: err}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	err = fmt.Errorf("push service answered %d: %s", resp.StatusCode, bytes.TrimSpace(body))
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return app.PushResult{Outcome: app.PushSent}
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		return app.PushResult{Outcome: app.PushGone, Err: err}
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		return app.PushResult{Outcome: app.PushRetry, Err: err}
	default: // 400, 401/403 (our keys), 413: another try would be answered the same
		return app.PushResult{Outcome: app.PushRejected, Err: err}
	}
}
