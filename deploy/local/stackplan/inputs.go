package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// StateFiles are the secrets a stack makes once and keeps in its state folder (.dev/STACK),
// KEY=value lines: the identity keys, the photo address secret, the Web Push key and the NATS
// users' passwords. The renderer gets every variable in them.
var StateFiles = []string{"identity.env", "mediaurl.env", "vapid.env", "nats.env"}

var stateLine = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)=(.*)$`)

// ReadEnvFile reads KEY=value lines (a later line wins, as when a shell sources the file).
func ReadEnvFile(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		m := stateLine.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("%s: not KEY=value: %q", path, line)
		}
		out[m[1]] = m[2]
	}
	return out, sc.Err()
}

// Inputs is what the stack gives deploy/local/serviceenv, under the names it (and
// deploy/local/env.yaml) reads: the secrets in the state files, every service's ports, and the
// stack's addresses. A value the caller exported wins where the stack has only a default
// (PG_URL_ADMIN, REDIS_URL, SMTP_URL, GEMINI_*, MEDIA_QUOTA_IMAGES, REMINDER_INTERVAL).
func Inputs(p *Plan, root, stack string, getenv func(string) string) (map[string]string, error) {
	s, err := p.Resolve(stack)
	if err != nil {
		return nil, err
	}
	state := filepath.Join(root, ".dev", stack)
	in := map[string]string{}
	for _, name := range StateFiles {
		vars, err := ReadEnvFile(filepath.Join(state, name))
		if err != nil {
			return nil, err
		}
		for k, v := range vars {
			in[k] = v
		}
	}
	get := func(k string) string { // what a shell would see here: the files' over the caller's
		if v, ok := in[k]; ok {
			return v
		}
		return getenv(k)
	}
	or := func(k, def string) string {
		if v := get(k); v != "" {
			return v
		}
		return def
	}
	addr := func(key string) string {
		a, e := p.Addr(key)
		if err == nil {
			err = e
		}
		return a
	}
	port := func(key string) string {
		v, e := p.SharedPort(key)
		if err == nil {
			err = e
		}
		return strconv.Itoa(v)
	}
	for i, svc := range Services {
		in["PORT_"+svc] = strconv.Itoa(s.PortBase + i)
		in["ADMIN_PORT_"+svc] = strconv.Itoa(s.AdminBase + i)
	}
	pgAdmin := or("PG_URL_ADMIN", "postgres://postgres@127.0.0.1:"+port("POSTGRES_PORT")+"/postgres?sslmode=disable")
	if i := strings.Index(pgAdmin, "/postgres?"); i >= 0 {
		pgAdmin = pgAdmin[:i]
	}
	in["DATABASE_URL"] = pgAdmin + "/" + s.DBName + "?sslmode=disable"
	// The services reach Redis as the stack's own ACL user (stack.sh's redis_user).
	pass, _ := os.ReadFile(filepath.Join(state, "redis.pass"))
	redis := or("REDIS_URL", "redis://127.0.0.1:"+port("REDIS_PORT")+"/0")
	in["REDIS_URL"] = strings.Replace(redis, "redis://", "redis://santa-"+stack+":"+strings.TrimRight(string(pass), "\n")+"@", 1)
	in["NATS_ADDR"] = s.NATSAddr
	in["EVENTS_NAMESPACE"] = stack
	in["FIREBASE_PROJECT_ID"] = "demo-santa" // the emulator's project (stack.sh's start_emulator)
	in["FIREBASE_AUTH_EMULATOR_HOST"] = addr("AUTH_EMULATOR_PORT")
	in["SMTP_URL"] = or("SMTP_URL", "smtp://"+addr("MAILPIT_SMTP_PORT"))
	in["PUBLIC_URL"] = "http://localhost:" + strconv.Itoa(s.PortBase)
	// A real key (exported by the caller) uses the real Gemini; without one, the fake.
	fake := ""
	if get("GEMINI_API_KEY") == "" {
		fake = "http://" + addr("FAKE_GEMINI_PORT")
	}
	in["GEMINI_BASE_URL"] = or("GEMINI_BASE_URL", fake)
	in["GEMINI_API_KEY"] = or("GEMINI_API_KEY", "fake-dev-key")
	in["MINIO_ENDPOINT"] = addr("MINIO_PORT")
	in["MINIO_ACCESS_KEY"] = "santa"
	in["MINIO_SECRET_KEY"] = "santa-secret-key"
	in["MINIO_BUCKET"] = "santa-" + stack
	in["STACK"] = stack
	// What deploy/local/env.yaml refers to besides those.
	in["FAKE_PRODUCTS_ADDR"] = addr("FAKE_PRODUCTS_PORT")
	in["SHOP_ADDR"] = s.ShopAddr // the e2e suite's local shop
	in["PUSH_ADDR"] = s.PushAddr // the e2e suite's local push service
	in["WEB_DIR"] = ""
	if fi, e := os.Stat(filepath.Join(root, "web", "dist", "index.html")); e == nil && fi.Mode().IsRegular() {
		in["WEB_DIR"] = filepath.Join(root, "web", "dist")
	}
	// Each user's storage quota; the test stack's is small enough for make security to exhaust.
	// Reminders (wishlist, family) scan at start, then this often. The test stack's scan at
	// start only, in effect: a scan in the middle of an e2e test would remind its users of
	// claims whose reveal date is near or of empty shared lists, events the test did not make.
	quota, interval := "500", "5m"
	if stack == "test" {
		quota, interval = "20", "24h"
	}
	in["MEDIA_QUOTA_IMAGES"] = or("MEDIA_QUOTA_IMAGES", quota)
	in["REMINDER_INTERVAL"] = or("REMINDER_INTERVAL", interval)
	return in, err
}

// Environ is environ (KEY=value entries) with the inputs set over it.
func Environ(environ []string, in map[string]string) []string {
	var out []string
	for _, e := range environ {
		k, _, _ := strings.Cut(e, "=")
		if _, ok := in[k]; !ok {
			out = append(out, e)
		}
	}
	for _, k := range sortedKeys(in) {
		out = append(out, k+"="+in[k])
	}
	return out
}
