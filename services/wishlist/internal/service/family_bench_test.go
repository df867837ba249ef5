package service_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

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
		if uid != "" {
			req.Header.Set(auth.HeaderUserID, uid)
		}
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
				req.Header.Set(auth.HeaderUserID, fmt.Sprintf("cousin-%d", i%19))
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
