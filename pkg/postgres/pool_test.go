package postgres

import (
	"context"
	"io"
	"net"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/santa-wishlist/santa/pkg/lifecycle"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

// through is the test PostgreSQL's URL with its address replaced by addr.
func through(t *testing.T, addr string) *url.URL {
	t.Helper()
	u, err := url.Parse(testenv.PostgresAdminURL())
	if err != nil {
		t.Fatal(err)
	}
	u.Host = addr
	return u
}

// cutLine is a proxy to the test PostgreSQL that does not answer yet: connections to its
// address are refused until Restore.
func cutLine(t *testing.T) *testenv.TCPProxy {
	t.Helper()
	u, err := url.Parse(testenv.PostgresAdminURL())
	if err != nil {
		t.Fatal(err)
	}
	line := testenv.StartTCPProxy(t, u.Host)
	line.Cut()
	return line
}

func TestConnectWaitsForADatabaseThatAnswersLater(t *testing.T) {
	line := cutLine(t)
	time.AfterFunc(800*time.Millisecond, line.Restore)

	started := time.Now()
	pool, err := Connect(context.Background(), through(t, line.Addr()).String())
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
	line := cutLine(t)
	saved := lifecycle.StartupWait
	lifecycle.StartupWait = time.Second
	defer func() { lifecycle.StartupWait = saved }()

	started := time.Now()
	pool, err := Connect(context.Background(), through(t, line.Addr()).String())
	if err == nil {
		pool.Close()
		t.Fatal("Connect succeeded with nothing listening")
	}
	if took := time.Since(started); took > 10*time.Second {
		t.Fatalf("gave up after %s, with lifecycle.StartupWait 1 s", took)
	}
	if !strings.Contains(err.Error(), "refused") {
		t.Errorf("the error does not say why: %v", err)
	}
}

func TestConnectFailsAtOnceWhenTheServerRefuses(t *testing.T) {
	u, err := url.Parse(testenv.PostgresAdminURL())
	if err != nil {
		t.Fatal(err)
	}
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

// startingUp answers at its address as PostgreSQL does while it starts: every connection is
// refused with FATAL 57P03 "the database system is starting up", until Ready, after which
// connections pass to the test PostgreSQL. (Shutting down answers with the same code.)
type startingUp struct {
	addr  string
	ready atomic.Bool
}

func startStartingUp(t *testing.T) *startingUp {
	t.Helper()
	real, err := url.Parse(testenv.PostgresAdminURL())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	s := &startingUp{addr: ln.Addr().String()}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if s.ready.Load() {
				go pass(c, real.Host)
			} else {
				go refuseAsStartingUp(c)
			}
		}
	}()
	return s
}

func (s *startingUp) Ready() { s.ready.Store(true) }

func refuseAsStartingUp(c net.Conn) {
	defer c.Close()
	be := pgproto3.NewBackend(c, c)
	for {
		msg, err := be.ReceiveStartupMessage()
		if err != nil {
			return
		}
		switch msg.(type) {
		case *pgproto3.SSLRequest, *pgproto3.GSSEncRequest:
			if _, err := c.Write([]byte("N")); err != nil {
				return
			}
			continue
		}
		be.Send(&pgproto3.ErrorResponse{Severity: "FATAL", SeverityUnlocalized: "FATAL",
			Code: pgerrcode.CannotConnectNow, Message: "the database system is starting up"})
		_ = be.Flush()
		return
	}
}

func pass(c net.Conn, target string) {
	up, err := net.Dial("tcp", target)
	if err != nil {
		_ = c.Close()
		return
	}
	go func() { _, _ = io.Copy(up, c); _ = up.Close() }()
	_, _ = io.Copy(c, up)
	_ = c.Close()
}

func TestConnectWaitsForADatabaseThatIsStartingUp(t *testing.T) {
	db := startStartingUp(t)
	time.AfterFunc(800*time.Millisecond, db.Ready)

	started := time.Now()
	pool, err := Connect(context.Background(), through(t, db.addr).String())
	if err != nil {
		t.Fatalf("Connect gave up on a database that was starting up for 0.8 s: %v", err)
	}
	defer pool.Close()
	if took := time.Since(started); took < 800*time.Millisecond {
		t.Fatalf("connected after %s, while the database was still starting up", took)
	}
	var one int
	if err := pool.QueryRow(context.Background(), "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("SELECT 1 = %d, %v", one, err)
	}
}
