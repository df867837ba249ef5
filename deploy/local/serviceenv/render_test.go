package main

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const fixtureValues = `
config: {logLevel: info, shutdownTimeoutSeconds: 20}
image: {registry: ""}          # keys the environment does not depend on are ignored
services:
  gateway:
    uses: [redis, firebase, nats]
    calls: [wishlist, media]
    env: {WEB_DIR: /app/web, MAX_STREAMS: "10000"}
  wishlist:
    uses: [postgresql, nats]
    calls: [media]
    env: {}
  media:
    uses: [nats, minio]
    calls: []
  notification:
    uses: [smtp, webpush, firebase]
    calls: []
`

const fixtureLocal = `
env:
  LISTEN_HOST: 127.0.0.1
  GOMEMLIMIT: ${GOMEMLIMIT:-off}
services:
  gateway:
    env:
      WEB_DIR: ${WEB_DIR}
      MAX_STREAMS: null
      REDIS_KEY_PREFIX: gw-${STACK}
  media:
    env:
      GOMEMLIMIT: ${GOMEMLIMIT:-100MiB}
`

// inputs is a complete local stack for the fixture.
func inputs(extra map[string]string) func(string) string {
	m := map[string]string{
		"PORT_gateway": "1000", "ADMIN_PORT_gateway": "1010", "PORT_wishlist": "1001", "ADMIN_PORT_wishlist": "1011",
		"PORT_media": "1002", "ADMIN_PORT_media": "1012", "PORT_notification": "1003", "ADMIN_PORT_notification": "1013",
		"DATABASE_URL": "postgres://db", "REDIS_URL": "redis://r", "NATS_ADDR": "127.0.0.1:4", "EVENTS_NAMESPACE": "dev",
		"NATS_PASS_gateway": "pg", "NATS_PASS_wishlist": "pw", "NATS_PASS_media": "pm",
		"MINIO_ENDPOINT": "127.0.0.1:9", "MINIO_BUCKET": "b", "MINIO_ACCESS_KEY": "ak", "MINIO_SECRET_KEY": "sk",
		"FIREBASE_PROJECT_ID": "demo-santa", "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:5",
		"SMTP_URL": "smtp://127.0.0.1:6", "PUBLIC_URL": "http://localhost:1000", "VAPID_PRIVATE_KEY": "vk",
		"IDENTITY_KEY_gateway": "kg", "IDENTITY_PUB_gateway": "Pg", "IDENTITY_KEY_wishlist": "kw", "IDENTITY_PUB_wishlist": "Pw",
		"MEDIA_URL_SECRET": "ms", "STACK": "dev", "WEB_DIR": "/src/web/dist",
	}
	for k, v := range extra {
		m[k] = v
	}
	return func(k string) string { return m[k] }
}

func fixture(t *testing.T) (*Values, *Local) {
	t.Helper()
	dir := t.TempDir()
	vp, lp := filepath.Join(dir, "values.yaml"), filepath.Join(dir, "local.yaml")
	if err := os.WriteFile(vp, []byte(fixtureValues), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lp, []byte(fixtureLocal), 0o600); err != nil {
		t.Fatal(err)
	}
	v, err := LoadValues(vp)
	if err != nil {
		t.Fatal(err)
	}
	l, err := LoadLocal(lp, v)
	if err != nil {
		t.Fatal(err)
	}
	return v, l
}

func render(t *testing.T, v *Values, l *Local, name string, in func(string) string) map[string]string {
	t.Helper()
	env, err := Render(v, l, name, in)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

func TestRenderFollowsUsesCallsAndEnv(t *testing.T) {
	v, l := fixture(t)
	got := Lines(render(t, v, l, "gateway", inputs(nil)))
	want := `ADMIN_PORT=1010
ALLOW_AUTH_EMULATOR=true
AUTH_EMULATOR_PUBLIC_URL=http://127.0.0.1:5
EVENTS_NAMESPACE=dev
FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:5
FIREBASE_PROJECT_ID=demo-santa
GOMEMLIMIT=off
IDENTITY_SIGNING_KEY=kg
LISTEN_HOST=127.0.0.1
LOG_LEVEL=info
MEDIA_URL=http://127.0.0.1:1002
NATS_URL=nats://gateway:pg@127.0.0.1:4
PORT=1000
REDIS_KEY_PREFIX=gw-dev
REDIS_URL=redis://r
SHUTDOWN_TIMEOUT=20s
WEB_DIR=/src/web/dist
WISHLIST_URL=http://127.0.0.1:1001
`
	if got != want {
		t.Errorf("gateway:\n%s\nwant:\n%s", got, want)
	}

	// Media: only it gets the object storage's keys; it trusts the gateway and its callers.
	media := render(t, v, l, "media", inputs(map[string]string{"GOMEMLIMIT": ""}))
	if media["MINIO_SECRET_KEY"] != "sk" || media["MINIO_USE_SSL"] != "false" || media["MEDIA_URL_SECRET"] != "ms" {
		t.Errorf("media: %v", media)
	}
	if media["IDENTITY_PUBLIC_KEYS"] != "gateway=Pg,wishlist=Pw" || media["IDENTITY_SIGNING_KEY"] != "" {
		t.Errorf("media's identity settings: %v", media)
	}
	if media["GOMEMLIMIT"] != "100MiB" {
		t.Errorf("media's own GOMEMLIMIT should win over every service's: %q", media["GOMEMLIMIT"])
	}
	if got := render(t, v, l, "media", inputs(map[string]string{"GOMEMLIMIT": "300MiB"}))["GOMEMLIMIT"]; got != "300MiB" {
		t.Errorf("a GOMEMLIMIT given to the stack should reach media: %q", got)
	}

	// Wishlist calls media: it signs, and shares the photo address secret; it has no Redis.
	w := render(t, v, l, "wishlist", inputs(nil))
	if w["IDENTITY_SIGNING_KEY"] != "kw" || w["MEDIA_URL_SECRET"] != "ms" || w["IDENTITY_PUBLIC_KEYS"] != "gateway=Pg" {
		t.Errorf("wishlist: %v", w)
	}
	for _, k := range []string{"REDIS_URL", "MINIO_SECRET_KEY", "VAPID_PRIVATE_KEY", "SMTP_URL", "REDIS_KEY_PREFIX", "WEB_DIR"} {
		if _, ok := w[k]; ok {
			t.Errorf("wishlist gets %s, which only another service uses", k)
		}
	}

	n := render(t, v, l, "notification", inputs(nil))
	if n["VAPID_PRIVATE_KEY"] != "vk" || n["SMTP_URL"] == "" || n["PUBLIC_URL"] == "" || n["ALLOW_AUTH_EMULATOR"] != "true" {
		t.Errorf("notification: %v", n)
	}
	if _, ok := n["AUTH_EMULATOR_PUBLIC_URL"]; ok {
		t.Error("only the gateway hands the emulator's address to browsers")
	}
	// Without an SMTP server no email is sent, and its companions are left out with it.
	n = render(t, v, l, "notification", inputs(map[string]string{"SMTP_URL": ""}))
	if _, ok := n["PUBLIC_URL"]; ok {
		t.Errorf("PUBLIC_URL without SMTP_URL: %v", n)
	}
}

func TestLocalValuesUnsetWhenEmpty(t *testing.T) {
	v, l := fixture(t)
	gw := render(t, v, l, "gateway", inputs(map[string]string{"WEB_DIR": ""}))
	if _, ok := gw["WEB_DIR"]; ok {
		t.Errorf("an empty local WEB_DIR should unset the chart's /app/web, got %q", gw["WEB_DIR"])
	}
	if _, ok := gw["MAX_STREAMS"]; ok {
		t.Error("null in the local file should unset the chart's MAX_STREAMS")
	}
}

func TestMissingInputsAreNamed(t *testing.T) {
	v, l := fixture(t)
	_, err := Render(v, l, "wishlist", inputs(map[string]string{"DATABASE_URL": "", "IDENTITY_PUB_gateway": ""}))
	if err == nil || !strings.Contains(err.Error(), "DATABASE_URL, IDENTITY_PUB_gateway") {
		t.Fatalf("want both missing inputs named, got %v", err)
	}
	if _, err := Render(v, l, "payments", inputs(nil)); err == nil || !strings.Contains(err.Error(), "gateway, media") {
		t.Fatalf("an unknown service should list the known ones, got %v", err)
	}
	v.Services["media"] = Service{Uses: []string{"kafka"}}
	if _, err := Render(v, l, "media", inputs(nil)); err == nil || !strings.Contains(err.Error(), "kafka") {
		t.Fatalf("an unknown use should fail, got %v", err)
	}
}

func TestLocalFileIsStrict(t *testing.T) {
	v, _ := fixture(t)
	dir := t.TempDir()
	for name, body := range map[string]string{
		"unknown key":     "services:\n  gateway:\n    enb: {A: b}\n",
		"unknown service": "services:\n  payments:\n    env: {A: b}\n",
	} {
		p := filepath.Join(dir, "l.yaml")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadLocal(p, v); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestExpand(t *testing.T) {
	in := inputs(map[string]string{"A": "x", "E": ""})
	for s, want := range map[string]string{
		"${A}":          "x",
		"${E}":          "",
		"${E:-d}":       "d",
		"${A:-d}":       "x",
		"${NONE:-a,b}":  "a,b",
		"p-${A}-${A}":   "p-x-x",
		"$A and ${A":    "$A and ${A",
		"http://${A}/y": "http://x/y",
	} {
		if got := expand(s, in); got != want {
			t.Errorf("expand(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestSigners(t *testing.T) {
	v, _ := fixture(t)
	if got := strings.Join(v.Signers(), " "); got != "gateway wishlist" {
		t.Errorf("signers %q", got)
	}
}

// The repository's own files load, and every service renders from a complete local stack.
func TestRepositoryFilesRender(t *testing.T) {
	v, err := LoadValues("../../../charts/santa-wishlist/values.yaml")
	if err != nil {
		t.Fatal(err)
	}
	l, err := LoadLocal("../env.yaml", v)
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]string{}
	for _, s := range slices.Sorted(maps.Keys(v.Services)) {
		all["PORT_"+s], all["ADMIN_PORT_"+s], all["NATS_PASS_"+s] = "1", "2", "p"
		all["IDENTITY_KEY_"+s], all["IDENTITY_PUB_"+s] = "k", "P"
	}
	for _, k := range []string{"DATABASE_URL", "REDIS_URL", "NATS_ADDR", "MINIO_ENDPOINT", "MINIO_BUCKET", "MINIO_ACCESS_KEY",
		"MINIO_SECRET_KEY", "FIREBASE_PROJECT_ID", "VAPID_PRIVATE_KEY", "MEDIA_URL_SECRET"} {
		all[k] = "x"
	}
	for _, s := range slices.Sorted(maps.Keys(v.Services)) {
		if _, err := Render(v, l, s, inputs(all)); err != nil {
			t.Error(err)
		}
	}
}
