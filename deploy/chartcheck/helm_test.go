package chartcheck

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestHelmIsThePinnedVersion(t *testing.T) {
	needHelm(t)
	out, err := Helm(repoRoot(t), "version", "--short")
	if err != nil {
		t.Fatal(err)
	}
	if v := strings.TrimSpace(string(out)); !strings.HasPrefix(v, "v3.22") {
		t.Fatalf("helm version %q, want v3.22 (deploy/chartcheck/install-helm.sh)", v)
	}
}

func TestHelmLintStrict(t *testing.T) {
	needHelm(t)
	root := repoRoot(t)
	for _, set := range slices.Sorted(maps.Keys(valuesSets)) {
		t.Run(set, func(t *testing.T) {
			args := []string{"lint", "charts/santa-wishlist", "--strict", "--kube-version", KubeVersion}
			for _, f := range valuesSets[set] {
				args = append(args, "--values", f)
			}
			out, err := Helm(root, args...)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out), "0 chart(s) failed") {
				t.Fatalf("unexpected lint output:\n%s", out)
			}
		})
	}
}

// values.schema.json has additionalProperties: false everywhere, so unknown keys and wrong
// types stop both `helm template` and `helm lint`.
func TestSchemaRejectsUnknownKeysAndWrongTypes(t *testing.T) {
	needHelm(t)
	root := repoRoot(t)
	cases := []struct {
		name, set, wantInError string
	}{
		{"unknown top-level key", "replicaCount=3", "replicaCount"},
		{"unknown key in a service", "services.gateway.replica=3", "replica"},
		{"unknown service", "services.payments.enabled=true", "payments"},
		{"unknown key in a nested object", "networkPolicy.dns.podSelector.matchLabelz.a=b", "matchLabelz"},
		{"unknown key in a dependency", "postgresql.persistence.size=1Gi", "persistence"},
		{"wrong type: string for an integer", "services.gateway.replicas=three", "replicas"},
		{"wrong type: string for a boolean", "ingress.enabled=maybe", "enabled"},
		{"value outside its enum", "config.logLevel=verbose", "logLevel"},
		{"unknown dependency in uses", "services.vision.uses={redis,kafka}", "uses"},
		{"malformed quantity", "services.media.tmpSizeLimit=lots", "tmpSizeLimit"},
		// The link importer's allowance of local addresses exists for test stacks only.
		{"test-only SSRF allowance", "services.vision.env.LOOKUP_FETCH_TEST_ALLOW=10.0.0.5:80", "env"},
		{"Auth emulator with a real project id", "authEmulator.enabled=true,firebase.projectId=santa-wishlist-prod", "projectId"},
		{"events namespace not usable in NATS names", "nats.namespace=Prod.eu", "namespace"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, cmd := range [][]string{
				{"template", "santa", "charts/santa-wishlist", "--kube-version", KubeVersion, "--set", tc.set},
				{"lint", "charts/santa-wishlist", "--strict", "--kube-version", KubeVersion, "--set", tc.set},
			} {
				_, err := Helm(root, cmd...)
				if err == nil {
					t.Fatalf("helm %s accepted --set %s", cmd[0], tc.set)
				}
				if !strings.Contains(err.Error(), tc.wantInError) {
					t.Errorf("helm %s --set %s failed, but not naming %q:\n%v", cmd[0], tc.set, tc.wantInError, err)
				}
			}
		})
	}
	// The same keys with good values pass, so the failures above are the schema's doing.
	if _, err := Helm(root, "template", "santa", "charts/santa-wishlist", "--kube-version", KubeVersion,
		"--set", "services.gateway.replicas=3", "--set", "config.logLevel=warn", "--set", "services.media.tmpSizeLimit=128Mi",
		"--set", "authEmulator.enabled=true,firebase.projectId=demo-santa", "--set", "nats.namespace=staging-eu"); err != nil {
		t.Fatalf("valid --set values rejected: %v", err)
	}
}

// Settings the chart cannot do without fail the render with a message that names the fix.
func TestMissingExternalSettingsFailWithAClearMessage(t *testing.T) {
	needHelm(t)
	root := repoRoot(t)
	cases := map[string][]string{
		"postgresql.enabled is false: give DATABASE_URL":      {"postgresql.enabled=false"},
		"redis.enabled is false: set redis.external.url":      {"redis.enabled=false"},
		"nats.enabled is false: set nats.external.url":        {"nats.enabled=false"},
		"minio.enabled is false: set minio.external.endpoint": {"minio.enabled=false"},
		"give MINIO_ACCESS_KEY and MINIO_SECRET_KEY":          {"minio.enabled=false", "minio.external.endpoint=s3.example.com"},
	}
	for want, sets := range cases {
		args := []string{"template", "santa", "charts/santa-wishlist", "--kube-version", KubeVersion}
		for _, s := range sets {
			args = append(args, "--set", s)
		}
		_, err := Helm(root, args...)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("--set %v: want an error containing %q, got %v", sets, want, err)
		}
	}
}
