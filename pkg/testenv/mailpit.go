package testenv

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// MailpitServer is a real SMTP server with an HTTP API (github.com/axllent/mailpit), owned by
// one test, so the messages it holds are exactly the test's.
type MailpitServer struct {
	SMTPAddr string // host:port
	APIURL   string // http://host:port
}

// MailpitBin is the mailpit binary: $MAILPIT_BIN, else mailpit on PATH, else the one
// deploy/local/stack.sh installs.
func MailpitBin() string {
	if b := os.Getenv("MAILPIT_BIN"); b != "" {
		return b
	}
	if b, err := exec.LookPath("mailpit"); err == nil {
		return b
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "santa", "bin", "mailpit")
}

func freePort(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// StartMailpit starts a private Mailpit on free ports; it fails (never skips) when the binary
// is missing.
func StartMailpit(t testing.TB) *MailpitServer {
	t.Helper()
	bin := MailpitBin()
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("mailpit not found at %s: run `deploy/local/stack.sh install` or set MAILPIT_BIN", bin)
	}
	var errs []error
	for range 3 {
		m, err := startMailpit(t, bin)
		if err == nil {
			return m
		}
		errs = append(errs, err)
	}
	t.Fatalf("mailpit did not start: %v", errors.Join(errs...))
	return nil
}

// startMailpit makes one attempt. A port is free when freePort picks it, but another process
// (the packages' tests run side by side) can take it before Mailpit binds it; Mailpit then
// exits, and StartMailpit tries again on other ports.
func startMailpit(t testing.TB, bin string) (*MailpitServer, error) {
	m := &MailpitServer{SMTPAddr: freePort(t)}
	api := freePort(t)
	m.APIURL = "http://" + api
	var out bytes.Buffer // what Mailpit said, for the failure message
	cmd := exec.Command(bin, "--smtp", m.SMTPAddr, "--listen", api, "--database", filepath.Join(t.TempDir(), "mailpit.db"), "--quiet")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start mailpit: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	ready := func() error {
		c, err := net.DialTimeout("tcp", m.SMTPAddr, time.Second)
		if err != nil {
			return err
		}
		_ = c.Close()
		_, err = m.Messages()
		return err
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		select {
		case err := <-exited:
			return nil, fmt.Errorf("mailpit on %s and %s exited (%v): %s", m.SMTPAddr, api, err, out.String())
		default:
		}
		err := ready()
		if err == nil {
			t.Cleanup(func() { _ = cmd.Process.Kill(); <-exited })
			return m, nil
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			<-exited
			return nil, fmt.Errorf("mailpit on %s and %s not ready in 20s: %v: %s", m.SMTPAddr, api, err, out.String())
		}
	}
}

// SMTPURL is the address services are configured with.
func (m *MailpitServer) SMTPURL() string { return "smtp://" + m.SMTPAddr }

// MailpitMessage is one delivered message as Mailpit's API lists it.
type MailpitMessage struct {
	ID        string
	MessageID string
	Subject   string
	To        []struct{ Name, Address string }
}

// Messages lists every delivered message, newest first.
func (m *MailpitServer) Messages() ([]MailpitMessage, error) {
	var out struct{ Messages []MailpitMessage }
	return out.Messages, m.get("/api/v1/messages", &out)
}

// MailpitBody is a message's text and HTML.
type MailpitBody struct {
	Text, HTML string
}

// Message reads one message's bodies.
func (m *MailpitServer) Message(id string) (MailpitBody, error) {
	var out MailpitBody
	return out, m.get("/api/v1/message/"+id, &out)
}

// Headers reads one message's headers (List-Unsubscribe and the like), as sent.
func (m *MailpitServer) Headers(id string) (map[string][]string, error) {
	out := map[string][]string{}
	return out, m.get("/api/v1/message/"+id+"/headers", &out)
}

// To lists the delivered messages to one address, newest first.
func (m *MailpitServer) To(address string) ([]MailpitMessage, error) {
	all, err := m.Messages()
	var out []MailpitMessage
	for _, msg := range all {
		for _, to := range msg.To {
			if strings.EqualFold(to.Address, address) {
				out = append(out, msg)
			}
		}
	}
	return out, err
}

func (m *MailpitServer) get(path string, out any) error {
	resp, err := http.Get(m.APIURL + path)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("mailpit %s: %s", path, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}
