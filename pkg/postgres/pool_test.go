package postgres

import (
	"context"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/startup"
)

// databaseURL is the test PostgreSQL (make test sets TEST_DATABASE_URL).
func databaseURL(t *testing.T) *url.URL {
	t.Helper()
	raw := os.Getenv("TEST_DATABASE_URL")
	if raw == "" {
		t.Skip("TEST_DATABASE_URL is not set (make test sets it)")
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// closedPort is a loopback address nothing listens on: connections to it are refused.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// forward accepts on addr and relays each connection to target: PostgreSQL appearing at addr.
func forward(t *testing.T, addr, target string) {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			in, err := l.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			go func() { _, _ = io.Copy(out, in); out.Close() }()
			go func() { _, _ = io.Copy(in, out); in.Close() }()
		}
	}()
}

func TestConnectWaitsForADatabaseThatAnswersLater(t *testing.T) {
	u := databaseURL(t)
	target := u.Host
	addr := closedPort(t)
	u.Host = addr
	time.AfterFunc(800*time.Millisecond, func() { forward(t, addr, target) })

	started := time.Now()
	pool, err := Connect(context.Background(), u.String())
	if err != nil {
		t.Fatalf("Connect gave up on a database that answered after 0.8 s: %v", err)
	}
	defer pool.Close()
	if took := time.Since(started); took < 800*time.Millisecond {
		t.Fatalf("connected after %s, before the database could answer", took)
	}
	var one int
	if err := pool.QueryRow(context.Background(), "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("SELECT 1 = %d, %v", one, err)
	}
}

func TestConnectGivesUpAfterStartupWait(t *testing.T) {
	u := databaseURL(t)
	u.Host = closedPort(t)
	saved := startup.Wait
	startup.Wait = time.Second
	defer func() { startup.Wait = saved }()

	started := time.Now()
	pool, err := Connect(context.Background(), u.String())
	if err == nil {
		pool.Close()
		t.Fatal("Connect succeeded with nothing listening")
	}
	if took := time.Since(started); took > 10*time.Second {
		t.Fatalf("gave up after %s, with startup.Wait 1 s", took)
	}
	if !strings.Contains(err.Error(), "refused") {
		t.Errorf("the error does not say why: %v", err)
	}
}

func TestConnectFailsAtOnceWhenTheServerRefuses(t *testing.T) {
	u := databaseURL(t)
	u.Path = "/santa_no_such_database"

	started := time.Now()
	pool, err := Connect(context.Background(), u.String())
	if err == nil {
		pool.Close()
		t.Fatal("Connect succeeded to a database that does not exist")
	}
	// The server answered: no amount of waiting changes that, so no 30 s wait.
	if took := time.Since(started); took > 5*time.Second {
		t.Fatalf("took %s to report the server's refusal", took)
	}
	if !strings.Contains(err.Error(), "santa_no_such_database") {
		t.Errorf("the error does not name the database: %v", err)
	}
}
