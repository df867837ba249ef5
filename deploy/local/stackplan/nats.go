package main

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// NATSUsers are the users of a stack's own NATS: one per service, and "observer" for the
// end-to-end tests that read the stream.
var NATSUsers = []string{"wishlist", "media", "notification", "family", "gateway", "vision", "observer"}

// EnsureNATSPasswords gives each user that has none yet a password in path (NATS_PASS_<user>
// lines, made once per stack: a checkout from before a user was added gets the new one), and
// returns the file's variables.
func EnsureNATSPasswords(path string) (map[string]string, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	have := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, _, ok := strings.Cut(sc.Text(), "="); ok {
			have[k] = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, u := range NATSUsers {
		if have["NATS_PASS_"+u] {
			continue
		}
		b := make([]byte, 18)
		if _, err := rand.Read(b); err != nil {
			return nil, err
		}
		if _, err := fmt.Fprintf(f, "NATS_PASS_%s=%s\n", u, hex.EncodeToString(b)); err != nil {
			return nil, err
		}
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	return ReadEnvFile(path)
}

// NATSConf is the configuration of the stack's own NATS: a user and password per service, with
// publish/subscribe permissions per subject, so that no service (and nobody without a
// password) can publish another's events, such as a forged item.deleted.
func NATSConf(s *Stack, state string, pass map[string]string) string {
	ns := s.Name
	js, ack, inbox, erased := `"$JS.API.>"`, `"$JS.ACK.>"`, `"_INBOX.>"`, `"`+ns+`.user.erased"`
	q := func(subjects ...string) string { // quoted subjects, as a list
		for i, sub := range subjects {
			subjects[i] = `"` + ns + "." + sub + `"`
		}
		return strings.Join(subjects, ", ")
	}
	user := func(name, publish, subscribe string) string {
		return fmt.Sprintf("    { user: %s, password: \"%s\",\n      permissions: { publish: [%s], subscribe: [%s] } }\n",
			name, pass["NATS_PASS_"+name], publish, subscribe)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "listen: %s\njetstream { store_dir: \"%s\" }\nauthorization {\n  users: [\n", s.NATSAddr, filepath.Join(state, "nats-js"))
	b.WriteString(user("wishlist", q("item.>", "santa.>", "list.>", "user.>", "reminder.shopping", "reminder.list_empty")+", "+js+", "+ack, inbox))
	b.WriteString(user("family", q("family.>", "secretsanta.>", "reminder.draw_soon", "reminder.exchange_soon")+", "+erased+", "+js+", "+ack, inbox))
	b.WriteString(user("media", js+", "+ack+", "+erased, inbox))
	b.WriteString(user("notification", js+", "+ack+", "+erased+", "+q("notify.user.>"), inbox+", "+q("notify.user.>")))
	b.WriteString(user("gateway", js+", "+ack+", "+erased, inbox))
	b.WriteString(user("vision", js+", "+ack+", "+erased, inbox))
	b.WriteString(user("observer", js+", "+ack, inbox))
	b.WriteString("  ]\n}\n")
	return b.String()
}

// NATSURL is the URL of a user of the stack's NATS (stack.sh nats-url, for tests), empty for
// a user without a password.
func NATSURL(s *Stack, state, user string) (string, error) {
	vars, err := ReadEnvFile(filepath.Join(state, "nats.env"))
	if err != nil {
		return "", err
	}
	pass := vars["NATS_PASS_"+user]
	if pass == "" {
		return "", nil
	}
	return "nats://" + user + ":" + pass + "@" + s.NATSAddr, nil
}

// FirebaseJSON is the emulator's configuration (firebase reads firebase.json from its working
// directory), from the port plan.
func FirebaseJSON(p *Plan) (string, error) {
	var ports [3]int
	for i, key := range []string{"AUTH_EMULATOR_PORT", "AUTH_EMULATOR_HUB_PORT", "AUTH_EMULATOR_LOGGING_PORT"} {
		v, err := p.SharedPort(key)
		if err != nil {
			return "", err
		}
		ports[i] = v
	}
	return fmt.Sprintf(`{
  "emulators": {
    "auth": { "host": "127.0.0.1", "port": %d },
    "hub": { "host": "127.0.0.1", "port": %d },
    "logging": { "host": "127.0.0.1", "port": %d },
    "ui": { "enabled": false },
    "singleProjectMode": true
  }
}
`, ports[0], ports[1], ports[2]), nil
}
