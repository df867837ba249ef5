package testenv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	yaml "go.yaml.in/yaml/v4"
)

// APISpec is api/openapi.yaml, loaded and validated, with a router over its paths.
type APISpec struct {
	doc    *openapi3.T
	router routers.Router
}

var loadAPISpec = sync.OnceValues(func() (*APISpec, error) {
	path, err := openAPIPath()
	if err != nil {
		return nil, err
	}
	// The loader lets a repeated key (two '422' answers) silently replace the first; a
	// strict YAML read refuses it.
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var strict any
	if err := yaml.Unmarshal(raw, &strict); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("%s is not a valid OpenAPI document: %w", path, err)
	}
	// Answers are checked whatever address the stack listens on; the servers list names only
	// the development URL.
	doc.Servers = nil
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, err
	}
	return &APISpec{doc: doc, router: router}, nil
})

// openAPIPath is $SANTA_OPENAPI, else api/openapi.yaml beside the nearest go.work above the
// working directory (tests run in their package's directory).
func openAPIPath() (string, error) {
	if p := os.Getenv("SANTA_OPENAPI"); p != "" {
		return p, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return filepath.Join(dir, "api", "openapi.yaml"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.work above the working directory to find api/openapi.yaml by")
		}
		dir = parent
	}
}

// OpenAPI returns the public API's spec, loaded once per test binary; a spec that does not
// load or validate fails the test.
func OpenAPI(t testing.TB) *APISpec {
	t.Helper()
	s, err := loadAPISpec()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func init() {
	// Images and archives are documented as binary strings; the validator reads them as opaque bytes.
	for _, ct := range []string{"image/jpeg", "image/png", "application/zip"} {
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.FileBodyDecoder)
	}
	// kin-openapi checks date and date-time by itself; the spec's ids are uuids too.
	openapi3.DefineStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC4122))
}

// ResponseError says how an answer differs from the spec; "" when it matches.
func (s *APISpec) ResponseError(req *http.Request, status int, header http.Header, body []byte) string {
	route, params, err := s.router.FindRoute(routingRequest(req))
	if err != nil {
		return fmt.Sprintf("%s %s is not in api/openapi.yaml: %v", req.Method, req.URL.Path, err)
	}
	opts := &openapi3filter.Options{
		IncludeResponseStatus: true, // an undocumented status is a difference too
		MultiError:            true,
		ExcludeResponseBody:   body == nil, // a stream that is still open
	}
	// The reason and where, not the whole schema: the body is printed below.
	opts.WithCustomSchemaErrorFunc(func(err *openapi3.SchemaError) string {
		return fmt.Sprintf("at /%s: %s", strings.Join(err.JSONPointer(), "/"), err.Reason)
	})
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts},
		Status:                 status,
		Header:                 header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                opts,
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return fmt.Sprintf("%s %s answered %d, which api/openapi.yaml (%s) does not allow: %v\nbody: %.500s",
			req.Method, req.URL.Path, status, route.Operation.OperationID, err, body)
	}
	return ""
}

// CheckResponse fails t when an answer is not what api/openapi.yaml documents for its method
// and path: an undocumented route or status, a content type the operation does not list, or
// a body or header that does not match its schema. A nil body skips the body (open streams).
func (s *APISpec) CheckResponse(t testing.TB, req *http.Request, status int, header http.Header, body []byte) {
	t.Helper()
	if msg := s.ResponseError(req, status, header, body); msg != "" {
		t.Error(msg)
	}
}

// routingRequest escapes the slashes of a /media/ key: OpenAPI path templates match one
// segment, and the spec documents {key} as the whole rest of the path.
func routingRequest(req *http.Request) *http.Request {
	key, ok := strings.CutPrefix(req.URL.Path, "/media/")
	if !ok || !strings.Contains(key, "/") {
		return req
	}
	r := req.Clone(req.Context())
	r.URL.RawPath = "/media/" + url.PathEscape(key)
	return r
}
