package ports

import (
	"context"
	"net"
	"testing"
	"time"
)

// A refused address is dialled again: the service behind it comes up a moment later (a pod
// replaced, kube-proxy catching up) and the request goes through instead of failing.
func TestDialRetryingWaitsForARefusingAddressToAnswer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // refused from now on
	go func() {
		time.Sleep(300 * time.Millisecond)
		l2, err := net.Listen("tcp", addr)
		if err != nil {
			return
		}
		defer l2.Close()
		if c, err := l2.Accept(); err == nil {
			c.Close()
		}
	}()
	dial := dialRetrying(&net.Dialer{Timeout: time.Second})
	conn, err := dial(context.Background(), "tcp", addr)
	if err != nil {
		t.Fatalf("the dial gave up on an address that answered 300 ms later: %v", err)
	}
	conn.Close()
}

// An address that keeps refusing fails after a few seconds, not never.
func TestDialRetryingGivesUp(t *testing.T) {
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	l.Close()
	start := time.Now()
	if _, err := dialRetrying(&net.Dialer{Timeout: time.Second})(context.Background(), "tcp", addr); err == nil {
		t.Fatal("a closed port answered")
	}
	if took := time.Since(start); took < time.Second || took > 10*time.Second {
		t.Fatalf("gave up after %s; want about 3 s of retries", took)
	}
}
