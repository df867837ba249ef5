//go:build integration

package chartcheck

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestMetricsExportedByRunningServices scrapes the running services and checks that every
// service metric the dashboard and alerts use is really exported by one of them.
//
//	SANTA_METRICS_URLS=http://localhost:8080,http://localhost:8081,... go test -tags integration -run TestMetricsExportedByRunningServices ./deploy/chartcheck
//
// A family counts as present when its "# HELP" or "# TYPE" line appears. Families with labels
// (events_consumer_pending{consumer}, gemini_failures_total{kind,reason}, ...) appear only once
// the code has touched them, so exercise the stack (the end-to-end tests do) before this runs.
func TestMetricsExportedByRunningServices(t *testing.T) {
	raw := os.Getenv("SANTA_METRICS_URLS")
	if strings.TrimSpace(raw) == "" {
		t.Fatal("SANTA_METRICS_URLS is not set: give the comma-separated base URLs of the running services " +
			"(e.g. http://localhost:8080,http://localhost:8081,http://localhost:8082,http://localhost:8083,http://localhost:8084)")
	}
	exported := map[string][]string{}
	client := &http.Client{Timeout: 10 * time.Second}
	for _, base := range strings.Split(raw, ",") {
		base = strings.TrimRight(strings.TrimSpace(base), "/")
		if base == "" {
			continue
		}
		names, err := scrapeFamilies(client, base+"/metrics")
		if err != nil {
			t.Errorf("scrape %s: %v", base, err)
			continue
		}
		if len(names) == 0 {
			t.Errorf("%s/metrics lists no metric families", base)
		}
		for _, n := range names {
			exported[n] = append(exported[n], base)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	var missing []string
	for _, name := range slices.Sorted(maps.Keys(usedServiceMetrics(t))) {
		if onlyWhereBackupsRun[name] && len(exported[name]) == 0 {
			t.Logf("%s: reported only where PostgreSQL archives (the cluster's drills check it)", name)
			continue
		}
		if len(exported[name]) == 0 {
			missing = append(missing, name)
		} else {
			t.Logf("%s: %s", name, strings.Join(exported[name], ", "))
		}
	}
	if len(missing) > 0 {
		t.Fatalf("used by %s or %s but exported by none of %s: %s\n(labelled families appear after their first use)",
			dashboardFile, alertsFile, raw, strings.Join(missing, ", "))
	}
}

// onlyWhereBackupsRun are wishlist's backup metrics, reported only where PostgreSQL archives its
// WAL (archive_mode on, as the cluster's pgBackRest sets it), which the local stacks' PostgreSQL
// does not: there, no value is the truth, not a missing metric. The cluster's backup-age alert
// drill (tests/e2e/monitoring_cluster_test.go) reads them where they are reported.
var onlyWhereBackupsRun = map[string]bool{
	"wishlist_postgres_archive_last_archived_timestamp_seconds": true,
	"wishlist_postgres_archive_last_failed_timestamp_seconds":   true,
	"wishlist_postgres_archive_ready_segments":                  true,
	"wishlist_postgres_last_backup_timestamp_seconds":           true,
}

// scrapeFamilies returns the metric family names of a Prometheus text exposition.
func scrapeFamilies(client *http.Client, url string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/plain; version=0.0.4")
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, body)
	}
	seen := map[string]bool{}
	var names []string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1024*1024), 1024*1024)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 3 && f[0] == "#" && (f[1] == "HELP" || f[1] == "TYPE") && !seen[f[2]] {
			seen[f[2]] = true
			names = append(names, f[2])
		}
	}
	return names, sc.Err()
}
