package main

import (
	"context"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// spec is a one-path document with op as the operation of its path.
func spec(t *testing.T, security, op string) *openapi3.T {
	t.Helper()
	src := `openapi: 3.1.0
info: {title: t, version: "1"}
security: ` + security + `
x-body-limits: {small: 65536}
x-rate-classes: {requests: RATE_LIMIT_IP_PER_MINUTE, streams: RATE_LIMIT_STREAM_OPENS_IP_PER_MINUTE}
components:
  securitySchemes:
    firebase: {type: http, scheme: bearer}
paths:
  /api/things/{id}:
    x-service: wishlist
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
` + op
	doc, err := openapi3.NewLoader().LoadFromData([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestARowSaysWhatTheSpecSays(t *testing.T) {
	for _, c := range []struct{ security, op, want string }{
		{"[{firebase: []}]", "    get: {responses: {'200': {description: ok}}}\n",
			`{method: "GET", path: "/api/things/:id", service: "wishlist", signedIn: true},`},
		{"[{firebase: []}]", "    get: {security: [{}, {firebase: []}], responses: {'200': {description: ok}}}\n",
			`{method: "GET", path: "/api/things/:id", service: "wishlist"},`},
		{"[]", "    get: {responses: {'200': {description: ok}}}\n",
			`{method: "GET", path: "/api/things/:id", service: "wishlist"},`},
		{"[{firebase: []}]", "    post: {x-body-limit: small, x-idempotent: true, responses: {'200': {description: ok}}}\n",
			`{method: "POST", path: "/api/things/:id", service: "wishlist", signedIn: true, bodyLimit: SmallBodyLimit, idempotent: true},`},
		{"[{firebase: []}]", "    get: {x-gateway: by-hand, x-rate-class: streams, responses: {'200': {description: ok}}}\n",
			`{"GET", "/api/things/:id"}: StreamsRateClass,`},
	} {
		src, err := gatewayRoutes(spec(t, c.security, c.op))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), c.want) {
			t.Errorf("security %s, %s: no row %s in\n%s", c.security, c.op, c.want, src)
		}
	}
}

func TestAnUnclearSpecIsRefused(t *testing.T) {
	for _, c := range []struct{ op, want string }{
		{"    post: {responses: {'200': {description: ok}}}\n", "no x-body-limit"},
		{"    post: {x-body-limit: huge, responses: {'200': {description: ok}}}\n", "not a class"},
		{"    get: {x-body-limit: small, responses: {'200': {description: ok}}}\n", "carries no body"},
		{"    post: {x-body-limit: small, x-idempotent: yes please, responses: {'200': {description: ok}}}\n", "not true or false"},
		{"    get: {x-gateway: special, responses: {'200': {description: ok}}}\n", "the only value is by-hand"},
		{"    get: {x-rate-class: bursts, responses: {'200': {description: ok}}}\n", "x-rate-class bursts is not a class of x-rate-classes"},
	} {
		_, err := gatewayRoutes(spec(t, "[{firebase: []}]", c.op))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error saying %q", c.op, err, c.want)
		}
	}
}
