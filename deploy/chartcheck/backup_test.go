package chartcheck

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	networkingv1 "k8s.io/api/networking/v1"
)

// postgresql.backup: off where the image has no pgBackRest (the chart's defaults, dev); on the
// local cluster, pgBackRest's settings in the container's environment, the repository the
// in-chart MinIO through the loopback TLS proxy, and PostgreSQL allowed to reach MinIO's port
// and DNS only (and MinIO to admit it). With an S3 endpoint, HTTPS on 443 to the peers given,
// the credentials from the Secret named; without any object store, the render fails.
func TestPostgresBackups(t *testing.T) {
	envOf := func(set string, m *Manifests) map[string]string {
		ss, _ := m.Get("StatefulSet", "postgresql").(*appsv1.StatefulSet)
		if ss == nil {
			t.Fatalf("%s: no PostgreSQL StatefulSet", set)
		}
		env := map[string]string{}
		for _, e := range ss.Spec.Template.Spec.Containers[0].Env {
			v := e.Value
			if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
				v = "secret:" + e.ValueFrom.SecretKeyRef.Name + "/" + e.ValueFrom.SecretKeyRef.Key
			}
			env[e.Name] = v
		}
		return env
	}
	egressOf := func(m *Manifests) (to []string) {
		np, _ := m.Get("NetworkPolicy", "postgresql").(*networkingv1.NetworkPolicy)
		for _, r := range np.Spec.Egress {
			var ports []string
			for _, p := range r.Ports {
				ports = append(ports, p.Port.String())
			}
			names := peerNames(r.To)
			if len(names) == 0 {
				names = []string{"anywhere"}
			}
			to = append(to, strings.Join(names, "+")+":"+strings.Join(ports, "+"))
		}
		return to
	}
	for _, set := range []string{"default", "dev"} {
		m := rendered(t, set)
		if env := envOf(set, m); env["SANTA_BACKUP"] != "" {
			t.Errorf("%s: backups on, but the official image has no pgBackRest", set)
		}
		if to := egressOf(m); len(to) != 0 {
			t.Errorf("%s: PostgreSQL may reach %v; it calls nothing", set, to)
		}
	}

	m := rendered(t, "cluster")
	env := envOf("cluster", m)
	want := map[string]string{
		"SANTA_BACKUP": "on", "SANTA_ARCHIVE_TIMEOUT": "10", "PGBACKREST_STANZA": "santa",
		"PGBACKREST_REPO1_TYPE": "s3", "PGBACKREST_REPO1_S3_ENDPOINT": "minio", "PGBACKREST_REPO1_STORAGE_HOST": "127.0.0.1",
		"SANTA_S3_TLS_PROXY": "minio:9000", "PGBACKREST_REPO1_S3_KEY": "secret:minio/root-user",
		"PGBACKREST_REPO1_S3_KEY_SECRET": "secret:minio/root-password", "PGBACKREST_PG1_PATH": env["PGDATA"],
	}
	for k, v := range want {
		if env[k] != v {
			t.Errorf("cluster: PostgreSQL's %s = %q, want %q", k, env[k], v)
		}
	}
	if _, ok := env["SANTA_RESTORE"]; ok {
		t.Error("cluster: a restore is asked for without postgresql.backup.restore")
	}
	if got := strings.Join(egressOf(m), " "); got != "ns:kube-system/kube-dns:53+53 minio:9000" {
		t.Errorf("cluster: PostgreSQL may reach %q, want DNS and MinIO's port", got)
	}
	np, _ := m.Get("NetworkPolicy", "minio").(*networkingv1.NetworkPolicy)
	var from []string
	for _, r := range np.Spec.Ingress {
		from = append(from, peerNames(r.From)...)
	}
	if strings.Join(from, ",") != "media,postgresql" {
		t.Errorf("cluster: MinIO admits %v, want media and postgresql", from)
	}

	// Another object store (production's S3): HTTPS, its own credentials, egress to it only.
	out, err := Template(repoRoot(t), valuesSets["cluster"], "--set", "postgresql.backup.s3.endpoint=s3.eu-west-1.amazonaws.com",
		"--set", "postgresql.backup.s3.existingSecret=backup-s3", "--set", "postgresql.backup.restore=time=2026-12-24 17:59:00+00",
		"--set-json", `postgresql.backup.egress=[{"ipBlock":{"cidr":"52.218.0.0/17"}}]`)
	if err != nil {
		t.Fatal(err)
	}
	s3, err := Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	env = envOf("s3", s3)
	if env["PGBACKREST_REPO1_S3_ENDPOINT"] != "s3.eu-west-1.amazonaws.com" || env["SANTA_S3_TLS_PROXY"] != "" ||
		env["PGBACKREST_REPO1_STORAGE_VERIFY_TLS"] != "" || env["PGBACKREST_REPO1_S3_KEY"] != "secret:backup-s3/access-key" ||
		env["SANTA_RESTORE"] != "time=2026-12-24 17:59:00+00" {
		t.Errorf("s3: PostgreSQL's environment %v", env)
	}
	if got := strings.Join(egressOf(s3), " "); got != "ns:kube-system/kube-dns:53+53 ipBlock:52.218.0.0/17:443" {
		t.Errorf("s3: PostgreSQL may reach %q, want DNS and the bucket's addresses on 443", got)
	}
	// An endpoint without credentials, or backups without any object store: refused.
	if _, err := Template(repoRoot(t), valuesSets["cluster"], "--set", "postgresql.backup.s3.endpoint=s3.example.com"); err == nil {
		t.Error("an S3 endpoint without existingSecret rendered")
	}
	if _, err := Template(repoRoot(t), valuesSets["prod"], "--set", "postgresql.enabled=true",
		"--set", "postgresql.backup.enabled=true"); err == nil ||
		!strings.Contains(err.Error(), "postgresql.backup needs an object store") {
		t.Errorf("backups without an object store: %v", err)
	}
	if _, err := Template(repoRoot(t), valuesSets["cluster"], "--set", "postgresql.backup.restore=yesterday"); err == nil {
		t.Error("postgresql.backup.restore=yesterday rendered")
	}
}
