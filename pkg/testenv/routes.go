package testenv

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

// SpecRoutes are the operations api/openapi.yaml gives to service (its paths' x-service), as
// "METHOD /path/{param}", sorted; service "" gives every operation (what the gateway routes).
func SpecRoutes(t testing.TB, service string) []string {
	t.Helper()
	var routes []string
	for path, item := range OpenAPI(t).doc.Paths.Map() {
		owner, _ := item.Extensions["x-service"].(string)
		if owner == "" {
			t.Fatalf("api/openapi.yaml: %s has no x-service naming the service that answers it", path)
		}
		if service != "" && owner != service {
			continue
		}
		for method := range item.Operations() {
			routes = append(routes, method+" "+path)
		}
	}
	slices.Sort(routes)
	return routes
}

// ginParam is a gin path parameter, :name or *name (a catch-all, which the spec writes
// {name} as it does the other parameters).
var ginParam = regexp.MustCompile(`[:*]([A-Za-z0-9_]+)`)

// PublicRoutes are the routes r registers under /api/ and /media/ (the public API; internal
// and health routes stay out), in SpecRoutes' form.
func PublicRoutes(r *gin.Engine) []string {
	var routes []string
	for _, ri := range r.Routes() {
		if !strings.HasPrefix(ri.Path, "/api/") && !strings.HasPrefix(ri.Path, "/media/") {
			continue
		}
		routes = append(routes, ri.Method+" "+ginParam.ReplaceAllString(ri.Path, "{$1}"))
	}
	slices.Sort(routes)
	return routes
}

// RoutesMatchSpec fails t unless r's public routes are exactly the spec's operations for
// service ("" for all): a route registered but not documented, or documented but not served.
func RoutesMatchSpec(t testing.TB, r *gin.Engine, service string) {
	t.Helper()
	served, documented := PublicRoutes(r), SpecRoutes(t, service)
	var diff []string
	for _, route := range served {
		if !slices.Contains(documented, route) {
			diff = append(diff, fmt.Sprintf("  served but not given to it in api/openapi.yaml: %s", route))
		}
	}
	for _, route := range documented {
		if !slices.Contains(served, route) {
			diff = append(diff, fmt.Sprintf("  in api/openapi.yaml (x-service %q) but not served: %s", service, route))
		}
	}
	if len(diff) > 0 {
		t.Errorf("the routes and the spec disagree:\n%s", strings.Join(diff, "\n"))
	}
}

// SpecSignedIn says, for each of the spec's operations in SpecRoutes' form, whether it needs a
// signed-in caller: its security (the document's, when it has none of its own) is not empty
// and offers no empty requirement ({}), which would let a caller in without a token.
func SpecSignedIn(t testing.TB) map[string]bool {
	t.Helper()
	doc := OpenAPI(t).doc
	signedIn := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			reqs := doc.Security
			if op.Security != nil {
				reqs = *op.Security
			}
			needed := len(reqs) > 0
			for _, req := range reqs {
				if len(req) == 0 {
					needed = false
				}
			}
			signedIn[method+" "+path] = needed
		}
	}
	return signedIn
}
