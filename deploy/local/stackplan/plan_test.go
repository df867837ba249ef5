package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const fixturePlan = `# a comment
POSTGRES_PORT=5
REDIS_PORT=6
NATS_PORT=7
MINIO_PORT=8
AUTH_EMULATOR_PORT=9
AUTH_EMULATOR_HUB_PORT=10 # beside it
AUTH_EMULATOR_LOGGING_PORT=11
MAILPIT_SMTP_PORT=12
MAILPIT_HTTP_PORT=13
FAKE_GEMINI_PORT=14
FAKE_PRODUCTS_PORT=15

dev_PUBLIC=100
dev_ADMIN=110
dev_NATS=120
dev_SHOP=130

test_PUBLIC=200
test_ADMIN=210
test_NATS=220
test_SHOP=230
`

func writePlan(t *testing.T, text string) (root string) {
	t.Helper()
	root = t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "deploy", "local"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "deploy", "local", "ports.env"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return root
}

func loadFixture(t *testing.T) (*Plan, string) {
	t.Helper()
	root := writePlan(t, fixturePlan)
	p, err := LoadPlan(filepath.Join(root, "deploy", "local", "ports.env"))
	if err != nil {
		t.Fatal(err)
	}
	return p, root
}

func TestListeners(t *testing.T) {
	p, _ := loadFixture(t)
	ls, err := p.Listeners()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(ls, "\n")
	for _, want := range []string{
		"shared postgres 5", "shared auth-emulator-hub 10", "shared fake-products 15",
		"dev gateway 100", "dev gateway-admin 110", "dev family 105", "dev family-admin 115",
		"dev nats 120", "dev shop 130", "test vision 202", "test shop 230",
	} {
		if !strings.Contains(got+"\n", want+"\n") {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	// The shared ones once, first, in the file's order; then each profile's 14.
	if len(ls) != 11+2*14 || ls[0] != "shared postgres 5" || ls[11] != "dev gateway 100" {
		t.Errorf("listeners:\n%s", got)
	}
}

func TestResolve(t *testing.T) {
	p, _ := loadFixture(t)
	dev, err := p.Resolve("dev")
	if err != nil {
		t.Fatal(err)
	}
	if dev.DBName != "santa" || dev.PortBase != 100 || dev.AdminBase != 110 || dev.NATSAddr != "127.0.0.1:120" ||
		dev.ShopAddr != "127.0.0.3:130" || dev.PushAddr != "127.0.0.4:108" {
		t.Errorf("dev: %+v", dev)
	}
	test, _ := p.Resolve("test")
	if test.DBName != "santa_test" {
		t.Errorf("test's database: %s", test.DBName)
	}
	if _, err := p.Resolve("prod"); err == nil || err.Error() != "STACK is one of: dev test" {
		t.Errorf("an unknown profile: %v", err)
	}
	if port, err := p.ServicePort("test", "notification", true); err != nil || port != 214 {
		t.Errorf("test notification admin: %d %v", port, err)
	}
	if _, err := p.ServicePort("test", "nosuch", false); err == nil || err.Error() != "no service nosuch" {
		t.Errorf("an unknown service: %v", err)
	}
}

func TestShellVars(t *testing.T) {
	p, _ := loadFixture(t)
	vars, err := p.ShellVars("test")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"POSTGRES_PORT=5\n", "PORT_BASE=200\n", "ADMIN_BASE=210\n", "DB_NAME=santa_test\n",
		"NATS_STACK_ADDR=127.0.0.1:220\n", "MINIO_ADDR=127.0.0.1:8\n", "EMULATOR_HOST=127.0.0.1:9\n", "FAKE_GEMINI_ADDR=127.0.0.1:14\n"} {
		if !strings.Contains(vars, want) {
			t.Errorf("no %q in\n%s", want, vars)
		}
	}
}

// The file is sourced by shells too: anything but plain NAME=number is refused, and so is a
// name set twice (the later would silently win).
func TestLoadPlanRefuses(t *testing.T) {
	for _, text := range []string{"A_PORT=$B\n", "A_PORT=1\nA_PORT=2\n", "export A_PORT=1\n", "dev_PUBLIC=80 80\n"} {
		root := writePlan(t, text)
		if _, err := LoadPlan(filepath.Join(root, "deploy", "local", "ports.env")); err == nil {
			t.Errorf("%q: no error", text)
		}
	}
}

// A profile without one of its settings is named in the error.
func TestPlannedMissing(t *testing.T) {
	root := writePlan(t, "dev_PUBLIC=1\ndev_ADMIN=2\ndev_NATS=3\n")
	p, err := LoadPlan(filepath.Join(root, "deploy", "local", "ports.env"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Listeners(); err == nil || !strings.Contains(err.Error(), "no SHOP for the profile dev") {
		t.Errorf("missing SHOP: %v", err)
	}
}
