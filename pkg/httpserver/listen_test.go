package httpserver

import (
	"testing"

	"github.com/santa-wishlist/santa/pkg/config"
)

// The local stacks bind to 127.0.0.1 (LISTEN_HOST), both the API and the admin port; a pod
// leaves it empty and listens on every interface.
func TestListenHostBindsBothPorts(t *testing.T) {
	t.Setenv("LISTEN_HOST", "127.0.0.1")
	t.Setenv("PORT", "18081")
	t.Setenv("ADMIN_PORT", "18091")
	o := OptionsFromEnv(config.New(), "wishlist", "8081")
	if o.Addr != "127.0.0.1:18081" || o.AdminAddr != "127.0.0.1:18091" {
		t.Fatalf("addresses %q and %q", o.Addr, o.AdminAddr)
	}
	t.Setenv("LISTEN_HOST", "")
	if o := OptionsFromEnv(config.New(), "wishlist", "8081"); o.Addr != ":18081" || o.AdminAddr != ":18091" {
		t.Fatalf("without LISTEN_HOST: %q and %q", o.Addr, o.AdminAddr)
	}
}
