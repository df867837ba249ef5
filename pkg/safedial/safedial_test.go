package safedial_test

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"

	"code.dny.dev/ssrf"

	"github.com/santa-wishlist/santa/pkg/safedial"
)

// A local listener is refused unless its exact address:port is allowed.
func TestDialerRefusesInsideButTheAllowed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := netip.MustParseAddrPort(ln.Addr().String())
	ctx := context.Background()
	if _, err := safedial.Dialer(time.Second, nil).DialContext(ctx, "tcp", addr.String()); !errors.Is(err, ssrf.ErrProhibitedPort) && !errors.Is(err, ssrf.ErrProhibitedIP) {
		t.Fatalf("a loopback dial: %v, want an ssrf refusal", err)
	}
	other := netip.AddrPortFrom(addr.Addr(), addr.Port()+1)
	if _, err := safedial.Dialer(time.Second, []netip.AddrPort{other}).DialContext(ctx, "tcp", addr.String()); err == nil {
		t.Fatal("another allowed port let this one through")
	}
	c, err := safedial.Dialer(time.Second, []netip.AddrPort{addr}).DialContext(ctx, "tcp", addr.String())
	if err != nil {
		t.Fatalf("the allowed address: %v", err)
	}
	c.Close()
}

func TestParseAllow(t *testing.T) {
	got, err := safedial.ParseAllow(" 127.0.0.1:18096, [::1]:18096 ,")
	if err != nil || len(got) != 2 || got[1].Port() != 18096 {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := safedial.ParseAllow("localhost:80"); err == nil {
		t.Fatal("a name was accepted")
	}
}
