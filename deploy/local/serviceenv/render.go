package main

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// Values is the part of the chart's values.yaml that decides a service's environment. The
// chart's templates (santa.service.config and santa.service.secretEnv in _service.tpl) read the
// same keys; everything else in the file (resources, images, ...) is the cluster's alone.
type Values struct {
	Config struct {
		LogLevel               string `yaml:"logLevel"`
		ShutdownTimeoutSeconds int    `yaml:"shutdownTimeoutSeconds"`
	} `yaml:"config"`
	Services map[string]Service `yaml:"services"`
}

// Service is one entry of the chart's services: what it talks to and its own plain settings.
type Service struct {
	Uses  []string          `yaml:"uses"`
	Calls []string          `yaml:"calls"`
	Env   map[string]string `yaml:"env"`
}

// Local is the local stack's own file (deploy/local/env.yaml): settings only a local stack has,
// for every service (Env) and per service, in the shape of the chart's services.<name>.env.
// A value is expanded from the inputs (${NAME}, ${NAME:-default}); one that comes out empty,
// or null, leaves the variable unset, over the chart's value too.
type Local struct {
	Env      map[string]*string `yaml:"env"`
	Services map[string]struct {
		Env map[string]*string `yaml:"env"`
	} `yaml:"services"`
}

// Loopback is where the local stack runs every service (LISTEN_HOST in env.yaml), so where
// one service calls another.
const loopback = "127.0.0.1"

// LoadValues reads the chart's values.yaml, ignoring the keys the environment does not depend on.
func LoadValues(path string) (*Values, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var v Values
	if err := yaml.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(v.Services) == 0 {
		return nil, fmt.Errorf("%s: no services", path)
	}
	return &v, nil
}

// LoadLocal reads the local stack's file strictly: an unknown key is a typo, which would
// otherwise quietly leave a setting out.
func LoadLocal(path string, v *Values) (*Local, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var l Local
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for name := range l.Services {
		if _, ok := v.Services[name]; !ok {
			return nil, fmt.Errorf("%s: services.%s is not a service of the chart's values", path, name)
		}
	}
	return &l, nil
}

// Signers are the services that sign the identity assertions of their calls, as the chart
// makes keys for them (santa.identityKeys): the gateway and every service that calls another.
func (v *Values) Signers() []string {
	var out []string
	for name, svc := range v.Services {
		if signs(name, svc) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

func signs(name string, svc Service) bool { return name == "gateway" || len(svc.Calls) > 0 }

// Render is the environment of the service name: the variables the chart's templates give it,
// decided by the same rules (its uses, its calls, then its own env), with the local stack's
// addresses and secrets (read through in, by the names documented in main.go) in place of the
// cluster's, then the local stack's own settings on top. A missing input the service needs is
// an error naming it, as the chart fails a render that lacks one.
func Render(v *Values, l *Local, name string, in func(string) string) (map[string]string, error) {
	svc, ok := v.Services[name]
	if !ok {
		return nil, fmt.Errorf("no service %q in the chart's values (%s)", name, strings.Join(slices.Sorted(maps.Keys(v.Services)), ", "))
	}
	var missing []string
	need := func(key string) string {
		s := in(key)
		if s == "" {
			missing = append(missing, key)
		}
		return s
	}
	env := map[string]string{}
	opt := func(key, value string) { // the chart too sets these only when they are given
		if value != "" {
			env[key] = value
		}
	}
	or := func(a, b string) string {
		if a != "" {
			return a
		}
		return b
	}

	env["PORT"] = need("PORT_" + name)
	env["ADMIN_PORT"] = need("ADMIN_PORT_" + name)
	env["LOG_LEVEL"] = or(in("LOG_LEVEL"), v.Config.LogLevel)
	env["SHUTDOWN_TIMEOUT"] = or(in("SHUTDOWN_TIMEOUT"), strconv.Itoa(v.Config.ShutdownTimeoutSeconds)+"s")
	for _, callee := range svc.Calls {
		if _, ok := v.Services[callee]; !ok {
			return nil, fmt.Errorf("%s calls %q, which is not a service", name, callee)
		}
		env[strings.ToUpper(callee)+"_URL"] = "http://" + loopback + ":" + need("PORT_"+callee)
	}
	for _, use := range svc.Uses {
		switch use {
		case "postgresql":
			env["DATABASE_URL"] = need("DATABASE_URL")
		case "redis":
			env["REDIS_URL"] = need("REDIS_URL")
		case "nats":
			// The service's own user, whose permissions cover only its own subjects.
			env["NATS_URL"] = "nats://" + name + ":" + need("NATS_PASS_"+name) + "@" + need("NATS_ADDR")
			opt("EVENTS_NAMESPACE", in("EVENTS_NAMESPACE"))
			opt("EVENTS_REPLICAS", in("EVENTS_REPLICAS"))
		case "minio":
			for _, k := range []string{"MINIO_ENDPOINT", "MINIO_BUCKET", "MINIO_ACCESS_KEY", "MINIO_SECRET_KEY"} {
				env[k] = need(k)
			}
			env["MINIO_USE_SSL"] = or(in("MINIO_USE_SSL"), "false")
		case "gemini":
			// Without a key vision answers the fallback item, so none of these is required.
			for _, k := range []string{"GEMINI_API_KEY", "GEMINI_MODEL", "GEMINI_BASE_URL"} {
				opt(k, in(k))
			}
		case "firebase":
			env["FIREBASE_PROJECT_ID"] = need("FIREBASE_PROJECT_ID")
			if name == "gateway" { // the web app's Firebase config is the gateway's to hand out
				opt("FIREBASE_WEB_API_KEY", in("FIREBASE_WEB_API_KEY"))
				opt("FIREBASE_AUTH_DOMAIN", in("FIREBASE_AUTH_DOMAIN"))
			}
			if host := in("FIREBASE_AUTH_EMULATOR_HOST"); host != "" {
				env["FIREBASE_AUTH_EMULATOR_HOST"] = host
				env["ALLOW_AUTH_EMULATOR"] = "true"
				if name == "gateway" {
					env["AUTH_EMULATOR_PUBLIC_URL"] = or(in("AUTH_EMULATOR_PUBLIC_URL"), "http://"+host)
				}
			}
		case "smtp":
			// Email is on only with a server; the sender and the links' origin go with it.
			if url := in("SMTP_URL"); url != "" {
				env["SMTP_URL"] = url
				opt("MAIL_FROM", in("MAIL_FROM"))
				opt("PUBLIC_URL", in("PUBLIC_URL"))
			}
		case "webpush":
			env["VAPID_PRIVATE_KEY"] = need("VAPID_PRIVATE_KEY")
		case "internet":
			// Only a NetworkPolicy rule in the chart: nothing to set.
		default:
			return nil, fmt.Errorf("%s uses %q, which this renderer does not know (nor, then, the chart's templates)", name, use)
		}
	}

	// Identity assertions: a signing key of its own for each signer; whose assertions a service
	// accepts: the gateway's and those of the services that call it.
	if signs(name, svc) {
		env["IDENTITY_SIGNING_KEY"] = need("IDENTITY_KEY_" + name)
	}
	if name != "gateway" {
		var trusted []string
		for _, caller := range v.Signers() {
			if caller == "gateway" || slices.Contains(v.Services[caller].Calls, name) {
				trusted = append(trusted, caller+"="+need("IDENTITY_PUB_"+caller))
			}
		}
		env["IDENTITY_PUBLIC_KEYS"] = strings.Join(trusted, ",")
	}
	// Media checks the photo addresses that the services calling it sign (the gateway only
	// forwards them).
	if name == "media" || (name != "gateway" && slices.Contains(svc.Calls, "media")) {
		env["MEDIA_URL_SECRET"] = need("MEDIA_URL_SECRET")
	}

	for k, val := range svc.Env {
		env[k] = val
	}
	overlay := func(m map[string]*string) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			val := ""
			if m[k] != nil {
				val = expand(*m[k], in)
			}
			if val == "" {
				delete(env, k)
			} else {
				env[k] = val
			}
		}
	}
	overlay(l.Env)
	overlay(l.Services[name].Env)

	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, fmt.Errorf("%s needs %s from the local stack (deploy/local/stackplan's Inputs)", name, strings.Join(missing, ", "))
	}
	for k, val := range env {
		if strings.ContainsAny(val, "\n\x00") {
			return nil, fmt.Errorf("%s: %s holds a line break, which a KEY=value line cannot carry", name, k)
		}
	}
	return env, nil
}

var reference = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}`)

// expand replaces ${NAME} with the input NAME and ${NAME:-default} with default when NAME is
// empty, as a shell would.
func expand(s string, in func(string) string) string {
	return reference.ReplaceAllStringFunc(s, func(ref string) string {
		m := reference.FindStringSubmatch(ref)
		if val := in(m[1]); val != "" || m[2] == "" {
			return val
		}
		return m[3]
	})
}

// Lines is env as sorted KEY=value lines.
func Lines(env map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(env)) {
		b.WriteString(k + "=" + env[k] + "\n")
	}
	return b.String()
}
