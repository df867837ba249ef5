package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// tick is how often a wait looks again.
const tick = 100 * time.Millisecond

// Answers is true when something accepts a TCP connection on addr.
func Answers(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// WaitPort waits up to seconds for addr to answer; name says what was started there.
func WaitPort(addr, name string, seconds int, state string) error {
	for i := 0; i < seconds*10; i++ {
		if Answers(addr) {
			return nil
		}
		time.Sleep(tick)
	}
	return fmt.Errorf("%s did not answer on %s (see %s/*.log)", name, addr, state)
}

var readyClient = &http.Client{
	Timeout: 3 * time.Second,
	// The answer itself, as curl without -L sees it.
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// Ready is true when the admin port answers /readyz as ready with the service's own name (a
// stranger on the port, such as another stack's program, cannot pass for it).
func Ready(adminPort int, service string) bool {
	resp, err := readyClient.Get("http://127.0.0.1:" + strconv.Itoa(adminPort) + "/readyz")
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return err == nil && resp.StatusCode < 400 && bytes.Contains(body, []byte(`"service":"`+service+`"`))
}

// Exited is the answer of WaitReady when the service's process ended before it was ready.
var Exited = fmt.Errorf("exited")

// alive is true while the process in pidFile runs; false once it has ended. Without a pid file
// the service is not known to have ended.
func alive(pidFile string) bool {
	b, err := os.ReadFile(pidFile)
	if err != nil {
		return true
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	return err == nil && syscall.Kill(pid, 0) == nil
}

// readyWithin is how long a service has to become ready. A service is ready in about a second on
// a quiet machine; the limit is for a busy one (make test builds the cluster beside the stack),
// where the shell loop this replaced, with a curl per try, allowed about 45 s in practice.
const readyWithin = 60 * time.Second

// WaitReady waits up to readyWithin for the service to be ready; Exited when its process ends first.
// Otherwise the error says which port did not answer, after the log's last lines.
func WaitReady(p *Plan, stack, state, service string, stderr io.Writer) error {
	pub, err := p.ServicePort(stack, service, false)
	if err != nil {
		return err
	}
	adm, _ := p.ServicePort(stack, service, true)
	for deadline := time.Now().Add(readyWithin); time.Now().Before(deadline); {
		if Ready(adm, service) {
			return nil
		}
		if !alive(state + "/" + service + ".pid") {
			return Exited
		}
		time.Sleep(tick)
	}
	log, _ := os.ReadFile(state + "/" + service + ".log")
	stderr.Write(tail(log, 20))
	return fmt.Errorf("%s is not ready on %d: its admin port %d does not answer /readyz as %s (see %s/%s.log)", service, pub, adm, service, state, service)
}

// tail is the last n lines of b, as tail -n prints them.
func tail(b []byte, n int) []byte {
	end := len(b)
	if end > 0 && b[end-1] == '\n' {
		end--
	}
	i := end
	for ; i > 0; i-- {
		if b[i-1] == '\n' {
			if n--; n == 0 {
				break
			}
		}
	}
	return b[i:]
}

// lastLine is tail -1 of b, without its line break.
func lastLine(b []byte) string { return strings.TrimRight(string(tail(b, 1)), "\n") }

var (
	errorLine = regexp.MustCompile(`"level":"(ERROR|FATAL)"|panic|fatal`)
	crashLine = regexp.MustCompile(`"level":"(ERROR|FATAL)"|panic`)
	msgField  = regexp.MustCompile(`.*"msg":"([^"]*)"`)
	errField  = regexp.MustCompile(`.*"err(or)?":"([^"]*)"`)
)

// Why is the service's last error in one line (its JSON log's msg and err), else its log's
// last line (cut at 300 characters). Log lines start with "[service] ".
func Why(log []byte, service string) string {
	line := ""
	for _, l := range strings.Split(strings.TrimSuffix(string(log), "\n"), "\n") {
		if errorLine.MatchString(l) {
			line = l
		}
	}
	if line == "" {
		line = lastLine(log)
	}
	line = strings.TrimPrefix(line, "["+service+"] ")
	msg, err := "", ""
	if m := msgField.FindStringSubmatch(line); m != nil {
		msg = m[1]
	}
	if m := errField.FindStringSubmatch(line); m != nil {
		err = m[2]
	}
	switch {
	case msg != "" && err != "":
		return msg + ": " + err
	case msg+err != "":
		return msg + err
	}
	if utf8.RuneCountInString(line) > 300 {
		return string([]rune(line)[:300])
	}
	return line
}

// signals are Linux's signal names, as bash's kill -l prints them.
var signals = strings.Fields("HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM STKFLT CHLD CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO PWR SYS")

func signalName(n int) string {
	switch {
	case n >= 1 && n <= len(signals):
		return signals[n-1]
	case n == 34:
		return "RTMIN"
	case n >= 35 && n <= 49:
		return "RTMIN+" + strconv.Itoa(n-34)
	case n >= 50 && n <= 63:
		return "RTMAX-" + strconv.Itoa(64-n)
	case n == 64:
		return "RTMAX"
	}
	return strconv.Itoa(n)
}

// ExitReport is the one line that says a service ended, with its status (as the shell that
// started it saw it) and why; killed by a signal (137: SIGKILL, the out-of-memory killer's
// too), that is the reason, unless the log's end shows a crash of its own.
func ExitReport(service, status, logPath string) string {
	log, _ := os.ReadFile(logPath)
	why := Why(log, service)
	if n, err := strconv.Atoi(status); err == nil && n > 128 && !crashLine.Match(tail(log, 5)) {
		why = "killed by SIG" + signalName(n-128)
	}
	return fmt.Sprintf("\033[1;31m[stack]\033[0m %s exited (status %s): %s (log: %s)\n", service, status, why, logPath)
}

var ssUser = regexp.MustCompile(`.*users:\(\(("[^"]*"),pid=([0-9]*).*`)

// holder names the program listening on port, as ss shows it ("name" (pid N)), or "".
func holder(port int) string {
	out, _ := exec.Command("ss", "-Hltnp", "sport = :"+strconv.Itoa(port)).Output()
	for _, l := range strings.Split(string(out), "\n") {
		if m := ssUser.FindStringSubmatch(l); m != nil {
			return m[1] + " (pid " + m[2] + ")"
		}
	}
	return ""
}

// PortsFree is nil when no program holds a port the stack's services (those built in bin)
// are about to listen on.
func PortsFree(p *Plan, stack, bin string, services []string) error {
	for _, s := range services {
		if syscall.Access(bin+"/"+s, 1) != nil { // not built: not started
			continue
		}
		for _, admin := range []bool{false, true} {
			port, err := p.ServicePort(stack, s, admin)
			if err != nil {
				return err
			}
			if !Answers("127.0.0.1:" + strconv.Itoa(port)) {
				continue
			}
			who := holder(port)
			if who == "" {
				who = "another program"
			}
			return fmt.Errorf("port %d, which %s needs (deploy/local/ports.env, STACK=%s), is held by %s: stop it, or is this stack already running?", port, s, stack, who)
		}
	}
	return nil
}
