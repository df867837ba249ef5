// Package safedial makes dialers that reach public internet addresses only: every address a
// connection is about to use is checked when it is dialled (after DNS, for each address tried
// and each redirect), so neither a name that resolves to a private address nor one that changes
// its answer between a check and the connection (DNS rebinding) can reach inside.
package safedial

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
	"time"

	"code.dny.dev/ssrf"
)

// Dialer allows tcp4/tcp6 to ports 80 and 443 of public unicast addresses, plus the exact
// address:port pairs in allow (the local services of development and tests).
func Dialer(timeout time.Duration, allow []netip.AddrPort) *net.Dialer {
	guardian := ssrf.New()
	allowed := Set(allow)
	control := func(network, address string, c syscall.RawConn) error {
		if ap, err := netip.ParseAddrPort(address); err == nil && allowed[netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())] {
			return nil
		}
		return guardian.Safe(network, address, c)
	}
	return &net.Dialer{Timeout: timeout, Control: control}
}

// Set indexes an allowance for lookups.
func Set(allow []netip.AddrPort) map[netip.AddrPort]bool {
	m := make(map[netip.AddrPort]bool, len(allow))
	for _, ap := range allow {
		m[netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())] = true
	}
	return m
}

// ParseAllow reads a comma-separated list of address:port pairs ("127.0.0.1:18096,[::1]:18096").
func ParseAllow(s string) ([]netip.AddrPort, error) {
	var out []netip.AddrPort
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		ap, err := netip.ParseAddrPort(part)
		if err != nil {
			return nil, fmt.Errorf("%q is not an address:port pair: %w", part, err)
		}
		out = append(out, ap)
	}
	return out, nil
}
