//go:build e2e

// Package e2e runs against the whole stack started by `make test` (deploy/local/stack.sh
// start), through the gateway, as a browser would.
package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"testing"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

func baseURL(t *testing.T) string {
	u := os.Getenv("SANTA_E2E_URL")
	if u == "" {
		t.Fatal("SANTA_E2E_URL is not set: run these through `make test`, which starts the stack")
	}
	return u
}

type client struct {
	t     *testing.T
	base  string
	token string
}

func newUser(t *testing.T, prefix string) (*client, testenv.Session) {
	s := testenv.SignUp(t, testenv.UniqueEmail(prefix), "secret123", "")
	return &client{t: t, base: baseURL(t), token: s.IDToken}, s
}

// api is the shared test client for this user: their token on every request, and every
// answer checked against api/openapi.yaml for its method and path.
func (c *client) api() *testenv.Client {
	hc := testenv.NewClient(c.t, c.base)
	hc.Spec = testenv.OpenAPI(c.t)
	if c.token != "" {
		hc.Header.Set("Authorization", "Bearer "+c.token)
	}
	return hc
}

func (c *client) do(method, path string, body []byte, headers ...string) (int, []byte, http.Header) {
	c.t.Helper()
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	resp := c.api().Do(method, path, r, append([]string{"Content-Type", "application/json"}, headers...)...)
	return resp.Status, resp.Body, resp.Header
}

func (c *client) json(method, path string, v any, headers ...string) (int, []byte) {
	c.t.Helper()
	raw, _ := json.Marshal(v)
	code, body, _ := c.do(method, path, raw, headers...)
	return code, body
}

type item struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Category    *string  `json:"category"`
	ImageURL    *string  `json:"imageUrl"`
	SearchQuery string   `json:"searchQuery"`
	ShoppingURL string   `json:"shoppingUrl"`
	Features    []string `json:"features"`
	SentToSanta bool     `json:"sentToSanta"`
}

func (c *client) list() []item {
	c.t.Helper()
	code, body, _ := c.do("GET", "/api/wishlist", nil)
	if code != 200 {
		c.t.Fatalf("list: %d %s", code, body)
	}
	var items []item
	if err := json.Unmarshal(body, &items); err != nil {
		c.t.Fatal(err)
	}
	return items
}

func (c *client) add(name string) item {
	c.t.Helper()
	code, body := c.json("POST", "/api/wishlist", map[string]any{
		"name": name, "description": "Something Santa's elves can make", "category": "Toys", "price": "$12",
	})
	if code != http.StatusCreated {
		c.t.Fatalf("add: %d %s", code, body)
	}
	var it item
	_ = json.Unmarshal(body, &it)
	return it
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
