package testenv

import (
	"io"
	"net"
	"sync"
	"testing"
)

// TCPProxy forwards a local port to a real server and can cut the line, to show what a
// service does while a dependency is unreachable.
type TCPProxy struct {
	t      testing.TB
	target string
	addr   string
	mu     sync.Mutex
	ln     net.Listener
	conns  []net.Conn
}

// StartTCPProxy forwards a fresh local port to target ("host:port").
func StartTCPProxy(t testing.TB, target string) *TCPProxy {
	t.Helper()
	p := &TCPProxy{t: t, target: target}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(p.Cut)
	return p
}

// Addr is the local address clients should use.
func (p *TCPProxy) Addr() string { return p.addr }

func (p *TCPProxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", p.target)
			if err != nil {
				_ = c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(up, c); _ = up.Close() }()
			go func() { _, _ = io.Copy(c, up); _ = c.Close() }()
		}
	}()
}

// Cut closes the listener and every open connection: the dependency is now unreachable.
func (p *TCPProxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		_ = p.ln.Close()
		p.ln = nil
	}
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.conns = nil
}

// Restore listens again on the same address.
func (p *TCPProxy) Restore() {
	p.t.Helper()
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatalf("restore proxy: %v", err)
	}
	p.serve(ln)
}
