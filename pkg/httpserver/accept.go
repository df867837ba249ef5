package httpserver

import (
	"net"
	"net/http"
	"sync"
)

// maxPendingConns bounds the connections a server is reading or answering at once (accepted,
// and not yet idle between requests, handed on as a stream, or closed). Each holds ~20 KB
// (net/http's 4 KB read and write buffers, its request, a goroutine's stack), and on Christmas
// morning thousands of phones connect in the same second: the rest wait in the kernel's accept
// queue, which costs the process nothing, instead of all being read at once. With 8,000 devices
// opening their streams together the gateway peaked at 400 MB; with this bound (and the bound
// on opens under way, streams.go) at 94-104 MB (`make bench-streams`, storm). 256 requests in
// flight is far more than a pod answers at once (a few ms each).
const maxPendingConns = 256

// pendingGate is a listener that accepts a connection only when one of maxPendingConns places
// is free, with the http.Server ConnState hook that frees it.
type pendingGate struct {
	net.Listener
	places  chan struct{}
	holding sync.Map // net.Conn -> struct{}: the connections holding a place
	once    sync.Once
	closed  chan struct{}
}

func newPendingGate(l net.Listener, places int) *pendingGate {
	return &pendingGate{Listener: l, places: make(chan struct{}, places), closed: make(chan struct{})}
}

func (g *pendingGate) Accept() (net.Conn, error) {
	select {
	case g.places <- struct{}{}:
	case <-g.closed:
		return nil, net.ErrClosed
	}
	c, err := g.Listener.Accept()
	if err != nil {
		<-g.places
		return nil, err
	}
	g.holding.Store(c, struct{}{})
	return c, nil
}

func (g *pendingGate) Close() error {
	g.once.Do(func() { close(g.closed) })
	return g.Listener.Close()
}

// connState frees a connection's place once it is idle, handed on or closed. A connection that
// becomes active again later does not take a place again: the bound is on new arrivals.
func (g *pendingGate) connState(c net.Conn, state http.ConnState) {
	switch state {
	case http.StateIdle, http.StateHijacked, http.StateClosed:
		if _, held := g.holding.LoadAndDelete(c); held {
			<-g.places
		}
	}
}
