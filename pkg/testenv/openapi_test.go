package testenv

import (
	"net/http"
	"strings"
	"testing"
)

// The checker must pass what the spec documents and catch each way an answer can differ.
func TestOpenAPIChecksAnswersAgainstTheSpec(t *testing.T) {
	spec := OpenAPI(t)
	jsonHeader := http.Header{"Content-Type": {"application/json"}}
	item := `{"id":"6b1e0c1e-9a55-4f0e-9d0a-2b7f4b1c9a11","name":"Snow Globe","description":"A glass globe","price":null,` +
		`"imageUrl":null,"category":"Home","features":[],"searchQuery":"Snow Globe","shoppingUrl":"https://x/?q=Snow+Globe",` +
		`"aiGenerated":false,"sentToSanta":false,"createdAt":"2026-11-23T10:00:00Z",` +
		`"listId":"0d4c6a8e-1f2b-4c3d-8e9f-a1b2c3d4e5f6","priority":2,"quantity":1,"notes":""}`
	// The owner's list: each item with its revealed claims.
	ownerItem := strings.TrimSuffix(item, "}") + `,"claims":[{"displayName":"Aunt","quantity":1,"purchased":true,"revealedAt":"2025-12-26T00:00:00+00:00"}]}`
	req := func(method, path string) *http.Request {
		r, err := http.NewRequest(method, "http://127.0.0.1:18080"+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, ok := range []struct {
		method, path string
		status       int
		header       http.Header
		body         string
	}{
		{"GET", "/api/wishlist", 200, jsonHeader, "[" + ownerItem + "]"},
		{"POST", "/api/wishlist", 201, jsonHeader, item},
		{"DELETE", "/api/wishlist/6b1e0c1e-9a55-4f0e-9d0a-2b7f4b1c9a11", 404, jsonHeader, `{"error":{"code":"not_found","message":"Failed to delete item: item not found."}}`},
		{"GET", "/media/items/unattached/0123456789abcdef0123456789abcdef.jpg", 200, http.Header{"Content-Type": {"image/jpeg"}}, "\xff\xd8\xff"},
	} {
		if msg := spec.ResponseError(req(ok.method, ok.path), ok.status, ok.header, []byte(ok.body)); msg != "" {
			t.Errorf("a documented answer was refused: %s", msg)
		}
	}
	for name, bad := range map[string]struct {
		method, path string
		status       int
		header       http.Header
		body         string
	}{
		"missing required field":      {"GET", "/api/wishlist", 200, jsonHeader, "[" + strings.Replace(ownerItem, `"createdAt"`, `"created"`, 1) + "]"},
		"owner's item without claims": {"GET", "/api/wishlist", 200, jsonHeader, "[" + item + "]"},
		"wrong type":                  {"POST", "/api/wishlist", 201, jsonHeader, strings.Replace(item, `"sentToSanta":false`, `"sentToSanta":"no"`, 1)},
		"id not a uuid":               {"POST", "/api/wishlist", 201, jsonHeader, strings.Replace(item, `"6b1e0c1e-9a55-4f0e-9d0a-2b7f4b1c9a11"`, `"item-1"`, 1)},
		"createdAt not a time":        {"POST", "/api/wishlist", 201, jsonHeader, strings.Replace(item, `"2026-11-23T10:00:00Z"`, `"yesterday"`, 1)},
		"undocumented status":         {"GET", "/api/wishlist", 418, jsonHeader, `{"error":{"code":"teapot","message":"no"}}`},
		"error without message":       {"DELETE", "/api/wishlist/6b1e0c1e-9a55-4f0e-9d0a-2b7f4b1c9a11", 404, jsonHeader, `{"error":{"code":"not_found"}}`},
		"undocumented type":           {"GET", "/api/wishlist", 200, http.Header{"Content-Type": {"text/html"}}, "<p>hi</p>"},
		"undocumented route":          {"GET", "/api/elves", 200, jsonHeader, "[]"},
		"undocumented method":         {"PUT", "/api/wishlist", 200, jsonHeader, "[]"},
	} {
		if msg := spec.ResponseError(req(bad.method, bad.path), bad.status, bad.header, []byte(bad.body)); msg == "" {
			t.Errorf("%s: accepted", name)
		}
	}
}
