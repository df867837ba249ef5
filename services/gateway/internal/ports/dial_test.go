package ports

import (
	"context"
	"errors"
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
	dial := dialRetrying((&net.Dialer{Timeout: time.Second}).DialContext)
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
	if _, err := dialRetrying((&net.Dialer{Timeout: time.Second}).DialContext)(context.Background(), "tcp", addr); err == nil {
		t.Fatal("a closed port answered")
	}
	if took := time.Since(start); took < time.Second || took > 10*time.Second {
		t.Fatalf("gave up after %s; want about 3 s of retries", took)
	}
}

// A dial that times out (a SYN to the address of a pod that is gone) is tried again too, and one
// that fails for another reason (no such host) is not.
func TestDialRetryingTriesATimedOutDialAgain(t *testing.T) {
	var attempts int
	dial := dialRetrying(func(ctx context.Context, network, addr string) (net.Conn, error) {
		attempts++
		if attempts == 1 {
			return nil, &net.OpError{Op: "dial", Net: network, Err: timeoutError{}}
		}
		server, client := net.Pipe()
		server.Close()
		return client, nil
	})
	conn, err := dial(context.Background(), "tcp", "10.0.0.1:80")
	if err != nil || attempts != 2 {
		t.Fatalf("after a timeout: err %v after %d attempts; want a connection on the 2nd", err, attempts)
	}
	conn.Close()

	attempts = 0
	noHost := &net.DNSError{Err: "no such host", Name: "wishlist", IsNotFound: true}
	_, err = dialRetrying(func(ctx context.Context, network, addr string) (net.Conn, error) {
		attempts++
		return nil, &net.OpError{Op: "dial", Net: network, Err: noHost}
	})(context.Background(), "tcp", "wishlist:80")
	if !errors.As(err, new(*net.DNSError)) || attempts != 1 {
		t.Fatalf("no such host: err %v after %d attempts; want it at once", err, attempts)
	}
}

type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }
