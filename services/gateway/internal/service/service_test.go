package service_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/auth/firebaseauth"
	"github.com/santa-wishlist/santa/pkg/config"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/gateway/internal/ports"
	"github.com/santa-wishlist/santa/services/gateway/internal/service"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// upstream stands in for an internal service at its HTTP boundary and records what the
// gateway forwarded.
type upstream struct {
	mu       sync.Mutex
	requests []*http.Request
	server   *httptest.Server
}

func newUpstream(t *testing.T) *upstream {
	u := &upstream{}
	u.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		u.mu.Lock()
		u.requests = append(u.requests, r)
		n := len(u.requests)
		u.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte(`{"id":"item-` + strings.Repeat("x", n) + `","user":"` + assertedUID(r) + `"}`))
			return
		}
		_, _ = w.Write([]byte(`[]`))
	}))
	t.Cleanup(u.server.Close)
	return u
}

func (u *upstream) calls() []*http.Request {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]*http.Request(nil), u.requests...)
}

type gateway struct {
	t    *testing.T
	base string
}

func startGateway(t *testing.T, up *upstream, limits ports.RateLimits, webDir string) *gateway {
	t.Helper()
	for k, v := range map[string]string{
		"FIREBASE_AUTH_EMULATOR_HOST": testenv.AuthEmulatorHost(), "ALLOW_AUTH_EMULATOR": "true",
		"REDIS_URL": testenv.RedisURL(), "REDIS_KEY_PREFIX": "test-" + testenv.RandomHex(6),
		"FIREBASE_PROJECT_ID": testenv.FirebaseProject, "WISHLIST_URL": up.server.URL,
		"MEDIA_URL": up.server.URL, "FAMILY_URL": up.server.URL, "WEB_DIR": webDir,
		"IDENTITY_SIGNING_KEY": testenv.IdentitySigningKey("gateway"),
	} {
		t.Setenv(k, v)
	}
	env := config.New()
	cfg := service.LoadConfig(env)
	if err := env.Err(); err != nil {
		t.Fatal(err)
	}
	cfg.Server = httpserver.Options{Service: "gateway", Addr: "127.0.0.1:0"}
	cfg.Limits = limits
	base, _ := testenv.Serve(t, func(ctx context.Context) (*httpserver.Server, error) { return service.Build(ctx, cfg, quiet) })
	return &gateway{t: t, base: base}
}

// client calls the gateway with token ("" for a visitor).
func (g *gateway) client(token string) *testenv.Client {
	c := testenv.NewClient(g.t, g.base)
	if token != "" {
		c.Header.Set("Authorization", "Bearer "+token)
	}
	return c
}

func (g *gateway) do(method, path, token string, body io.Reader, headers ...string) testenv.Response {
	g.t.Helper()
	return g.client(token).Do(method, path, body, append([]string{"Content-Type", "application/json"}, headers...)...)
}

var roomy = ports.RateLimits{PerIP: 10000, PerUser: 10000}

func TestTokensAreVerified(t *testing.T) {
	up := newUpstream(t)
	g := startGateway(t, up, roomy, "")
	user := testenv.SignUp(t, testenv.UniqueEmail("token"), "secret123", "Mrs Claus")

	cases := map[string]struct {
		token string
		code  string
	}{
		"no token":         {"", "unauthenticated"},
		"garbage token":    {"not.a.token", "invalid_token"},
		"another project":  {testenv.UnsignedToken(user.UID, "someone-elses-project", time.Now().Add(time.Hour)), "invalid_token"},
		"expired token":    {testenv.UnsignedToken(user.UID, testenv.FirebaseProject, time.Now().Add(-time.Hour)), "token_expired"},
		"malformed header": {"", "invalid_token"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			headers := []string{}
			if name == "malformed header" {
				headers = []string{"Authorization", "Basic dXNlcjpwYXNz"}
			}
			resp := g.do("GET", "/api/wishlist", tc.token, nil, headers...)
			body := string(resp.Body)
			if resp.Status != http.StatusUnauthorized || !strings.Contains(body, `"code":"`+tc.code+`"`) {
				t.Fatalf("got %d %s, want 401 %s", resp.Status, body, tc.code)
			}
		})
	}
	if n := len(up.calls()); n != 0 {
		t.Fatalf("%d unauthenticated requests reached the wishlist", n)
	}

	// A real emulator token passes; the upstream sees the verified uid, never the client's
	// claim or the raw token.
	resp := g.do("GET", "/api/wishlist", user.IDToken, nil, auth.HeaderUserID, "spoofed-uid")
	if resp.Status != http.StatusOK {
		t.Fatalf("valid token: %d %s", resp.Status, string(resp.Body))
	}
	calls := up.calls()
	if len(calls) != 1 {
		t.Fatalf("%d upstream calls", len(calls))
	}
	got := calls[0].Header
	asserted, issuer, err := testenv.AssertedUser(calls[0], "wishlist")
	if err != nil || issuer != "gateway" || asserted.UID != user.UID || asserted.Name != "Mrs Claus" ||
		got.Get(auth.HeaderUserID) != "" || got.Get("Authorization") != "" || got.Get("X-Real-IP") != "127.0.0.1" {
		t.Fatalf("forwarded headers: %v (asserted %+v by %q: %v)", got, asserted, issuer, err)
	}
	// The assertion is for the wishlist only: another service would refuse it.
	if _, _, err := testenv.AssertedUser(calls[0], "family"); err == nil {
		t.Fatal("the wishlist's assertion is accepted by the family service too")
	}
}

func TestOversizedBodiesAre413(t *testing.T) {
	up := newUpstream(t)
	g := startGateway(t, up, roomy, "")
	user := testenv.SignUp(t, testenv.UniqueEmail("big"), "secret123", "")
	huge := bytes.Repeat([]byte("a"), ports.PhotoBodyLimit+1)

	resp := g.do("POST", "/api/wishlist", user.IDToken, bytes.NewReader(huge))
	if resp.Status != http.StatusRequestEntityTooLarge || !strings.Contains(string(resp.Body), "too_large") {
		t.Fatalf("declared length: %d", resp.Status)
	}
	// Without a declared length (chunked), the limit still holds.
	resp = g.do("POST", "/api/wishlist", user.IDToken, io.MultiReader(bytes.NewReader(huge)))
	if resp.Status != http.StatusRequestEntityTooLarge {
		t.Fatalf("chunked: %d %s", resp.Status, string(resp.Body))
	}
	// A JSON-only route has a small limit, refused in the words the services use for the same
	// limit (httpserver.DecodeJSON), so it does not matter which of the two refuses.
	resp = g.do("DELETE", "/api/wishlist/x", user.IDToken, bytes.NewReader(bytes.Repeat([]byte("a"), ports.SmallBodyLimit+1)))
	if want := fmt.Sprintf("The request is too large (the limit is %d bytes).", ports.SmallBodyLimit); resp.Status != http.StatusRequestEntityTooLarge || !strings.Contains(string(resp.Body), want) {
		t.Fatalf("small route: %d %s, want 413 %q", resp.Status, resp.Body, want)
	}
}

func TestRateLimitsAnswer429WithRetryAfter(t *testing.T) {
	up := newUpstream(t)
	g := startGateway(t, up, ports.RateLimits{PerIP: 8, PerUser: 5}, "")
	alice := testenv.SignUp(t, testenv.UniqueEmail("alice"), "secret123", "")
	bob := testenv.SignUp(t, testenv.UniqueEmail("bob"), "secret123", "")

	codes := []int{}
	for i := 0; i < 6; i++ {
		resp := g.do("GET", "/api/wishlist", alice.IDToken, nil)
		codes = append(codes, resp.Status)
		if i == 5 {
			retry := resp.Header.Get("Retry-After")
			if resp.Status != http.StatusTooManyRequests || retry == "" || retry == "0" {
				t.Fatalf("6th request of a user: %d Retry-After=%q", resp.Status, retry)
			}
		}
	}
	if codes[4] != http.StatusOK {
		t.Fatalf("the first 5 requests must pass: %v", codes)
	}
	// Bob has his own user allowance, but the same IP: its limit (8) is reached on his 3rd.
	var bobCodes []int
	for i := 0; i < 3; i++ {
		bobCodes = append(bobCodes, g.do("GET", "/api/wishlist", bob.IDToken, nil).Status)
	}
	if bobCodes[0] != 200 || bobCodes[1] != 200 || bobCodes[2] != http.StatusTooManyRequests {
		t.Fatalf("per-IP limit: %v", bobCodes)
	}
}

func TestIdempotencyKeyMakesADoubleTapOneItem(t *testing.T) {
	up := newUpstream(t)
	g := startGateway(t, up, roomy, "")
	user := testenv.SignUp(t, testenv.UniqueEmail("tap"), "secret123", "")
	other := testenv.SignUp(t, testenv.UniqueEmail("other"), "secret123", "")
	item := `{"name":"Teddy Bear","description":"A soft brown bear","category":"Toys"}`

	first := g.do("POST", "/api/wishlist", user.IDToken, strings.NewReader(item), "Idempotency-Key", "tap-1")
	second := g.do("POST", "/api/wishlist", user.IDToken, strings.NewReader(item), "Idempotency-Key", "tap-1")
	b1, b2 := string(first.Body), string(second.Body)
	if first.Status != 201 || second.Status != 201 || b1 != b2 {
		t.Fatalf("answers differ: %d %s / %d %s", first.Status, b1, second.Status, b2)
	}
	if second.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatal("second answer was not a replay")
	}
	// The same key from another user is that user's own request.
	g.do("POST", "/api/wishlist", other.IDToken, strings.NewReader(item), "Idempotency-Key", "tap-1")
	// A new key is a new request.
	g.do("POST", "/api/wishlist", user.IDToken, strings.NewReader(item), "Idempotency-Key", "tap-2")
	if n := len(up.calls()); n != 3 {
		t.Fatalf("wishlist received %d creates, want 3", n)
	}
}

func TestAnIdempotencyKeyReusedForAnotherRequestIsRefused(t *testing.T) {
	up := newUpstream(t)
	g := startGateway(t, up, roomy, "")
	user := testenv.SignUp(t, testenv.UniqueEmail("reuse"), "secret123", "")
	bear := `{"name":"Teddy Bear","description":"A soft brown bear","category":"Toys"}`
	train := `{"name":"Toy Train","description":"A wooden train with three carriages","category":"Toys"}`

	if resp := g.do("POST", "/api/wishlist", user.IDToken, strings.NewReader(bear), "Idempotency-Key", "k-1"); resp.Status != 201 {
		t.Fatalf("first: %d %s", resp.Status, string(resp.Body))
	}
	resp := g.do("POST", "/api/wishlist", user.IDToken, strings.NewReader(train), "Idempotency-Key", "k-1")
	body := string(resp.Body)
	if resp.Status != http.StatusUnprocessableEntity || !strings.Contains(body, "already used for a different request") {
		t.Fatalf("reused key, other body: %d %s", resp.Status, body)
	}
	// The original request repeated is still a replay, and nothing reached the service twice.
	again := g.do("POST", "/api/wishlist", user.IDToken, strings.NewReader(bear), "Idempotency-Key", "k-1")
	if again.Status != 201 || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("repeat of the first: %d", again.Status)
	}
	if n := len(up.calls()); n != 1 {
		t.Fatalf("wishlist received %d creates, want 1", n)
	}
}

func TestRecentIsEmptyForVisitors(t *testing.T) {
	up := newUpstream(t)
	g := startGateway(t, up, roomy, "")
	resp := g.do("GET", "/api/wishlist/recent", "", nil)
	if body := string(resp.Body); resp.Status != 200 || strings.TrimSpace(body) != "[]" {
		t.Fatalf("recent for a visitor: %d %s", resp.Status, body)
	}
	if len(up.calls()) != 0 {
		t.Fatal("a visitor's recent call reached the wishlist")
	}
}

func TestFamilyRoutes(t *testing.T) {
	up := newUpstream(t)
	g := startGateway(t, up, roomy, "")
	// Only the invitation's accept page opens for visitors.
	for _, r := range []struct{ method, path string }{
		{"POST", "/api/families"}, {"GET", "/api/families"}, {"GET", "/api/families/f1"},
		{"POST", "/api/families/f1/invites"}, {"PATCH", "/api/families/f1/members/u1"},
		{"DELETE", "/api/families/f1/members/u1"}, {"POST", "/api/families/f1/secret-santa"},
		{"GET", "/api/families/f1/secret-santa"}, {"POST", "/api/invites/tok/accept"},
	} {
		resp := g.do(r.method, r.path, "", strings.NewReader("{}"))
		if body := string(resp.Body); resp.Status != http.StatusUnauthorized {
			t.Fatalf("anonymous %s %s: %d %s", r.method, r.path, resp.Status, body)
		}
	}
	if n := len(up.calls()); n != 0 {
		t.Fatalf("%d anonymous family calls reached the family service", n)
	}
	resp := g.do("GET", "/api/invites/tok", "", nil)
	calls := up.calls()
	if resp.Status != http.StatusOK || len(calls) != 1 || calls[0].URL.Path != "/api/invites/tok" || assertedUID(calls[0]) != "" {
		t.Fatalf("a visitor's invitation: %d, %d calls", resp.Status, len(calls))
	}
	user := testenv.SignUp(t, testenv.UniqueEmail("family"), "secret123", "Ann")
	resp = g.do("POST", "/api/families/f1/secret-santa", user.IDToken, strings.NewReader(`{"exclusions":[]}`))
	calls = up.calls()
	if resp.Status != http.StatusCreated || len(calls) != 2 || calls[1].URL.Path != "/api/families/f1/secret-santa" || assertedUID(calls[1]) != user.UID {
		t.Fatalf("a member's draw: %d, %d calls", resp.Status, len(calls))
	}
}

func TestWebAppCachingAndSecurityHeaders(t *testing.T) {
	dir := t.TempDir()
	_ = os.MkdirAll(filepath.Join(dir, "assets"), 0o755)
	_ = os.WriteFile(filepath.Join(dir, "index.html"), []byte("<html>santa</html>"), 0o644)
	_ = os.WriteFile(filepath.Join(dir, "assets", "app-1a2b.js"), []byte("console.log(1)"), 0o644)
	_ = os.WriteFile(filepath.Join(dir, "manifest.webmanifest"), []byte("{}"), 0o644)
	_ = os.WriteFile(filepath.Join(dir, "assets", "app-1a2b.js.br"), []byte("brotli bytes"), 0o644)
	g := startGateway(t, newUpstream(t), roomy, dir)

	compressed := g.do("GET", "/assets/app-1a2b.js", "", nil, "Accept-Encoding", "gzip, deflate, br")
	if body := string(compressed.Body); body != "brotli bytes" || compressed.Header.Get("Content-Encoding") != "br" ||
		!strings.Contains(compressed.Header.Get("Content-Type"), "javascript") || compressed.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("precompressed asset: %q %v", body, compressed.Header)
	}

	asset := g.do("GET", "/assets/app-1a2b.js", "", nil, "Accept-Encoding", "identity")
	if asset.Status != 200 || !strings.Contains(asset.Header.Get("Cache-Control"), "immutable") {
		t.Fatalf("hashed asset: %d %q", asset.Status, asset.Header.Get("Cache-Control"))
	}
	for _, route := range []string{"/", "/wishlist", "/no/such/page"} {
		page := g.do("GET", route, "", nil)
		if body := string(page.Body); page.Status != 200 || body != "<html>santa</html>" || !strings.Contains(page.Header.Get("Cache-Control"), "no-cache") {
			t.Fatalf("%s: %d %q %q", route, page.Status, body, page.Header.Get("Cache-Control"))
		}
		for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy"} {
			if page.Header.Get(h) == "" {
				t.Fatalf("%s lacks %s", route, h)
			}
		}
	}
	// HSTS only on answers that came over HTTPS: the ingress controller terminates TLS and says
	// so in X-Forwarded-Proto (browsers ignore the header over plain HTTP anyway).
	if h := g.do("GET", "/", "", nil, "X-Forwarded-Proto", "https").Header.Get("Strict-Transport-Security"); h != "max-age=31536000; includeSubDomains" {
		t.Fatalf("over HTTPS: Strict-Transport-Security %q", h)
	}
	if h := g.do("GET", "/", "", nil).Header.Get("Strict-Transport-Security"); h != "" {
		t.Fatalf("over plain HTTP: Strict-Transport-Security %q, want none", h)
	}
	if api := g.do("GET", "/api/nothing-here", "", nil); api.Status != 404 || !strings.Contains(string(api.Body), `"error"`) {
		t.Fatalf("unknown API path: %d", api.Status)
	}
	cfg := g.do("GET", "/api/config", "", nil)
	var wc ports.WebConfig
	cfg.Decode(t, &wc)
	if wc.Firebase.ProjectID != testenv.FirebaseProject || wc.AuthEmulatorURL == "" {
		t.Fatalf("web config: %+v", wc)
	}
}

func TestConfigurationProblemsAreReportedTogether(t *testing.T) {
	for _, k := range []string{"REDIS_URL", "FIREBASE_PROJECT_ID", "WISHLIST_URL"} {
		t.Setenv(k, "")
	}
	t.Setenv("VISION_URL", "not a url")
	t.Setenv("RATE_LIMIT_USER_PER_MINUTE", "lots")
	env := config.New()
	service.LoadConfig(env)
	err := env.Err()
	if err == nil {
		t.Fatal("bad configuration accepted")
	}
	for _, want := range []string{"REDIS_URL is required", "FIREBASE_PROJECT_ID is required", "WISHLIST_URL is required", "VISION_URL must be a URL", "RATE_LIMIT_USER_PER_MINUTE must be a whole number"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q missing from %v", want, err)
		}
	}
}

// HSTS_MAX_AGE and HSTS_INCLUDE_SUBDOMAINS make the Strict-Transport-Security header (a year
// with subdomains unless set; 0 turns it off), and a negative age is refused.
func TestHSTSIsASetting(t *testing.T) {
	for _, k := range []string{"REDIS_URL", "FIREBASE_PROJECT_ID", "WISHLIST_URL"} {
		t.Setenv(k, "x://y")
	}
	t.Setenv("IDENTITY_SIGNING_KEY", testenv.IdentitySigningKey("gateway"))
	for _, c := range []struct{ maxAge, subdomains, want string }{
		{"", "", "max-age=31536000; includeSubDomains"},
		{"2h", "false", "max-age=7200"},
		{"0", "", ""},
	} {
		t.Setenv("HSTS_MAX_AGE", c.maxAge)
		t.Setenv("HSTS_INCLUDE_SUBDOMAINS", c.subdomains)
		env := config.New()
		if cfg := service.LoadConfig(env); env.Err() != nil || cfg.HSTS != c.want {
			t.Errorf("HSTS_MAX_AGE=%q HSTS_INCLUDE_SUBDOMAINS=%q: %q (%v), want %q", c.maxAge, c.subdomains, cfg.HSTS, env.Err(), c.want)
		}
	}
	t.Setenv("HSTS_MAX_AGE", "-1s")
	env := config.New()
	service.LoadConfig(env)
	if err := env.Err(); err == nil || !strings.Contains(err.Error(), "HSTS_MAX_AGE") {
		t.Errorf("a negative HSTS_MAX_AGE: %v", err)
	}
}

func TestTheEmulatorIsRefusedUnlessAllowed(t *testing.T) {
	t.Setenv("FIREBASE_AUTH_EMULATOR_HOST", testenv.AuthEmulatorHost())
	cfg := service.Config{ProjectID: testenv.FirebaseProject, RedisURL: testenv.RedisURL(), AllowEmulator: false}
	if _, err := service.Build(context.Background(), cfg, quiet); !errors.Is(err, firebaseauth.ErrEmulatorNotAllowed) {
		t.Fatalf("want the emulator refused, got %v", err)
	}
}

// Every request is counted per IP before its token is looked at: a stream of bad tokens, or
// of /media/ downloads, meets the per-IP limit like any other traffic.
func TestBadTokensAndMediaAreCountedPerIPFirst(t *testing.T) {
	up := newUpstream(t)
	g := startGateway(t, up, ports.RateLimits{PerIP: 5, PerUser: 100}, "")
	var codes []int
	for range 6 {
		codes = append(codes, g.do("GET", "/api/wishlist", "not.a.token", nil).Status)
	}
	if codes[4] != http.StatusUnauthorized || codes[5] != http.StatusTooManyRequests {
		t.Fatalf("bad tokens from one IP: %v, want five 401 then 429", codes)
	}

	g = startGateway(t, up, ports.RateLimits{PerIP: 5, PerUser: 100}, "")
	codes = nil
	for range 6 {
		codes = append(codes, g.do("GET", "/media/items/unattached/x.jpg", "", nil).Status)
	}
	if codes[4] == http.StatusTooManyRequests || codes[5] != http.StatusTooManyRequests {
		t.Fatalf("/media/ downloads from one IP: %v, want the 6th refused with 429", codes)
	}
}

// /readyz (which names failing dependencies) and /metrics are answered on the admin port
// only; the public port answers /healthz and the app's routes.
func TestReadinessAndMetricsAreNotPublic(t *testing.T) {
	up := newUpstream(t)
	for k, v := range map[string]string{
		"FIREBASE_AUTH_EMULATOR_HOST": testenv.AuthEmulatorHost(), "ALLOW_AUTH_EMULATOR": "true",
		"REDIS_URL": testenv.RedisURL(), "REDIS_KEY_PREFIX": "test-" + testenv.RandomHex(6),
		"FIREBASE_PROJECT_ID": testenv.FirebaseProject, "WISHLIST_URL": up.server.URL,
		"PORT": "0", "ADMIN_PORT": "", "IDENTITY_SIGNING_KEY": testenv.IdentitySigningKey("gateway"),
	} {
		t.Setenv(k, v)
	}
	env := config.New()
	cfg := service.LoadConfig(env)
	if err := env.Err(); err != nil {
		t.Fatal(err)
	}
	if cfg.Server.AdminAddr != ":9090" {
		t.Fatalf("the gateway's admin address defaults to %q, want :9090 even without ADMIN_PORT", cfg.Server.AdminAddr)
	}
	cfg.Server.Addr, cfg.Server.AdminAddr = "127.0.0.1:0", "127.0.0.1:0"
	var srv *httpserver.Server
	public, _ := testenv.Serve(t, func(ctx context.Context) (*httpserver.Server, error) {
		var err error
		srv, err = service.Build(ctx, cfg, quiet)
		return srv, err
	})

	get := func(url string) (int, string) {
		r := testenv.NewClient(t, "").Do("GET", url, nil)
		return r.Status, string(r.Body)
	}
	for _, path := range []string{"/readyz", "/metrics"} {
		if code, body := get(public + path); code != http.StatusNotFound || strings.Contains(body, "redis") || strings.Contains(body, "# HELP") {
			t.Errorf("public %s: %d %.80s, want 404", path, code, body)
		}
	}
	if code, _ := get(public + "/healthz"); code != http.StatusOK {
		t.Errorf("public /healthz: %d", code)
	}
	if code, body := get(srv.AdminURL() + "/readyz"); code != http.StatusOK || !strings.Contains(body, "ready") {
		t.Errorf("admin /readyz: %d %s", code, body)
	}
	if code, body := get(srv.AdminURL() + "/metrics"); code != http.StatusOK || !strings.Contains(body, "go_goroutines") ||
		!strings.Contains(body, "gateway_redis_memory_used_bytes") {
		t.Errorf("admin /metrics: %d %.200s", code, body)
	}
}

// assertedUID is the user the gateway asserted to the service the request was for ("" for a
// visitor, "invalid" when the assertion does not verify).
func assertedUID(r *http.Request) string {
	audience := "wishlist"
	switch {
	case strings.HasPrefix(r.URL.Path, "/api/families"), strings.HasPrefix(r.URL.Path, "/api/invites"):
		audience = "family"
	case strings.HasPrefix(r.URL.Path, "/media"), strings.HasPrefix(r.URL.Path, "/api/media"):
		audience = "media"
	}
	u, _, err := testenv.AssertedUser(r, audience)
	if err != nil {
		return "invalid"
	}
	return u.UID
}
