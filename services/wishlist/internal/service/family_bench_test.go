package service_test

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

// Service-level figures for the family reads and claims (without the gateway; `make bench`
// measures through it): go test -run x -bench Family ./internal/service/
func BenchmarkFamily(b *testing.B) {
	_, dbURL := testenv.Postgres(b)
	w := start(b, dbURL, testenv.StartNATS(b).URL())
	def := w.defaultList("emma")
	var ids []string
	for i := 0; i < 50; i++ {
		ids = append(ids, w.addTo("emma", def.ID, fmt.Sprintf("Bench gift %d", i), 99))
	}
	token := w.share("emma", def.ID)
	get := func(path, uid string) error {
		req, _ := http.NewRequest("GET", w.base+path, nil)
		testenv.SignRequest(b, req, "wishlist", auth.User{UID: uid})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		if resp.StatusCode != 200 {
			return fmt.Errorf("%s: %d", path, resp.StatusCode)
		}
		return nil
	}
	b.Run("owner list", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := get("/api/wishlist", "emma"); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
	b.Run("shared anonymous", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := get("/api/shared/"+token, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
	var n atomic.Int64
	b.Run("claim", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				i := n.Add(1)
				req, _ := http.NewRequest("PUT", w.base+"/api/shared/"+token+"/items/"+ids[i%50]+"/claim",
					strings.NewReader(fmt.Sprintf(`{"quantity":%d}`, 1+i%3)))
				testenv.SignRequest(b, req, "wishlist", auth.User{UID: fmt.Sprintf("cousin-%d", i%19)})
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Fatalf("claim: %d", resp.StatusCode)
				}
			}
		})
	})
}

// benchClient keeps its connections, as a browser does; Go's default keeps only two per host.
var benchClient = &http.Client{Transport: &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256}}

// BenchmarkClaimStorm sends 200 claims a second on one list for 5 seconds (an open loop:
// each claim is timed from its scheduled start) and reports the p99. Service level, no gateway.
func BenchmarkClaimStorm(b *testing.B) {
	_, dbURL := testenv.Postgres(b)
	if extra := os.Getenv("STORM_DB_OPTIONS"); extra != "" {
		dbURL += "&" + extra // e.g. options=-c%20synchronous_commit%3Doff, to find where the time goes
	}
	w := start(b, dbURL, testenv.StartNATS(b).URL())
	def := w.defaultList("emma")
	var ids []string
	for i := 0; i < 50; i++ {
		ids = append(ids, w.addTo("emma", def.ID, fmt.Sprintf("Storm gift %d", i), 99))
	}
	token := w.share("emma", def.ID)
	for n := 0; n < b.N; n++ {
		const rate, seconds = 200, 5
		lat := make([]time.Duration, rate*seconds)
		var failed atomic.Int64
		var wg sync.WaitGroup
		begin := time.Now()
		for i := range lat {
			at := begin.Add(time.Duration(i) * time.Second / rate)
			time.Sleep(time.Until(at))
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				req, _ := http.NewRequest("PUT", w.base+"/api/shared/"+token+"/items/"+ids[i%50]+"/claim",
					strings.NewReader(fmt.Sprintf(`{"quantity":%d}`, 1+i%3)))
				testenv.SignRequest(b, req, "wishlist", auth.User{UID: fmt.Sprintf("cousin-%d", i%19)})
				resp, err := benchClient.Do(req)
				if err != nil || resp.StatusCode != 200 {
					failed.Add(1)
				}
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				lat[i] = time.Since(at)
			}(i)
		}
		wg.Wait()
		late := append([]time.Duration{}, lat[len(lat)/2:]...)
		sort.Slice(late, func(i, j int) bool { return late[i] < late[j] })
		b.ReportMetric(float64(late[len(late)*99/100].Microseconds())/1000, "p99-last-half-ms")
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(failed.Load()), "failed")
	}
}
