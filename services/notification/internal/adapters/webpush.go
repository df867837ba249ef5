package adapters

import (
	"bytes"
	"context"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"regexp"
	"strings"
	"time"

	"code.dny.dev/ssrf"
	webpush "github.com/SherClockHolmes/webpush-go"

	"github.com/santa-wishlist/santa/pkg/safedial"
	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// VAPID is the application server's key pair (RFC 8292), base64url, and the contact the push
// services are given in its JWT (a mailto: or https: URL).
type VAPID struct {
	PublicKey, PrivateKey, Subject string
}

// ParseVAPIDKey reads the VAPID private key as it is given (VAPID_PRIVATE_KEY): the raw P-256
// scalar in base64url (what webpush-go makes), or a DER key in base64, SEC1 or PKCS#8, PEM
// armour and line breaks allowed (what Helm's genPrivateKey "ecdsa" makes). It returns the
// VAPID key pair in the raw base64url form browsers and webpush-go use.
func ParseVAPIDKey(s string) (VAPID, error) {
	s = pemArmour.ReplaceAllString(s, "")
	s = strings.Join(strings.Fields(s), "")
	var d []byte
	if raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "=")); err == nil && len(raw) == 32 {
		d = raw
	} else if der, err := base64.StdEncoding.DecodeString(s); err == nil {
		var key any
		if k, err := x509.ParseECPrivateKey(der); err == nil {
			key = k
		} else if key, err = x509.ParsePKCS8PrivateKey(der); err != nil {
			return VAPID{}, errors.New("VAPID_PRIVATE_KEY is neither a raw P-256 key nor a DER EC key")
		}
		ec, ok := key.(*ecdsa.PrivateKey)
		if !ok || ec.Curve != elliptic.P256() {
			return VAPID{}, errors.New("VAPID_PRIVATE_KEY must be a P-256 key")
		}
		if d, err = ec.Bytes(); err != nil {
			return VAPID{}, err
		}
	} else {
		return VAPID{}, errors.New("VAPID_PRIVATE_KEY is not base64")
	}
	priv, err := ecdh.P256().NewPrivateKey(d)
	if err != nil {
		return VAPID{}, fmt.Errorf("VAPID_PRIVATE_KEY: %w", err)
	}
	return VAPID{PrivateKey: base64.RawURLEncoding.EncodeToString(d),
		PublicKey: base64.RawURLEncoding.EncodeToString(priv.PublicKey().Bytes())}, nil
}

var pemArmour = regexp.MustCompile(`-----[A-Z ]+-----`)

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
func (w *WebPush) Send(ctx context.Context, sub domain.Subscription, p domain.Push) domain.PushResult {
	payload, err := json.Marshal(p.Message)
	if err != nil {
		return domain.PushResult{Outcome: domain.PushRejected, Err: err}
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
		return domain.PushResult{Outcome: domain.PushRejected, Err: err}
	}
	if err != nil {
		// The network, a timeout: worth another try later.
		return domain.PushResult{Outcome: domain.PushRetry, Err: err}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	err = fmt.Errorf("push service answered %d: %s", resp.StatusCode, bytes.TrimSpace(body))
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return domain.PushResult{Outcome: domain.PushSent}
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		return domain.PushResult{Outcome: domain.PushGone, Err: err}
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		return domain.PushResult{Outcome: domain.PushRetry, Err: err}
	default: // 400, 401/403 (our keys), 413: another try would be answered the same
		return domain.PushResult{Outcome: domain.PushRejected, Err: err}
	}
}
