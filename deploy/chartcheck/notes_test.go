package chartcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// renderNotes renders NOTES.txt, which `helm template` leaves out: a copy of the chart wraps it
// in a named template and a ConfigMap that includes it.
func renderNotes(t *testing.T, valuesFiles ...string) string {
	t.Helper()
	root := repoRoot(t)
	tmp := t.TempDir()
	chart := filepath.Join(tmp, "santa-wishlist")
	if err := os.CopyFS(chart, os.DirFS(filepath.Join(root, "charts", "santa-wishlist"))); err != nil {
		t.Fatal(err)
	}
	notes, err := os.ReadFile(filepath.Join(chart, "templates", "NOTES.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(chart, "templates", "NOTES.txt")); err != nil {
		t.Fatal(err)
	}
	wrapped := `{{- define "zz.notes" -}}` + string(notes) + `{{- end -}}`
	probe := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: zz-notes\ndata:\n  notes: {{ include \"zz.notes\" . | quote }}\n"
	for name, body := range map[string]string{"zz-notes.tpl": wrapped, "zz-notes.yaml": probe} {
		if err := os.WriteFile(filepath.Join(chart, "templates", name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"template", "santa", chart, "--namespace", "santa", "--kube-version", KubeVersion, "--show-only", "templates/zz-notes.yaml"}
	for _, f := range valuesFiles {
		args = append(args, "--values", filepath.Join(root, f))
	}
	out, err := Helm(root, args...)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	cm, _ := m.Get("ConfigMap", "zz-notes").(*corev1.ConfigMap)
	if cm == nil {
		t.Fatal("notes not rendered")
	}
	return cm.Data["notes"]
}

// NOTES.txt tells how to reach the app in each setup.
func TestNotesSayHowToReachTheApp(t *testing.T) {
	needHelm(t)
	cases := map[string]struct {
		files []string
		want  []string
	}{
		"default": {nil, []string{"port-forward service/gateway 8080:80", "http://localhost:8080", "WARNING: firebase.projectId is demo-santa"}},
		"dev":     {[]string{"deploy/values/dev.yaml"}, []string{"port-forward service/gateway 8080:80", "port-forward service/firebase-auth-emulator 9099:9099"}},
		"prod":    {[]string{"deploy/values/prod.yaml"}, []string{"https://wishlist.example.com/"}},
	}
	for name, tc := range cases {
		notes := renderNotes(t, tc.files...)
		for _, w := range tc.want {
			if !strings.Contains(notes, w) {
				t.Errorf("%s: NOTES.txt lacks %q:\n%s", name, w, notes)
			}
		}
		if name == "prod" && strings.Contains(notes, "port-forward") {
			t.Errorf("prod: NOTES.txt should point at the Ingress, not a port-forward:\n%s", notes)
		}
	}
}
