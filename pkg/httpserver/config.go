package httpserver

import (
	"time"

	"github.com/santa-wishlist/santa/pkg/config"
)

// OptionsFromEnv reads the settings every service shares: PORT, SHUTDOWN_TIMEOUT and
// DRAIN_DELAY (how long to keep serving while unready after SIGTERM; set it in the cluster to
// cover the endpoints controller's propagation, leave it 0 locally) and IDLE_MEMORY_RELEASE
// (how long requests must pause before unused memory goes back to the system; 0 turns it off)
// and ADMIN_PORT (where /readyz and /metrics are answered instead of PORT, when set), both on
// LISTEN_HOST (empty: every interface, as in a pod; the local stacks use 127.0.0.1 so that
// nobody else on the network reaches the services).
func OptionsFromEnv(env *config.Env, service, defaultPort string) Options {
	host := env.String("LISTEN_HOST", "")
	return Options{
		Service:           service,
		Addr:              host + ":" + env.String("PORT", defaultPort),
		ShutdownTimeout:   env.Duration("SHUTDOWN_TIMEOUT", 20*time.Second),
		DrainDelay:        env.Duration("DRAIN_DELAY", 0),
		IdleMemoryRelease: env.Duration("IDLE_MEMORY_RELEASE", 5*time.Second),
		AdminAddr:         adminAddr(host, env.String("ADMIN_PORT", "")),
	}
}

// adminAddr turns ADMIN_PORT into a listen address; empty keeps /readyz and /metrics on PORT.
func adminAddr(host, port string) string {
	if port == "" {
		return ""
	}
	return host + ":" + port
}
