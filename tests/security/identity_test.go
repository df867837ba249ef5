//go:build security

package security

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/events"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

// stackKey reads one entry of the stack's identity keys ($SANTA_STATE_DIR/identity.env).
func stackKey(t *testing.T, name string) string {
	f, err := os.Open(filepath.Join(env(t, "SANTA_STATE_DIR"), "identity.env"))
	if err != nil {
		t.Fatalf("the stack's identity keys: %v", err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), name+"="); ok {
			return v
		}
	}
	t.Fatalf("no %s in identity.env", name)
	return ""
}

// Forged internal requests, straight to each service's port: a forged
// X-User-Id without an assertion, with one signed by an attacker's key, with the gateway's key
// but for another service, and expired, are all 401; only the gateway's valid assertion for
// that service is answered. Every service listens on 127.0.0.1 only.
func TestForgedInternalRequests(t *testing.T) {
	base, err := url.Parse(env(t, "SANTA_E2E_URL"))
	if err != nil {
		t.Fatal(err)
	}
	port, _ := strconv.Atoi(base.Port())
	gateway, err := auth.NewIdentitySigner("gateway", stackKey(t, "IDENTITY_KEY_gateway"), 0)
	if err != nil {
		t.Fatal(err)
	}
	attacker := testenv.IdentitySigner("attacker")
	forgedAsGateway, err := auth.NewIdentitySigner("gateway", testenv.IdentitySigningKey("attacker"), 0)
	if err != nil {
		t.Fatal(err)
	}
	victim := auth.User{UID: "victim-" + testenv.RandomHex(4)}
	sign := func(s *auth.IdentitySigner, aud, method, path string) string {
		tok, err := s.Assert(victim, true, aud, method, path)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	for i, svc := range []struct{ name, method, path, body string }{
		{"wishlist", http.MethodGet, "/api/wishlist", ""},
		{"vision", http.MethodPost, "/api/lookup/barcode", `{"code":"4006381333931"}`},
		{"media", http.MethodGet, "/media/items/unattached/00000000000000000000000000000000.jpg", ""},
		{"notification", http.MethodGet, "/api/notifications", ""},
		{"family", http.MethodGet, "/api/families", ""},
	} {
		addr := "127.0.0.1:" + strconv.Itoa(port+1+i)
		call := func(header ...string) answer {
			var body *strings.Reader
			if svc.body != "" {
				body = strings.NewReader(svc.body)
			} else {
				body = strings.NewReader("")
			}
			req, _ := http.NewRequest(svc.method, "http://"+addr+svc.path, body)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(auth.HeaderUserID, victim.UID)
			for i := 0; i+1 < len(header); i += 2 {
				req.Header.Set(header[i], header[i+1])
			}
			return do(t, req)
		}
		other := "family"
		if svc.name == "family" {
			other = "wishlist"
		}
		for _, tc := range []struct {
			what string
			a    answer
		}{
			{"forged X-User-Id, no assertion", call()},
			{"assertion signed by an attacker's key", call(auth.HeaderIdentity, sign(attacker, svc.name, svc.method, svc.path))},
			{"attacker's key claiming to be the gateway", call(auth.HeaderIdentity, sign(forgedAsGateway, svc.name, svc.method, svc.path))},
			{"the gateway's assertion for " + other, call(auth.HeaderIdentity, sign(gateway, other, svc.method, svc.path))},
			{"the gateway's assertion, expired", call(auth.HeaderIdentity, sign(gateway.WithTTL(-time.Minute), svc.name, svc.method, svc.path))},
			// Captured inside the cluster on its way to another route (DELETE /api/account).
			{"the gateway's assertion for DELETE /api/account, replayed", call(auth.HeaderIdentity, sign(gateway, svc.name, http.MethodDelete, "/api/account"))},
		} {
			say("%s %s %s%s with %s -> %d %s", svc.name, svc.method, addr, svc.path, tc.what, tc.a.status, tc.a.code)
			if tc.a.status != http.StatusUnauthorized {
				t.Errorf("%s: %s answered %d, want 401", svc.name, tc.what, tc.a.status)
			}
		}
		valid := call(auth.HeaderIdentity, sign(gateway, svc.name, svc.method, svc.path))
		say("%s %s %s%s with the gateway's valid assertion -> %d %s", svc.name, svc.method, addr, svc.path, valid.status, valid.code)
		if valid.status == http.StatusUnauthorized || valid.status >= 500 {
			t.Errorf("%s: a valid assertion answered %d", svc.name, valid.status)
		}
		// Only loopback: the port is not open on the machine's other addresses.
		if ip := outboundIP(); ip != "" {
			c, err := net.DialTimeout("tcp", ip+":"+strconv.Itoa(port+1+i), time.Second)
			say("%s on %s:%d (not loopback) -> %v", svc.name, ip, port+1+i, map[bool]string{true: "refused", false: "OPEN"}[err != nil])
			if err == nil {
				c.Close()
				t.Errorf("%s listens on %s, not only on 127.0.0.1", svc.name, ip)
			}
		}
	}
}

// outboundIP is this machine's address on its network, if it has one besides loopback.
func outboundIP() string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String()
		}
	}
	return ""
}

// Storage quota exhaustion: one user uploads small photos until the
// quota (the test stack's MEDIA_QUOTA_IMAGES, 20) is full; the next upload, and a photo item
// through the wishlist, are a 409 storage_quota_exceeded, and another user is unaffected.
func TestStorageQuotaExhaustion(t *testing.T) {
	base := env(t, "SANTA_E2E_URL")
	quota := 20
	if v := os.Getenv("SANTA_MEDIA_QUOTA_IMAGES"); v != "" {
		quota, _ = strconv.Atoi(v)
	}
	token := testenv.SignUp(t, testenv.UniqueEmail("hoarder"), "secret123", "").IDToken
	photo := smallJPEG(t)
	counts := map[string]int{}
	for i := 0; i < quota; i++ {
		a := upload(t, base, token, "gift.jpg", photo)
		counts[fmt.Sprintf("%d %s", a.status, a.code)]++
	}
	time.Sleep(2500 * time.Millisecond) // past the per-user upload rate's burst
	next := upload(t, base, token, "one-more.jpg", photo)
	time.Sleep(2500 * time.Millisecond)
	req, _ := http.NewRequest(http.MethodPost, base+"/api/wishlist", strings.NewReader(`{"name":"Kite","description":"A red kite","imageUrl":"data:image/jpeg;base64,`+base64.StdEncoding.EncodeToString(photo)+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	item := do(t, req)
	other := upload(t, base, testenv.SignUp(t, testenv.UniqueEmail("neighbour"), "secret123", "").IDToken, "mine.jpg", photo)
	say("%d uploads by one user (quota %d) -> %v; then one more -> %d %s; a photo item -> %d %s; another user's upload -> %d",
		quota, quota, counts, next.status, next.code, item.status, item.code, other.status)
	if counts["201 "] != quota {
		t.Errorf("the first %d uploads: %v, want all 201", quota, counts)
	}
	if next.status != http.StatusConflict || next.code != "storage_quota_exceeded" {
		t.Errorf("upload past the quota: %d %s, want 409 storage_quota_exceeded", next.status, next.code)
	}
	if item.status != http.StatusConflict || item.code != "storage_quota_exceeded" {
		t.Errorf("photo item past the quota: %d %s, want 409 storage_quota_exceeded", item.status, item.code)
	}
	if other.status != http.StatusCreated {
		t.Errorf("another user's upload: %d", other.status)
	}
}

func smallJPEG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Forged events on the stack's NATS: nobody connects without a password,
// and a service's user (media's) may not publish another service's event such as a forged
// item.deleted; the wishlist's user may.
func TestForgedEventsOnTheBroker(t *testing.T) {
	mediaURL, wishlistURL := env(t, "SANTA_NATS_MEDIA_URL"), env(t, "SANTA_NATS_WISHLIST_URL")
	u, err := url.Parse(mediaURL)
	if err != nil {
		t.Fatal(err)
	}
	anon, err := nats.Connect("nats://"+u.Host, nats.Timeout(2*time.Second))
	say("NATS %s without a password -> %v", u.Host, err)
	if err == nil {
		anon.Close()
		t.Error("the stack's NATS accepts connections without a password")
	}
	subject := "test." + events.TypeItemDeleted
	publish := func(who, natsURL string) error {
		nc, err := nats.Connect(natsURL, nats.Timeout(2*time.Second))
		if err != nil {
			return err
		}
		defer nc.Close()
		js, err := jetstream.New(nc)
		if err != nil {
			return err
		}
		envlp, err := events.NewEnvelope(events.TypeItemDeleted, "nobody-"+testenv.RandomHex(4), map[string]any{
			"id": "00000000-0000-4000-8000-" + testenv.RandomHex(6), "name": "Forged", "imageUrl": "", "wishlistCount": 0})
		if err != nil {
			return err
		}
		payload, _ := json.Marshal(envlp)
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		_, err = js.Publish(ctx, subject, payload)
		return err
	}
	forged := publish("media", mediaURL)
	say("publish %s as media's NATS user -> %v", subject, forged)
	if forged == nil {
		t.Error("media's NATS user may publish item.deleted")
	}
	own := publish("wishlist", wishlistURL)
	say("publish %s as the wishlist's NATS user -> %v", subject, own)
	if own != nil {
		t.Errorf("the wishlist's own event was refused: %v", own)
	}
}
