package main

import (
	"bytes"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestTail(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"a\nb\nc\n", 2, "b\nc\n"}, {"a\nb\nc", 1, "c"}, {"a\n", 5, "a\n"}, {"", 1, ""}, {"a\nb\n\n", 1, "\n"},
	} {
		if got := string(tail([]byte(c.in), c.n)); got != c.want {
			t.Errorf("tail(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestWhy(t *testing.T) {
	for _, c := range []struct{ log, want string }{
		{`[media] {"level":"INFO","msg":"starting"}` + "\n" + `[media] {"level":"ERROR","msg":"minio","err":"connection refused"}` + "\n[media] bye\n", "minio: connection refused"},
		{`[media] {"level":"FATAL","msg":"config","error":"MINIO_BUCKET is required"}` + "\n", "config: MINIO_BUCKET is required"},
		{`[media] {"level":"ERROR","msg":"only a message"}` + "\n", "only a message"},
		{"[media] panic: nil map\n[media] goroutine 1\n", "panic: nil map"},
		{"[media] plain last line\n", "plain last line"},
		{"[media] " + strings.Repeat("x", 400) + "\n", strings.Repeat("x", 300)},
		{"", ""},
	} {
		if got := Why([]byte(c.log), "media"); got != c.want {
			t.Errorf("Why(%q) = %q, want %q", c.log, got, c.want)
		}
	}
}

func TestExitReport(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "vision.log")
	os.WriteFile(log, []byte(`[vision] {"level":"INFO","msg":"serving"}`+"\n"), 0o600)
	want := "\033[1;31m[stack]\033[0m vision exited (status 137): killed by SIGKILL (log: " + log + ")\n"
	if got := ExitReport("vision", "137", log); got != want {
		t.Errorf("killed: %q", got)
	}
	// A crash of its own, then a signal: the crash is the reason.
	os.WriteFile(log, []byte(`[vision] {"level":"ERROR","msg":"db","err":"gone"}`+"\n"), 0o600)
	if got := ExitReport("vision", "143", log); !strings.Contains(got, "(status 143): db: gone (log:") {
		t.Errorf("crashed: %q", got)
	}
	if got := ExitReport("vision", "unknown: not started by this shell", log); !strings.Contains(got, "(status unknown: not started by this shell): db: gone") {
		t.Errorf("unknown status: %q", got)
	}
	if signalName(15) != "TERM" || signalName(64) != "RTMAX" || signalName(36) != "RTMIN+2" || signalName(99) != "99" {
		t.Error("signal names")
	}
}

func TestReady(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/readyz":
			w.Write([]byte(`{"status":"ready","service":"wishlist"}`))
		}
	}))
	defer srv.Close()
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	if !Ready(port, "wishlist") {
		t.Error("wishlist is not ready")
	}
	if Ready(port, "family") { // a stranger on the port
		t.Error("family is ready on wishlist's port")
	}
	unready := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`{"service":"wishlist"}`))
	}))
	defer unready.Close()
	if Ready(unready.Listener.Addr().(*net.TCPAddr).Port, "wishlist") {
		t.Error("a 503 is ready")
	}
	if !Answers(srv.Listener.Addr().String()) {
		t.Error("the server does not answer")
	}
}

// A free port: one that was just listened on and closed.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

func TestWaitPortGivesUp(t *testing.T) {
	err := WaitPort("127.0.0.1:"+strconv.Itoa(freePort(t)), "Thing", 0, "/state")
	if err == nil || !strings.HasPrefix(err.Error(), "Thing did not answer on 127.0.0.1:") || !strings.HasSuffix(err.Error(), "(see /state/*.log)") {
		t.Errorf("WaitPort: %v", err)
	}
}

// A service whose process has ended is reported at once, not after the wait.
func TestWaitReadyExited(t *testing.T) {
	free := freePort(t)
	root := writePlan(t, "dev_PUBLIC="+strconv.Itoa(free)+"\ndev_ADMIN="+strconv.Itoa(free)+"\ndev_NATS=1\ndev_SHOP=2\n")
	p, err := LoadPlan(filepath.Join(root, "deploy", "local", "ports.env"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	os.WriteFile(filepath.Join(state, "gateway.pid"), []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o600)
	var stderr bytes.Buffer
	if err := WaitReady(p, "dev", state, "gateway", &stderr); !errors.Is(err, Exited) {
		t.Errorf("WaitReady = %v", err)
	}
}

func TestRunCommands(t *testing.T) {
	_, root := loadFixture(t)
	stateFixture(t, root, "dev")
	var out, errb bytes.Buffer
	if rc := run([]string{"-root", root, "-stack", "dev", "port", "media", "admin"}, &out, &errb); rc != 0 || out.String() != "113\n" {
		t.Errorf("port: %d %q %q", rc, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	if rc := run([]string{"-root", root, "-stack", "smoke", "ports"}, &out, &errb); rc != 2 || errb.String() != "STACK is one of: dev test\n" {
		t.Errorf("unknown profile: %d %q", rc, errb.String())
	}
	errb.Reset()
	if rc := run([]string{"-root", root, "-stack", "dev", "port", "nosuch", "public"}, &out, &errb); rc != 1 || errb.String() != "\033[1;31m[stack]\033[0m no service nosuch\n" {
		t.Errorf("unknown service: %d %q", rc, errb.String())
	}
	errb.Reset()
	if rc := run([]string{"-root", root, "frobnicate"}, &out, &errb); rc != 2 {
		t.Errorf("unknown command: %d %q", rc, errb.String())
	}
}
