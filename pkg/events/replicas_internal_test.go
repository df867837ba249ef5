package events

import (
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/santa-wishlist/santa/pkg/config"
)

// The stream's replica count survives the namespace being set before or after it: a service
// that lost it would scale an R3 stream down to one copy at its next start.
func TestReplicasSurviveTheNamespace(t *testing.T) {
	var js jetstream.JetStream
	cases := map[string]struct {
		js   jetstream.JetStream
		want int
	}{
		"none given":      {InNamespace(js, "test"), 1},
		"then namespace":  {InNamespace(WithReplicas(js, 3), "test"), 3},
		"after namespace": {WithReplicas(InNamespace(js, "test"), 3), 3},
		"namespace twice": {InNamespace(InNamespace(WithReplicas(js, 3), "a"), "b"), 3},
	}
	for name, c := range cases {
		if got := replicasOf(c.js); got != c.want {
			t.Errorf("%s: %d replicas, want %d", name, got, c.want)
		}
		if _, nested := c.js.(namespaced).JetStream.(namespaced); nested {
			t.Errorf("%s: a namespaced handle inside another", name)
		}
	}
	if ns := NamespaceOf(InNamespace(InNamespace(WithReplicas(js, 3), "a"), "b")); ns != "b" {
		t.Errorf("namespace %q, want b", ns)
	}
}

func TestReplicasFromEnv(t *testing.T) {
	for value, want := range map[string]int{"": 1, "3": 3} {
		t.Setenv("EVENTS_REPLICAS", value)
		env := config.New()
		if got := ReplicasFromEnv(env); got != want || env.Err() != nil {
			t.Errorf("EVENTS_REPLICAS=%q: %d (%v), want %d", value, got, env.Err(), want)
		}
	}
	for _, value := range []string{"0", "7", "three"} {
		t.Setenv("EVENTS_REPLICAS", value)
		env := config.New()
		ReplicasFromEnv(env)
		if env.Err() == nil {
			t.Errorf("EVENTS_REPLICAS=%q was accepted", value)
		}
	}
}
