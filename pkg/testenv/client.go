package testenv

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// Client is the HTTP client tests use to call a service or the gateway: one request, the
// whole answer read, any transport error a test failure. Header is sent with every request
// (Authorization, X-User-Id); with Spec set, every answer is also checked against
// api/openapi.yaml.
type Client struct {
	T       testing.TB
	BaseURL string
	Header  http.Header
	Spec    *APISpec
}

// NewClient calls baseURL on behalf of t.
func NewClient(t testing.TB, baseURL string) *Client {
	return &Client{T: t, BaseURL: baseURL, Header: http.Header{}}
}

// With returns a copy of the client for another test (a subtest) or other headers, given as
// name, value pairs.
func (c *Client) With(t testing.TB, header ...string) *Client {
	cp := *c
	cp.T = t
	cp.Header = c.Header.Clone()
	if cp.Header == nil {
		cp.Header = http.Header{}
	}
	for i := 0; i+1 < len(header); i += 2 {
		cp.Header.Set(header[i], header[i+1])
	}
	return &cp
}

// Response is a whole answer.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Decode unmarshals the body as JSON, failing t when it is not.
func (r Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("answer %d is not the JSON expected: %v\n%s", r.Status, err, r.Body)
	}
}

// Do sends body (nil for none) with the client's headers and then header's name, value
// pairs, and reads the whole answer.
func (c *Client) Do(method, path string, body io.Reader, header ...string) Response {
	c.T.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, c.BaseURL+path, body)
	if err != nil {
		c.T.Fatal(err)
	}
	for name, values := range c.Header {
		req.Header[name] = values
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.T.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		c.T.Fatalf("%s %s: read the answer: %v", method, path, err)
	}
	if c.Spec != nil {
		c.Spec.CheckResponse(c.T, req, resp.StatusCode, resp.Header, data)
	}
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: data}
}

// JSON sends v encoded as JSON (Content-Type application/json).
func (c *Client) JSON(method, path string, v any, header ...string) Response {
	c.T.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		c.T.Fatal(err)
	}
	return c.Do(method, path, bytes.NewReader(raw), append([]string{"Content-Type", "application/json"}, header...)...)
}
