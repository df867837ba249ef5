package adapters_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"

	"github.com/santa-wishlist/santa/services/vision/internal/adapters"
	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

// testDNS answers A queries from a table that a test may change between lookups (for DNS
// rebinding); everything else gets an empty answer.
type testDNS struct {
	mu      sync.Mutex
	answers map[string][]netip.Addr // name (with the final dot) -> successive answers
	asked   map[string]int
	addr    string
}

func startDNS(t *testing.T) *testDNS {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pc.Close() })
	d := &testDNS{answers: map[string][]netip.Addr{}, asked: map[string]int{}, addr: pc.LocalAddr().String()}
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			var p dnsmessage.Parser
			h, err := p.Start(buf[:n])
			if err != nil {
				continue
			}
			q, err := p.Question()
			if err != nil {
				continue
			}
			b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true})
			b.EnableCompression()
			_ = b.StartQuestions()
			_ = b.Question(q)
			_ = b.StartAnswers()
			if q.Type == dnsmessage.TypeA {
				if a, ok := d.next(q.Name.String()); ok {
					_ = b.AResource(dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 0},
						dnsmessage.AResource{A: a.As4()})
				}
			}
			msg, _ := b.Finish()
			_, _ = pc.WriteTo(msg, from)
		}
	}()
	return d
}

func (d *testDNS) set(name string, addrs ...string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, a := range addrs {
		d.answers[name+"."] = append(d.answers[name+"."], netip.MustParseAddr(a))
	}
}

// next answers the name's current address; a name with several answers moves on to the
// next one after each query (the last one sticks).
func (d *testDNS) next(name string) (netip.Addr, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	list := d.answers[name]
	if len(list) == 0 {
		return netip.Addr{}, false
	}
	i := min(d.asked[name], len(list)-1)
	d.asked[name]++
	return list[i], true
}

func (d *testDNS) resolver() *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var dialer net.Dialer
		return dialer.DialContext(ctx, "udp", d.addr)
	}}
}

// target is a local server that counts every request it receives.
type target struct {
	*httptest.Server
	hits atomic.Int32
	port string
}

func listenTarget(t *testing.T, addr string, h http.HandlerFunc) *target {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	tg := &target{}
	tg.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tg.hits.Add(1)
		h(w, r)
	}))
	tg.Listener = ln
	tg.Start()
	t.Cleanup(tg.Close)
	_, tg.port, _ = net.SplitHostPort(ln.Addr().String())
	return tg
}

// ssrfRig is a shop on 127.0.0.1:P, allowed by the test-only allowance, and a victim on
// 127.0.0.2:P — same port, so only the address check can stop a request to it.
func ssrfRig(t *testing.T, shopHandler http.HandlerFunc) (shop, victim *target, f *adapters.Fetcher, dns *testDNS) {
	t.Helper()
	for range 20 {
		shop = listenTarget(t, "127.0.0.1:0", shopHandler)
		ln, err := net.Listen("tcp", "127.0.0.2:"+shop.port)
		if err != nil {
			continue // the port is taken on 127.0.0.2: try another
		}
		_ = ln.Close()
		victim = listenTarget(t, "127.0.0.2:"+shop.port, func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte("<title>internal secrets</title>"))
		})
		break
	}
	if victim == nil {
		t.Fatal("no shared port for the shop and the victim")
	}
	dns = startDNS(t)
	cfg := adapters.FetchDefaults()
	cfg.Timeout = 500 * time.Millisecond
	cfg.TestAllow = []netip.AddrPort{netip.MustParseAddrPort("127.0.0.1:" + shop.port)}
	cfg.Resolver = dns.resolver()
	return shop, victim, adapters.NewFetcher(cfg), dns
}

func fetch(f *adapters.Fetcher, raw string) (domain.Page, error) {
	u, err := f.CheckURL(raw)
	if err != nil {
		return domain.Page{}, err
	}
	return f.Get(context.Background(), u, 0)
}

func TestTheFetcherRefusesEveryInternalAddress(t *testing.T) {
	shop, victim, f, dns := ssrfRig(t, func(w http.ResponseWriter, r *http.Request) {
		if to := r.URL.Query().Get("to"); to != "" {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		_, _ = w.Write([]byte("<title>A shop</title>"))
	})
	p := shop.port
	dns.set("victim.shop.test", "127.0.0.2")
	dns.set("private.shop.test", "10.1.2.3")
	dns.set("metadata.shop.test", "169.254.169.254")
	// DNS rebinding: the first answer is the (allowed) shop, every later one the victim.
	dns.set("rebind.shop.test", "127.0.0.1", "127.0.0.2")

	if page, err := fetch(f, "http://127.0.0.1:"+p+"/"); err != nil || !strings.Contains(string(page.Body), "A shop") {
		t.Fatalf("the allowed shop: %v", err)
	}
	if _, err := fetch(f, "http://rebind.shop.test:"+p+"/"); err != nil {
		t.Fatalf("rebind's first answer is the shop: %v", err)
	}

	refusedURLs := []string{
		"http://127.0.0.2:" + p + "/",                                // loopback
		"http://[::ffff:127.0.0.2]:" + p + "/",                       // IPv4-mapped IPv6
		"http://[::ffff:7f00:2]:" + p + "/",                          // the same, in hex
		"http://2130706434:" + p + "/",                               // decimal 127.0.0.2
		"http://0177.0.0.2:" + p + "/",                               // octal
		"http://0x7f.0.0.2:" + p + "/",                               // hex
		"http://127.2:" + p + "/",                                    // short form
		"http://victim.shop.test:" + p + "/",                         // a name that resolves to the victim
		"http://rebind.shop.test:" + p + "/",                         // the name now rebinds to the victim
		"http://127.0.0.1:" + p + "/?to=http://127.0.0.2:" + p + "/", // a redirect to it
		"http://127.0.0.1:" + p + "/?to=http://victim.shop.test:" + p + "/",
		"http://127.0.0.1:" + p + "/?to=http://2130706434:" + p + "/",
		"http://127.0.0.1/", "http://[::1]/", "http://localhost/", "http://0.0.0.0/",
		"http://10.0.0.1/", "http://172.16.5.4/", "http://192.168.1.1/", // private
		"http://169.254.169.254/latest/meta-data/", "http://metadata.shop.test/", // link-local, cloud metadata
		"http://100.64.0.1/", // CGNAT
		"http://[fd00::2]/",  // IPv6 ULA
		"http://[fe80::1]/",  // IPv6 link-local
		"http://private.shop.test/",
		"http://127.0.0.1:" + p + "/?to=http://169.254.169.254/",
		"https://192.0.2.2/", // this machine's documentation-range address
	}
	for _, raw := range refusedURLs {
		before := victim.hits.Load()
		_, err := fetch(f, raw)
		var refused *domain.RefusedError
		if !errors.As(err, &refused) || refused.Code != "url_not_allowed" {
			t.Errorf("%s: got %v, want a url_not_allowed refusal", raw, err)
		}
		if victim.hits.Load() != before {
			t.Errorf("%s reached the victim", raw)
		}
	}
	if n := victim.hits.Load(); n != 0 {
		t.Fatalf("the victim received %d requests", n)
	}
}

func TestTheFetcherRefusesOtherSchemesAndPorts(t *testing.T) {
	_, _, f, _ := ssrfRig(t, func(w http.ResponseWriter, r *http.Request) {})
	for raw, code := range map[string]string{
		"file:///etc/passwd":           "url_scheme_not_allowed",
		"gopher://shop.example/":       "url_scheme_not_allowed",
		"ftp://shop.example/":          "url_scheme_not_allowed",
		"http://shop.example:22/":      "url_not_allowed",
		"http://shop.example:6379/":    "url_not_allowed",
		"http://user:pw@shop.example/": "invalid_url",
		"shop.example/toy":             "invalid_url",
		"":                             "invalid_url",
		"http://":                      "invalid_url",
	} {
		_, err := fetch(f, raw)
		var refused *domain.RefusedError
		if !errors.As(err, &refused) || refused.Code != code {
			t.Errorf("%q: got %v, want %s", raw, err, code)
		}
	}
}

func TestTheFetcherCapsSizeTimeAndRedirectsAndKeepsNoCookies(t *testing.T) {
	var (
		mu      sync.Mutex
		cookies []string
		agents  []string
	)
	shop, _, f, _ := ssrfRig(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		cookies, agents = append(cookies, r.Header.Get("Cookie")), append(agents, r.Header.Get("User-Agent"))
		mu.Unlock()
		switch r.URL.Path {
		case "/huge":
			_, _ = w.Write([]byte("<title>Huge</title>" + strings.Repeat("x", 3<<20)))
		case "/slow":
			time.Sleep(2 * time.Second)
		case "/loop":
			var n int
			_, _ = fmt.Sscan(r.URL.Query().Get("n"), &n)
			http.Redirect(w, r, fmt.Sprintf("/loop?n=%d", n+1), http.StatusFound)
		default:
			http.SetCookie(w, &http.Cookie{Name: "session", Value: "tracked"})
			_, _ = w.Write([]byte("<title>ok</title>"))
		}
	})
	base := "http://127.0.0.1:" + shop.port
	page, err := fetch(f, base+"/huge")
	if err != nil || !page.Truncated || len(page.Body) != 2<<20 {
		t.Fatalf("huge page: %v, truncated %v, %d bytes", err, page.Truncated, len(page.Body))
	}
	start := time.Now()
	_, err = fetch(f, base+"/slow")
	var failed *domain.FetchError
	if !errors.As(err, &failed) || !failed.Timeout || time.Since(start) > 1500*time.Millisecond {
		t.Fatalf("slow page: %v after %s", err, time.Since(start))
	}
	var refused *domain.RefusedError
	if _, err := fetch(f, base+"/loop"); !errors.As(err, &refused) || refused.Code != "too_many_redirects" {
		t.Fatalf("redirect loop: %v", err)
	}
	for range 2 {
		if _, err := fetch(f, base+"/"); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for i, c := range cookies {
		if c != "" {
			t.Errorf("request %d sent a cookie: %q", i, c)
		}
		if !strings.HasPrefix(agents[i], "Mozilla/5.0") {
			t.Errorf("request %d user agent %q", i, agents[i])
		}
	}
}
