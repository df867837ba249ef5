package chartcheck

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// The local stack (deploy/local/stack.sh) and the chart render each service's environment from
// one definition, the chart's values (services.<name>.uses, calls, env): the chart with its
// templates, the local stack with deploy/local/serviceenv. These are the only variables one
// of them may set and the other not, each with why; any other difference, such as a variable
// added to a service in one of them only, fails TestLocalStackEnvironmentMatchesChart.
var (
	localOnly = map[string]string{
		"LISTEN_HOST":                  "local services listen on loopback only; a pod listens on an address of its own",
		"GOGC":                         "the local stack passes a developer's GOGC through; pods keep Go's default",
		"GODEBUG":                      "the images set it (Dockerfile); local binaries get it from the stack",
		"RATE_LIMIT_IP_PER_MINUTE":     "raised locally for make security and the e2e suite; the chart keeps the default (services.gateway.env may set it)",
		"RATE_LIMIT_USER_PER_MINUTE":   "given locally beside RATE_LIMIT_IP_PER_MINUTE; the chart keeps the default",
		"REDIS_KEY_PREFIX":             "the local stacks of one machine share its Redis; a release has its own",
		"REMINDER_INTERVAL":            "the test stack scans only at start; the chart keeps the default",
		"MEDIA_QUOTA_IMAGES":           "the test stack's quota is small enough for make security to exhaust; the chart keeps the default",
		"LOOKUP_OPENFOODFACTS_URL":     "the local fake product databases; the chart keeps the real ones",
		"LOOKUP_OPENPRODUCTSFACTS_URL": "the local fake product databases; the chart keeps the real ones",
		"LOOKUP_UPCITEMDB_URL":         "the local fake product databases; the chart keeps the real ones",
		"LOOKUP_FETCH_TEST_ALLOW":      "test stacks only: the chart's schema refuses it",
		"PUSH_ALLOW":                   "test stacks only: the chart's schema refuses it",
	}
	clusterOnly = map[string]string{
		"DATABASE_PASSWORD": "fills $(DATABASE_PASSWORD) in DATABASE_URL from the in-chart PostgreSQL's Secret; the local URL carries the password",
		"REDIS_PASSWORD":    "fills REDIS_URL from the in-chart Redis's Secret; the local URL carries the stack's own user",
		"NATS_PASSWORD":     "fills NATS_URL from the in-chart NATS's Secret; the local URL carries the service's own user",
	}
)

// chartLikeLocal is the chart configured as the local stack is: the Auth emulator and Mailpit
// (deploy/values/dev.yaml), a Gemini address and key, and the web app's address for emails.
var chartLikeLocal = []string{
	"--set", "gemini.baseUrl=http://fake-gemini", "--set", "secrets.geminiApiKey=fake-key",
	"--set", "smtp.publicUrl=http://localhost",
}

// localInputs are what stack.sh gives the renderer (deploy/local/stackplan's Inputs), every
// optional one included, and a value for every ${NAME} without a default that deploy/local/env.yaml refers
// to (those with one, such as GOMEMLIMIT, are also read by the renderer's own Go runtime).
func localInputs(t *testing.T, root string, svcs []string) []string {
	t.Helper()
	in := map[string]string{
		"DATABASE_URL": "postgres://postgres@127.0.0.1/santa", "REDIS_URL": "redis://u:p@127.0.0.1/0",
		"NATS_ADDR": "127.0.0.1:1", "EVENTS_NAMESPACE": "dev", "FIREBASE_PROJECT_ID": "demo-santa",
		"FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:2", "SMTP_URL": "smtp://127.0.0.1:3", "PUBLIC_URL": "http://localhost:4",
		"GEMINI_BASE_URL": "http://127.0.0.1:5", "GEMINI_API_KEY": "fake-dev-key", "MINIO_ENDPOINT": "127.0.0.1:6",
		"MINIO_ACCESS_KEY": "santa", "MINIO_SECRET_KEY": "secret", "MINIO_BUCKET": "santa-dev",
		"VAPID_PRIVATE_KEY": "vapid", "MEDIA_URL_SECRET": "media-url-secret",
	}
	for i, s := range svcs {
		in["PORT_"+s], in["ADMIN_PORT_"+s] = "1"+string(rune('0'+i)), "2"+string(rune('0'+i))
		in["NATS_PASS_"+s], in["IDENTITY_KEY_"+s], in["IDENTITY_PUB_"+s] = "nats-"+s, "key-"+s, "pub-"+s
	}
	for _, m := range regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`).FindAllStringSubmatch(readFile(t, root, "deploy/local/env.yaml"), -1) {
		if in[m[1]] == "" {
			in[m[1]] = "local-" + strings.ToLower(m[1])
		}
	}
	var env []string
	for _, k := range slices.Sorted(maps.Keys(in)) {
		env = append(env, k+"="+in[k])
	}
	return env
}

// localEnvironments runs deploy/local/serviceenv, as stack.sh does, for every service.
func localEnvironments(t *testing.T, root string, svcs []string) map[string]map[string]string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "serviceenv")
	build := exec.Command("go", "build", "-o", bin, "./deploy/local/serviceenv")
	build.Dir = root
	// The workspace build, as stack.sh's (this module itself runs outside go.work).
	build.Env = append(os.Environ(), "GOWORK="+filepath.Join(root, "go.work"), "GOFLAGS=-buildvcs=false")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./deploy/local/serviceenv: %v\n%s", err, out)
	}
	inputs := localInputs(t, root, svcs)
	out := map[string]map[string]string{}
	for _, svc := range svcs {
		cmd := exec.Command(bin, "-values", "charts/santa-wishlist/values.yaml", "-local", "deploy/local/env.yaml", svc)
		cmd.Dir = root
		cmd.Env = inputs // nothing of this machine's environment
		var stderr strings.Builder
		cmd.Stderr = &stderr
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("serviceenv %s: %v\n%s", svc, err, stderr.String())
		}
		out[svc] = map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				t.Fatalf("serviceenv %s: not KEY=value: %q", svc, line)
			}
			out[svc][k] = v
		}
	}
	return out
}

// chartEnvironment is the variables of a service's pod: its ConfigMap's and its own env's.
func chartEnvironment(t *testing.T, m *Manifests, svc string) map[string]string {
	t.Helper()
	d, _ := m.Get("Deployment", svc).(*appsv1.Deployment)
	cfg, _ := m.Get("ConfigMap", svc).(*corev1.ConfigMap)
	if d == nil || cfg == nil {
		t.Fatalf("the chart renders no Deployment and ConfigMap %s", svc)
	}
	env := map[string]string{}
	for k, v := range cfg.Data {
		env[k] = v
	}
	for _, e := range d.Spec.Template.Spec.Containers[0].Env {
		env[e.Name] = e.Value // a Secret's: empty
	}
	return env
}

func issuers(keys string) []string {
	var out []string
	for _, pair := range strings.Split(keys, ",") {
		if name, _, ok := strings.Cut(pair, "="); ok {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

func TestLocalStackEnvironmentMatchesChart(t *testing.T) {
	needHelm(t)
	root := repoRoot(t)
	svcs := services(t)
	out, err := Template(root, []string{"deploy/values/dev.yaml"}, chartLikeLocal...)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	local := localEnvironments(t, root, svcs)
	conv := conventions(t)
	seen := map[string]bool{}
	for _, svc := range svcs {
		chart := chartEnvironment(t, m, svc)
		code := envReadByCode(t, root, svc)
		for k := range local[svc] {
			_, inChart := chart[k]
			switch {
			case localOnly[k] != "" && inChart:
				t.Errorf("%s: the chart gives it %s too: take %s out of localOnly", svc, k, k)
			case localOnly[k] != "":
				seen[k] = true
			case !inChart:
				t.Errorf("%s: the local stack gives it %s and the chart does not: add it to the chart's values "+
					"(services.%s.uses, calls or env) or templates, or declare it in localOnly with why", svc, k, svc)
			}
			// A local-only setting still goes only where it is read, as the chart's do.
			if users, documented := conv.EnvUsedBy[k]; documented && !slices.Contains(users, "all") && !slices.Contains(users, svc) {
				t.Errorf("%s: the local stack gives it %s, which only %v read (docs/conventions.md)", svc, k, users)
			} else if !documented && !code[k] {
				t.Errorf("%s: the local stack gives it %s, which neither docs/conventions.md nor its code mentions", svc, k)
			}
		}
		for k := range chart {
			_, inLocal := local[svc][k]
			switch {
			case clusterOnly[k] != "" && inLocal:
				t.Errorf("%s: the local stack gives it %s too: take %s out of clusterOnly", svc, k, k)
			case clusterOnly[k] != "":
				seen[k] = true
			case !inLocal:
				t.Errorf("%s: the chart gives it %s and the local stack does not: render it in deploy/local/serviceenv "+
					"(or deploy/local/env.yaml), or declare it in clusterOnly with why", svc, k)
			}
		}
		// Whose identity assertions it accepts: the same services in both.
		if c, l := issuers(chart["IDENTITY_PUBLIC_KEYS"]), issuers(local[svc]["IDENTITY_PUBLIC_KEYS"]); strings.Join(c, ",") != strings.Join(l, ",") {
			t.Errorf("%s accepts assertions from %v in the chart but from %v locally", svc, c, l)
		}
	}
	for _, k := range append(slices.Sorted(maps.Keys(localOnly)), slices.Sorted(maps.Keys(clusterOnly))...) {
		if !seen[k] {
			t.Errorf("%s is declared as a difference, but no service has it on one side only: take it out", k)
		}
	}
}
