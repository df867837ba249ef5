package postgres

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

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
