package service_test

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// pushService is a local push service (RFC 8030) as a browser vendor runs one: devices
// subscribe to it, the application server POSTs encrypted messages to their endpoints. It
// decrypts each message (RFC 8291, aes128gcm) with the device's keys and checks the VAPID
// authorisation (RFC 8292), so a test sees what a device would show.
type pushService struct {
	t      *testing.T
	srv    *httptest.Server
	vapid  string // the application server's public key every push must be signed with
	mu     sync.Mutex
	dev    map[string]*device
	answer map[string][]int // status codes a device's endpoint answers next, in order
}

// device is one browser's subscription: its ECDH key pair and auth secret.
type device struct {
	id       string
	priv     *ecdh.PrivateKey
	auth     []byte
	received []received
	posts    int
}

// received is one push as the device decrypted it, with the headers it came with.
type received struct {
	Message map[string]any
	TTL     int
	Urgency string
	Topic   string
	Subject string
}

func newPushService(t *testing.T, vapidPublicKey string) *pushService {
	t.Helper()
	ps := &pushService{t: t, vapid: vapidPublicKey, dev: map[string]*device{}, answer: map[string][]int{}}
	ps.srv = httptest.NewServer(http.HandlerFunc(ps.serve))
	t.Cleanup(ps.srv.Close)
	return ps
}

// addr is the service's address, to allow in the notification service's configuration.
func (ps *pushService) addr() netip.AddrPort {
	return netip.MustParseAddrPort(strings.TrimPrefix(ps.srv.URL, "http://"))
}

// subscribe makes a device, as pushManager.subscribe() would.
func (ps *pushService) subscribe() *device {
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		ps.t.Fatal(err)
	}
	d := &device{id: strconv.Itoa(len(ps.dev)+1) + "-" + base64.RawURLEncoding.EncodeToString(priv.PublicKey().Bytes()[1:9]), priv: priv, auth: make([]byte, 16)}
	_, _ = rand.Read(d.auth)
	ps.mu.Lock()
	ps.dev[d.id] = d
	ps.mu.Unlock()
	return d
}

func (ps *pushService) endpoint(d *device) string { return ps.srv.URL + "/push/" + d.id }

// subscription is the device's PushSubscription.toJSON().
func (ps *pushService) subscription(d *device) map[string]any {
	return map[string]any{"endpoint": ps.endpoint(d), "keys": map[string]string{
		"p256dh": base64.RawURLEncoding.EncodeToString(d.priv.PublicKey().Bytes()),
		"auth":   base64.RawURLEncoding.EncodeToString(d.auth)}}
}

// answerNext makes the device's endpoint answer these statuses to its next pushes.
func (ps *pushService) answerNext(d *device, statuses ...int) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.answer[d.id] = append(ps.answer[d.id], statuses...)
}

// inbox is what the device received so far, and how many POSTs reached its endpoint.
func (ps *pushService) inbox(d *device) ([]received, int) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return append([]received(nil), d.received...), d.posts
}

func (ps *pushService) serve(w http.ResponseWriter, r *http.Request) {
	id, ok := strings.CutPrefix(r.URL.Path, "/push/")
	ps.mu.Lock()
	d := ps.dev[id]
	ps.mu.Unlock()
	if r.Method != http.MethodPost || !ok || d == nil {
		http.Error(w, "no such subscription", http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(r.Body)
	ps.mu.Lock()
	d.posts++
	var status int
	if q := ps.answer[id]; len(q) > 0 {
		status, ps.answer[id] = q[0], q[1:]
	}
	ps.mu.Unlock()
	if status != 0 {
		http.Error(w, "as the test asked", status)
		return
	}
	msg, err := ps.check(r, d, body)
	if err != nil {
		// A test failure, and a 400 so the sender does not retry a push it got wrong.
		ps.t.Errorf("push to %s: %v", id, err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	ps.mu.Lock()
	d.received = append(d.received, msg)
	ps.mu.Unlock()
	w.Header().Set("Location", ps.srv.URL+"/message/"+id)
	w.WriteHeader(http.StatusCreated)
}

// check validates a push request the way a push service and the browser do.
func (ps *pushService) check(r *http.Request, d *device, body []byte) (received, error) {
	var out received
	ttl, err := strconv.Atoi(r.Header.Get("TTL"))
	if err != nil || ttl < 0 {
		return out, fmt.Errorf("TTL header %q", r.Header.Get("TTL"))
	}
	out.TTL, out.Urgency, out.Topic = ttl, r.Header.Get("Urgency"), r.Header.Get("Topic")
	switch out.Urgency {
	case "", "very-low", "low", "normal", "high":
	default:
		return out, fmt.Errorf("urgency %q", out.Urgency)
	}
	if len(out.Topic) > 32 || strings.Trim(out.Topic, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
		return out, fmt.Errorf("topic %q is not at most 32 base64url characters", out.Topic)
	}
	if r.Header.Get("Content-Encoding") != "aes128gcm" {
		return out, fmt.Errorf("content encoding %q", r.Header.Get("Content-Encoding"))
	}
	sub, err := ps.checkVAPID(r.Header.Get("Authorization"))
	if err != nil {
		return out, fmt.Errorf("VAPID: %w", err)
	}
	out.Subject = sub
	plain, err := decrypt(d, body)
	if err != nil {
		return out, fmt.Errorf("decrypt: %w", err)
	}
	if err := json.Unmarshal(plain, &out.Message); err != nil {
		return out, fmt.Errorf("payload is not JSON: %q", plain)
	}
	return out, nil
}

// checkVAPID verifies "vapid t=<JWT>, k=<public key>" (RFC 8292): the key is the application
// server's, the JWT is ES256-signed by it, for this push service's origin, not expired and
// at most a day long, with a contact.
func (ps *pushService) checkVAPID(h string) (string, error) {
	rest, ok := strings.CutPrefix(h, "vapid ")
	if !ok {
		return "", fmt.Errorf("authorization %q is not vapid", h)
	}
	var token, key string
	for _, part := range strings.Split(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			token = v
		case "k":
			key = v
		}
	}
	if key != strings.TrimRight(ps.vapid, "=") {
		return "", fmt.Errorf("k=%q is not the server's key", key)
	}
	raw, err := base64.RawURLEncoding.DecodeString(key)
	if err != nil {
		return "", err
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
	if err != nil {
		return "", err
	}
	claims := jwt.MapClaims{}
	_, err = jwt.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return pub, nil },
		jwt.WithValidMethods([]string{"ES256"}), jwt.WithAudience(ps.srv.URL), jwt.WithExpirationRequired())
	if err != nil {
		return "", err
	}
	exp, _ := claims.GetExpirationTime()
	if exp.After(time.Now().Add(24 * time.Hour)) {
		return "", errors.New("the JWT is valid for more than 24 hours")
	}
	sub, _ := claims.GetSubject()
	if !strings.HasPrefix(sub, "mailto:") && !strings.HasPrefix(sub, "https:") {
		return "", fmt.Errorf("sub %q is no contact", sub)
	}
	return sub, nil
}

// decrypt reads an aes128gcm body (RFC 8188) keyed as RFC 8291 says, with the device's keys.
func decrypt(d *device, body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("too short")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if idlen != 65 || len(body) < 21+idlen {
		return nil, fmt.Errorf("key id of %d bytes", idlen)
	}
	asPublic, ciphertext := body[21:21+idlen], body[21+idlen:]
	if uint32(len(ciphertext)) > rs {
		return nil, errors.New("more than one record")
	}
	asKey, err := ecdh.P256().NewPublicKey(asPublic)
	if err != nil {
		return nil, err
	}
	secret, err := d.priv.ECDH(asKey)
	if err != nil {
		return nil, err
	}
	uaPublic := d.priv.PublicKey().Bytes()
	keyInfo := append(append([]byte("WebPush: info\x00"), uaPublic...), asPublic...)
	ikm, err := hkdf.Key(sha256.New, secret, d.auth, string(keyInfo), 32)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, ciphertext, nil)
	if err != nil {
		return nil, err
	}
	plain = bytes.TrimRight(plain, "\x00")
	if len(plain) == 0 || plain[len(plain)-1] != 2 {
		return nil, errors.New("the last record's delimiter is missing")
	}
	return plain[:len(plain)-1], nil
}
