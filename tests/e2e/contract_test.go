//go:build e2e

package e2e

import "testing"

// Each service's public answers, good and bad, through the gateway: client.do checks every
// one against api/openapi.yaml (status, content type, body schema), so a handler that drifts
// from the spec fails here.
func TestEveryServicesAnswersMatchTheSpec(t *testing.T) {
	c, _ := newUser(t, "contract")
	anon := &client{t: t, base: baseURL(t)}
	badToken := &client{t: t, base: baseURL(t), token: "not-a-token"}
	photo := photoDataURL(t)
	cases := []struct {
		name    string
		who     *client
		method  string
		path    string
		body    any
		want    int
		wantAny bool // any 4xx
	}{
		{"config", anon, "GET", "/api/config", nil, 200, false},
		{"recent, signed out", anon, "GET", "/api/wishlist/recent", nil, 200, false},
		{"list, signed out", anon, "GET", "/api/wishlist", nil, 401, false},
		{"add", c, "POST", "/api/wishlist", map[string]any{"name": "Kite", "description": "A red kite with a long tail", "category": "Toys"}, 201, false},
		{"add, invalid", c, "POST", "/api/wishlist", map[string]any{"name": "K", "description": "short"}, 422, false},
		{"list", c, "GET", "/api/wishlist", nil, 200, false},
		{"recent", c, "GET", "/api/wishlist/recent", nil, 200, false},
		{"delete, unknown", c, "DELETE", "/api/wishlist/6f1c1f64-5c55-4f7e-9a49-0b1f9a1c0000", nil, 404, false},
		{"santa", c, "POST", "/api/santa", map[string]any{"name": "Wooden Sled", "description": "A gift item from your wishlist", "price": "$45.00"}, 200, false},
		{"notifications", c, "GET", "/api/notifications", nil, 200, false},
		{"notifications, signed out", anon, "GET", "/api/notifications", nil, 401, false},
		{"notification preferences", c, "GET", "/api/notifications/preferences", nil, 200, false},
		{"notification preferences, signed out", anon, "GET", "/api/notifications/preferences", nil, 401, false},
		{"unsubscribe, unknown token", anon, "GET", "/api/unsubscribe/zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", nil, 404, false},
		{"vision analyze", c, "POST", "/api/vision/analyze", map[string]any{"image": photo}, 200, false},
		{"vision analyze, not an image", c, "POST", "/api/vision/analyze", map[string]any{"image": "data:image/jpeg;base64,bm90IGFuIGltYWdl"}, 0, true},
		{"vision analyze, no image", c, "POST", "/api/vision/analyze", map[string]any{}, 0, true},
		{"vision analyze, bad token", badToken, "POST", "/api/vision/analyze", map[string]any{"image": photo}, 401, false},
		{"vision generate", c, "POST", "/api/vision/generate", map[string]any{"image": photo}, 200, false},
		{"media upload", c, "POST", "/api/media", map[string]any{"dataUrl": photo}, 201, false},
		{"media upload, not an image", c, "POST", "/api/media", map[string]any{"dataUrl": "data:image/png;base64,bm90IGFuIGltYWdl"}, 0, true},
		{"media upload, signed out", anon, "POST", "/api/media", map[string]any{"dataUrl": photo}, 401, false},
		{"media, missing", anon, "GET", "/media/items/unattached/0123456789abcdef0123456789abcdef.jpg", nil, 404, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			who := *tc.who
			who.t = t
			var code int
			var body []byte
			if tc.body == nil {
				code, body, _ = who.do(tc.method, tc.path, nil)
			} else {
				code, body = who.json(tc.method, tc.path, tc.body)
			}
			if tc.wantAny && (code < 400 || code >= 500) || !tc.wantAny && code != tc.want {
				t.Fatalf("%s %s: %d %s", tc.method, tc.path, code, body)
			}
		})
	}
}
