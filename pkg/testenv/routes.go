package testenv

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
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
	routesMatch(t, "api/openapi.yaml", service, PublicRoutes(r), SpecRoutes(t, service))
}

// InternalRoutesMatchSpec fails t unless r's /internal/ routes are exactly the operations
// api/internal.yaml gives to service. A service that registers them through the generated
// RegisterHandlers matches by construction; this catches one added by hand beside them.
func InternalRoutesMatchSpec(t testing.TB, r *gin.Engine, service string) {
	t.Helper()
	var served []string
	for _, ri := range r.Routes() {
		if strings.HasPrefix(ri.Path, "/internal/") {
			served = append(served, ri.Method+" "+ginParam.ReplaceAllString(ri.Path, "{$1}"))
		}
	}
	slices.Sort(served)
	routesMatch(t, "api/internal.yaml", service, served, InternalSpecRoutes(t, service))
}

// InternalSpecRoutes are the operations api/internal.yaml (beside api/openapi.yaml) gives to
// service (its paths' x-service), in SpecRoutes' form.
func InternalSpecRoutes(t testing.TB, service string) []string {
	t.Helper()
	public, err := openAPIPath()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(filepath.Dir(public), "internal.yaml")
	doc, err := openapi3.NewLoader().LoadFromFile(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("%s is not a valid OpenAPI document: %v", path, err)
	}
	var routes []string
	for p, item := range doc.Paths.Map() {
		if owner, _ := item.Extensions["x-service"].(string); owner != service {
			continue
		}
		for method := range item.Operations() {
			routes = append(routes, method+" "+p)
		}
	}
	slices.Sort(routes)
	return routes
}

func routesMatch(t testing.TB, spec, service string, served, documented []string) {
	t.Helper()
	var diff []string
	for _, route := range served {
		if !slices.Contains(documented, route) {
			diff = append(diff, fmt.Sprintf("  served but not given to it in %s: %s", spec, route))
		}
	}
	for _, route := range documented {
		if !slices.Contains(served, route) {
			diff = append(diff, fmt.Sprintf("  in %s (x-service %q) but not served: %s", spec, service, route))
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
