package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stateFixture is a stack's state folder with its secrets.
func stateFixture(t *testing.T, root, stack string) string {
	t.Helper()
	state := filepath.Join(root, ".dev", stack)
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"identity.env": "IDENTITY_KEY_gateway=k+g=\nIDENTITY_PUB_gateway=p/g=\n",
		"mediaurl.env": "MEDIA_URL_SECRET=ms\n",
		"vapid.env":    "VAPID_PRIVATE_KEY=vk\n",
		"nats.env":     "NATS_PASS_gateway=old\nNATS_PASS_gateway=pg\n",
		"redis.pass":   "rp",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(state, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return state
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestInputsDefaults(t *testing.T) {
	p, root := loadFixture(t)
	stateFixture(t, root, "dev")
	in, err := Inputs(p, root, "dev", env(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"PORT_gateway": "100", "ADMIN_PORT_family": "115",
		"IDENTITY_KEY_gateway": "k+g=", "MEDIA_URL_SECRET": "ms", "VAPID_PRIVATE_KEY": "vk", "NATS_PASS_gateway": "pg",
		"DATABASE_URL": "postgres://postgres@127.0.0.1:5/santa?sslmode=disable",
		"REDIS_URL":    "redis://santa-dev:rp@127.0.0.1:6/0",
		"NATS_ADDR":    "127.0.0.1:120", "EVENTS_NAMESPACE": "dev", "STACK": "dev",
		"FIREBASE_PROJECT_ID": "demo-santa", "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9",
		"SMTP_URL": "smtp://127.0.0.1:12", "PUBLIC_URL": "http://localhost:100",
		"GEMINI_BASE_URL": "http://127.0.0.1:14", "GEMINI_API_KEY": "fake-dev-key",
		"MINIO_ENDPOINT": "127.0.0.1:8", "MINIO_BUCKET": "santa-dev", "MINIO_ACCESS_KEY": "santa", "MINIO_SECRET_KEY": "santa-secret-key",
		"FAKE_PRODUCTS_ADDR": "127.0.0.1:15", "SHOP_ADDR": "127.0.0.3:130", "PUSH_ADDR": "127.0.0.4:108",
		"WEB_DIR": "", "MEDIA_QUOTA_IMAGES": "500", "REMINDER_INTERVAL": "5m",
	}
	for k, v := range want {
		if got, ok := in[k]; !ok || got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
}

func TestInputsFromTheCaller(t *testing.T) {
	p, root := loadFixture(t)
	stateFixture(t, root, "test")
	if err := os.MkdirAll(filepath.Join(root, "web", "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "web", "dist", "index.html"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	in, err := Inputs(p, root, "test", env(map[string]string{
		"PG_URL_ADMIN": "postgres://u:p@db:1/postgres?sslmode=require", "REDIS_URL": "redis://r:2/3",
		"GEMINI_API_KEY": "real", "SMTP_URL": "smtp://s", "NATS_PASS_gateway": "the file's wins",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"DATABASE_URL": "postgres://u:p@db:1/santa_test?sslmode=disable", "REDIS_URL": "redis://santa-test:rp@r:2/3",
		"GEMINI_API_KEY": "real", "GEMINI_BASE_URL": "", "SMTP_URL": "smtp://s", "NATS_PASS_gateway": "pg",
		"WEB_DIR": filepath.Join(root, "web", "dist"), "MEDIA_QUOTA_IMAGES": "20", "REMINDER_INTERVAL": "24h",
	}
	for k, v := range want {
		if in[k] != v {
			t.Errorf("%s = %q, want %q", k, in[k], v)
		}
	}
}

func TestInputsNeedTheSecrets(t *testing.T) {
	p, root := loadFixture(t)
	state := stateFixture(t, root, "dev")
	os.Remove(filepath.Join(state, "vapid.env"))
	if _, err := Inputs(p, root, "dev", env(nil)); err == nil || !strings.Contains(err.Error(), "vapid.env") {
		t.Errorf("without vapid.env: %v", err)
	}
}

func TestEnviron(t *testing.T) {
	got := Environ([]string{"A=1", "B=2", "PATH=/bin"}, map[string]string{"B": "3", "C": ""})
	if strings.Join(got, " ") != "A=1 PATH=/bin B=3 C=" {
		t.Errorf("Environ = %q", got)
	}
}

func TestNATS(t *testing.T) {
	p, root := loadFixture(t)
	state := stateFixture(t, root, "dev")
	s, _ := p.Resolve("dev")
	pass, err := EnsureNATSPasswords(filepath.Join(state, "nats.env"))
	if err != nil {
		t.Fatal(err)
	}
	if pass["NATS_PASS_gateway"] != "pg" {
		t.Errorf("an existing password changed: %q", pass["NATS_PASS_gateway"])
	}
	for _, u := range NATSUsers {
		if len(pass["NATS_PASS_"+u]) != 36 && u != "gateway" {
			t.Errorf("%s: password %q", u, pass["NATS_PASS_"+u])
		}
	}
	again, _ := EnsureNATSPasswords(filepath.Join(state, "nats.env"))
	if again["NATS_PASS_observer"] != pass["NATS_PASS_observer"] {
		t.Error("a password was made again")
	}
	conf := NATSConf(s, state, pass)
	for _, want := range []string{
		"listen: 127.0.0.1:120\n",
		`jetstream { store_dir: "` + state + `/nats-js" }`,
		`{ user: gateway, password: "pg",` + "\n" + `      permissions: { publish: ["$JS.API.>", "$JS.ACK.>", "dev.user.erased"], subscribe: ["_INBOX.>"] } }`,
		`publish: ["$JS.API.>", "$JS.ACK.>", "dev.user.erased", "dev.notify.user.>"], subscribe: ["_INBOX.>", "dev.notify.user.>"]`,
		`publish: ["dev.item.>", "dev.santa.>", "dev.list.>", "dev.user.>", "dev.reminder.shopping", "dev.reminder.list_empty", "$JS.API.>", "$JS.ACK.>"]`,
	} {
		if !strings.Contains(conf, want) {
			t.Errorf("no %q in\n%s", want, conf)
		}
	}
	if url, err := NATSURL(s, state, "gateway"); err != nil || url != "nats://gateway:pg@127.0.0.1:120" {
		t.Errorf("nats-url gateway: %q %v", url, err)
	}
	if url, err := NATSURL(s, state, "nobody"); err != nil || url != "" {
		t.Errorf("nats-url nobody: %q %v", url, err)
	}
}

func TestFirebaseJSON(t *testing.T) {
	p, _ := loadFixture(t)
	js, err := FirebaseJSON(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js, `"auth": { "host": "127.0.0.1", "port": 9 }`) || !strings.Contains(js, `"logging": { "host": "127.0.0.1", "port": 11 }`) {
		t.Errorf("firebase.json:\n%s", js)
	}
}
