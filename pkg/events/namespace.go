package events

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/santa-wishlist/santa/pkg/config"
)

// Namespace keeps one environment's events apart from another's on a shared NATS: its own
// stream, its own subjects and its own durable consumers. Without it a `make dev` stack and a
// `make test` stack (or staging and production on one cluster) consumed each other's events.
// The empty namespace is the original layout: stream SANTA, subjects item.created, ...
//
//	namespace "test": stream SANTA_TEST, subjects test.item.created, ..., durable media-item-deleted-test
type Namespace string

var namespacePattern = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?$`)

// ParseNamespace checks a namespace: empty, or 1 to 32 lower-case letters, digits and inner
// dashes (it becomes part of stream, subject and consumer names).
func ParseNamespace(s string) (Namespace, error) {
	if s != "" && !namespacePattern.MatchString(s) {
		return "", fmt.Errorf("events namespace %q: use 1 to 32 lower-case letters, digits and dashes", s)
	}
	return Namespace(s), nil
}

// ReplicasFromEnv reads EVENTS_REPLICAS: how many NATS servers keep a copy of the stream (and,
// by inheritance, of every durable consumer's state). 1, the default, is all a single server
// allows; 3 on a three-server JetStream cluster, so losing one server loses no event and stops
// nothing. Every service of an environment must say the same: each one creates or updates the
// stream at start-up, and an update with another count would change it.
func ReplicasFromEnv(env *config.Env) int {
	n := env.Int("EVENTS_REPLICAS", 1)
	if n < 1 || n > 5 {
		env.Problem("EVENTS_REPLICAS: %d: JetStream keeps 1 to 5 replicas", n)
	}
	return n
}

// NamespaceFromEnv reads EVENTS_NAMESPACE.
func NamespaceFromEnv(env *config.Env) Namespace {
	ns, err := ParseNamespace(env.String("EVENTS_NAMESPACE", ""))
	if err != nil {
		env.Problem("EVENTS_NAMESPACE: %v", err)
	}
	return ns
}

// Stream is the namespace's stream.
func (n Namespace) Stream() string {
	if n == "" {
		return StreamName
	}
	return StreamName + "_" + strings.ToUpper(strings.ReplaceAll(string(n), "-", "_"))
}

// Subject is the subject an event type (or a pattern such as "item.>") is published on.
func (n Namespace) Subject(eventType string) string {
	if n == "" {
		return eventType
	}
	return string(n) + "." + eventType
}

// Durable is the name of a durable consumer in the namespace.
func (n Namespace) Durable(name string) string {
	if n == "" {
		return name
	}
	return name + "-" + string(n)
}

// namespaced is a JetStream handle that knows its namespace, so EnsureStream, Publish and
// Consume need no extra argument and a service cannot mix two namespaces by mistake.
type namespaced struct {
	jetstream.JetStream
	ns       Namespace
	replicas int // of the stream EnsureStream creates; 0 is 1
}

// InNamespace returns js working in ns.
func InNamespace(js jetstream.JetStream, ns Namespace) jetstream.JetStream {
	n, ok := js.(namespaced)
	if ok {
		js = n.JetStream
	}
	return namespaced{JetStream: js, ns: ns, replicas: n.replicas}
}

// WithReplicas returns js creating its stream with n replicas (see ReplicasFromEnv).
func WithReplicas(js jetstream.JetStream, n int) jetstream.JetStream {
	h, ok := js.(namespaced)
	if !ok {
		h = namespaced{JetStream: js}
	}
	h.replicas = n
	return h
}

// replicasOf is the stream's replica count js was given (1 unless it came from WithReplicas).
func replicasOf(js jetstream.JetStream) int {
	if n, ok := js.(namespaced); ok && n.replicas > 0 {
		return n.replicas
	}
	return 1
}

// NamespaceOf is the namespace js works in ("" unless it came from InNamespace).
func NamespaceOf(js jetstream.JetStream) Namespace {
	if n, ok := js.(namespaced); ok {
		return n.ns
	}
	return ""
}
