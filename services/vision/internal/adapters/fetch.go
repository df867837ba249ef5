package adapters

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"code.dny.dev/ssrf"

	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

// FetchConfig bounds what the shop-page fetcher may do.
type FetchConfig struct {
	// Timeout bounds a whole fetch: every redirect, the TLS handshakes and the body.
	Timeout time.Duration
	// MaxBytes is read at most; a longer page is cut there (product data sits near the top).
	MaxBytes     int64
	MaxRedirects int
	UserAgent    string
	// TestAllow lists exact ip:port pairs that may be reached although the rules refuse
	// them. It exists ONLY so the local dev and test stacks can import from a "shop" on
	// this machine; the chart's schema has no such value, so production cannot set it.
	TestAllow []netip.AddrPort
	// Resolver resolves host names (nil: the system's). Unit tests give one that answers
	// private addresses for public-looking names, to prove the dial-time check.
	Resolver *net.Resolver
}

// FetchDefaults are the caps: 2 MB, 5 s, 5 redirects, and a browser's user agent
// (several shops answer a bot's with a captcha page).
func FetchDefaults() FetchConfig {
	return FetchConfig{
		Timeout:      5 * time.Second,
		MaxBytes:     2 << 20,
		MaxRedirects: 5,
		UserAgent:    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
	}
}

func refused(code, msg string) error { return &domain.RefusedError{Code: code, Message: msg} }

// Why a link is refused (the error codes of POST /api/lookup/url).
var (
	errBadURL    = refused("invalid_url", "Please paste a full shop link starting with http:// or https://.")
	errScheme    = refused("url_scheme_not_allowed", "Only http:// and https:// links can be imported.")
	errPort      = refused("url_not_allowed", "This link points to a port shops do not use (only 80 and 443 are allowed).")
	errAddress   = refused("url_not_allowed", "This link points to a private or internal network address and cannot be imported.")
	errRedirects = refused("too_many_redirects", "The shop's page redirected too many times.")
)

// Fetcher fetches pages from the internet and nothing else: every address a connection is
// about to use is checked when it is dialled (after DNS, for each address tried and each
// redirect), so neither a name that resolves to a private address nor one that changes its
// answer between a check and the connection (DNS rebinding) can reach inside.
type Fetcher struct {
	cfg    FetchConfig
	client *http.Client
}

var _ domain.PageFetcher = (*Fetcher)(nil)

// NewFetcher builds the fetcher.
func NewFetcher(cfg FetchConfig) *Fetcher {
	guardian := ssrf.New() // only tcp4/tcp6 to ports 80 and 443 of public unicast addresses
	allowed := map[netip.AddrPort]bool{}
	for _, ap := range cfg.TestAllow {
		allowed[ap] = true
	}
	control := func(network, address string, c syscall.RawConn) error {
		if ap, err := netip.ParseAddrPort(address); err == nil && allowed[netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())] {
			return nil
		}
		return guardian.Safe(network, address, c)
	}
	dialer := &net.Dialer{Timeout: cfg.Timeout, Control: control, Resolver: cfg.Resolver}
	transport := &http.Transport{
		Proxy:                  nil, // never an environment proxy: it would dial for us, unchecked
		DialContext:            dialer.DialContext,
		TLSHandshakeTimeout:    cfg.Timeout,
		ResponseHeaderTimeout:  cfg.Timeout,
		DisableKeepAlives:      true,
		MaxResponseHeaderBytes: 64 << 10,
	}
	f := &Fetcher{cfg: cfg}
	f.client = &http.Client{
		Transport: transport,
		Timeout:   cfg.Timeout,
		Jar:       nil, // no cookies kept between requests or users
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > cfg.MaxRedirects {
				return errRedirects
			}
			return checkURL(req.URL, allowed)
		},
	}
	return f
}

// CheckURL refuses, before any connection, what can be refused from the link alone.
func (f *Fetcher) CheckURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || raw == "" || len(raw) > 2048 {
		return nil, errBadURL
	}
	allowed := map[netip.AddrPort]bool{}
	for _, ap := range f.cfg.TestAllow {
		allowed[ap] = true
	}
	if err := checkURL(u, allowed); err != nil {
		return nil, err
	}
	return u, nil
}

func checkURL(u *url.URL, allowed map[netip.AddrPort]bool) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		if u.Scheme == "" {
			return errBadURL
		}
		return errScheme
	}
	if u.Hostname() == "" || u.User != nil {
		return errBadURL
	}
	if numericSpelling(u.Hostname()) {
		return errAddress
	}
	port := u.Port()
	if port == "" || port == "80" || port == "443" {
		return nil
	}
	for ap := range allowed {
		if fmt.Sprint(ap.Port()) == port {
			return nil // the dial-time check still wants the exact address
		}
	}
	return errPort
}

// Get fetches u (checked by CheckURL) and reads at most maxBytes of it (0: the configured
// cap). accept says which media types are wanted.
func (f *Fetcher) Get(ctx context.Context, u *url.URL, maxBytes int64, accept ...string) (domain.Page, error) {
	if maxBytes <= 0 {
		maxBytes = f.cfg.MaxBytes
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return domain.Page{}, errBadURL
	}
	req.Header.Set("User-Agent", f.cfg.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,image/avif,image/webp,image/*;q=0.8,*/*;q=0.5")
	req.Header.Set("Accept-Language", "en-US,en;q=0.9")
	resp, err := f.client.Do(req)
	if err != nil {
		return domain.Page{}, classify(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return domain.Page{}, &domain.FetchError{Status: resp.StatusCode}
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if len(accept) > 0 && !typeAccepted(ct, accept) {
		return domain.Page{}, refused("not_a_page", "This link does not lead to a web page (it is "+orUnknown(ct)+").")
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes+1))
	if err != nil {
		return domain.Page{}, classify(err)
	}
	p := domain.Page{URL: resp.Request.URL, ContentType: ct, Body: body}
	if int64(len(body)) > maxBytes {
		p.Body, p.Truncated = body[:maxBytes], true
	}
	return p, nil
}

func typeAccepted(ct string, accept []string) bool {
	for _, a := range accept {
		if ct == a || strings.HasSuffix(a, "/") && strings.HasPrefix(ct, a) {
			return true
		}
	}
	return false
}

func orUnknown(s string) string {
	if s == "" {
		return "of an unknown type"
	}
	return s
}

// classify turns a client error into what the user is told: a refusal (the dial-time
// check, a redirect) or a fetch failure.
func classify(err error) error {
	var r *domain.RefusedError
	switch {
	case errors.As(err, &r):
		return r
	case errors.Is(err, ssrf.ErrProhibitedPort):
		return errPort
	case errors.Is(err, ssrf.ErrProhibitedIP), errors.Is(err, ssrf.ErrProhibitedNetwork), errors.Is(err, ssrf.ErrInvalidHostPort):
		return errAddress
	case isTimeout(err):
		return &domain.FetchError{Timeout: true, Detail: err.Error()}
	}
	return &domain.FetchError{Detail: err.Error()}
}

// numericSpelling reports an IPv4 address written in one of the forms C's inet_aton accepts
// but that are not the dotted-decimal one: 2130706433, 0x7f000001, 0177.0.0.1, 127.1. A
// resolver may turn these into an address (glibc does); shops never use them, so they are
// refused from the link alone. The canonical forms go on to the dial-time check.
func numericSpelling(host string) bool {
	if a, err := netip.ParseAddr(host); err == nil && !a.Is4In6() {
		return false
	}
	parts := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(parts) > 4 {
		return false
	}
	for _, p := range parts {
		lower := strings.ToLower(p)
		if rest, ok := strings.CutPrefix(lower, "0x"); ok {
			lower = rest
			if lower == "" || strings.Trim(lower, "0123456789abcdef") != "" {
				return false
			}
			continue
		}
		if lower == "" || strings.Trim(lower, "0123456789") != "" {
			return false
		}
	}
	return true
}
