package ports_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/gateway/internal/domain"
	"github.com/santa-wishlist/santa/services/gateway/internal/ports"
)

// The gateway routes every path of api/openapi.yaml, and nothing under /api/ or /media/ that
// the spec does not document. Most of its routes are generated from the spec (routes.gen.go);
// this holds the ones written by hand, and the loop that registers the table, to it too. Each
// service's own test holds its routes to the paths the spec gives it (x-service).
func TestRoutesAreTheSpecs(t *testing.T) {
	r := gin.New()
	ports.Routes(r, ports.Deps{Registry: prometheus.NewRegistry(), Lifetime: context.Background()})
	testenv.RoutesMatchSpec(t, r, "")
}

// allowAll lets every request through: these tests are about who may call, not how often.
type allowAll struct{}

func (allowAll) Allow(time.Time, ...domain.Limit) domain.Verdict {
	return domain.Verdict{Allowed: true}
}

var specParam = regexp.MustCompile(`\{[A-Za-z]+\}`)

// Sign-in is the spec's: a caller without a token is refused (401) exactly where the spec's
// security requires one, on every route, the hand-written ones (the stream, the export, the
// photos, ...) included. No upstream is configured, so a route that lets the caller in answers
// from the gateway itself (its own routes) or 503.
func TestSignInIsTheSpecs(t *testing.T) {
	r := gin.New()
	ports.Routes(r, ports.Deps{Registry: prometheus.NewRegistry(), Lifetime: context.Background(), Limiter: allowAll{},
		Streams: ports.StreamConfig{StreamLimits: httpserver.DefaultStreamLimits, OpensPerIP: 1000}})
	for route, signedIn := range testenv.SpecSignedIn(t) {
		method, path, _ := strings.Cut(route, " ")
		w := httptest.NewRecorder()
		r.ServeHTTP(w, httptest.NewRequest(method, specParam.ReplaceAllString(path, "x"), nil))
		if refused := w.Code == http.StatusUnauthorized; refused != signedIn {
			t.Errorf("%s without a token answered %d; the spec's security says signed in: %v", route, w.Code, signedIn)
		}
	}
}
