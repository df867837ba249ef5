package httpserver

import (
	"net"
	"net/http"
	"testing"
	"time"
)

// Past its places the gate leaves new connections in the kernel's queue; a connection that
// goes idle, is handed on or closes lets the next one in.
func TestPendingConnectionsAreBounded(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gate := newPendingGate(ln, 2)
	defer gate.Close()
	accepted := make(chan net.Conn, 10)
	go func() {
		for {
			c, err := gate.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	for range 3 {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	first, second := <-accepted, <-accepted
	select {
	case <-accepted:
		t.Fatal("a third connection was accepted while two held the places")
	case <-time.After(200 * time.Millisecond):
	}
	gate.connState(first, http.StateIdle)
	gate.connState(first, http.StateClosed) // freed once only
	select {
	case <-accepted:
	case <-time.After(5 * time.Second):
		t.Fatal("the third connection was not accepted once a place was free")
	}
	if n := holding(gate); n != 2 {
		t.Fatalf("%d connections hold a place, want 2 (the second and the third)", n)
	}
	gate.connState(second, http.StateHijacked)
	if n := holding(gate); n != 1 {
		t.Fatalf("a stream handed on kept its place: %d hold one", n)
	}
}

func holding(g *pendingGate) int {
	n := 0
	g.holding.Range(func(any, any) bool { n++; return true })
	return n
}
