package testenv

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
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
	// HTTP sends the requests (nil: http.DefaultClient): a transport of its own is a device
	// of its own, an HTTP/2-only one is the gateway's.
	HTTP *http.Client
	// Sign, when set, finishes each request before it is sent: an identity assertion is bound
	// to one request's method and path, so it is made per request (AsUser).
	Sign func(*http.Request)
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
	// ProtoMajor is the HTTP version it came over (1 or 2).
	ProtoMajor int
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
	req, resp := c.send(context.Background(), method, path, body, header)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		c.T.Fatalf("%s %s: read the answer: %v", method, path, err)
	}
	if c.Spec != nil {
		c.Spec.CheckResponse(c.T, req, resp.StatusCode, resp.Header, data)
	}
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: data, ProtoMajor: resp.ProtoMajor}
}

func (c *Client) send(ctx context.Context, method, path string, body io.Reader, header []string) (*http.Request, *http.Response) {
	c.T.Helper()
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, body)
	if err != nil {
		c.T.Fatal(err)
	}
	for name, values := range c.Header {
		req.Header[name] = values
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	if c.Sign != nil {
		c.Sign(req)
	}
	client := c.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		c.T.Fatalf("%s %s: %v", method, path, err)
	}
	return req, resp
}

// Stream is an answer whose body keeps coming (a live stream of Server-Sent Events): its
// status and headers are in, its Body is the test's to read. It is closed by Close, or when
// the test ends.
type Stream struct {
	Status int
	Header http.Header
	// Proto is the answer's protocol ("HTTP/1.1"); UntilClose reports an answer delimited by
	// the end of its connection (Connection: close, no length, not chunked).
	Proto      string
	UntilClose bool
	Body       io.ReadCloser
	cancel     context.CancelFunc
}

// Open sends a GET with the client's headers and header's pairs and returns once the answer's
// headers arrived, whatever its status (with Spec set, the status and headers are checked).
func (c *Client) Open(path string, header ...string) *Stream {
	c.T.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, resp := c.send(ctx, http.MethodGet, path, nil, header)
	s := &Stream{Status: resp.StatusCode, Header: resp.Header, Body: resp.Body, cancel: cancel, Proto: resp.Proto,
		UntilClose: resp.Close && resp.ContentLength < 0 && len(resp.TransferEncoding) == 0}
	c.T.Cleanup(s.Close)
	if c.Spec != nil {
		c.Spec.CheckResponse(c.T, req, resp.StatusCode, resp.Header, nil)
	}
	return s
}

// Close ends the stream, as a device that leaves does.
func (s *Stream) Close() {
	s.cancel()
	_ = s.Body.Close()
}

// Event is one Server-Sent Event as a client parses it.
type Event struct{ ID, Event, Data string }

// Events reads the body as Server-Sent Events (comments such as heartbeats are passed over)
// and sends each, in order, on the channel it returns; the channel is closed when the stream
// ends. Call it once.
func (s *Stream) Events() <-chan Event {
	out := make(chan Event, 1000)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(s.Body)
		var cur Event
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "id: "):
				cur.ID = strings.TrimPrefix(line, "id: ")
			case strings.HasPrefix(line, "event: "):
				cur.Event = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				cur.Data = strings.TrimPrefix(line, "data: ")
			case line == "" && cur.Event != "":
				out <- cur
				cur = Event{}
			}
		}
	}()
	return out
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

// Send is JSON, but a nil v sends no body (still marked JSON, as a browser's fetch does).
func (c *Client) Send(method, path string, v any, header ...string) Response {
	c.T.Helper()
	if v == nil {
		return c.Do(method, path, nil, append([]string{"Content-Type", "application/json"}, header...)...)
	}
	return c.JSON(method, path, v, header...)
}
