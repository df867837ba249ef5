package ports

import "testing"

// The upload refuses a visitor itself (its own words, before the body is read: the service's
// component test), not through auth.CallerFor and apigen's table. The table, the spec's
// security, must agree: a spec letting visitors upload would not be what media does.
func TestUploadNeedsTheSignInTheSpecSays(t *testing.T) {
	want := map[string]bool{"POST /api/media": true}
	if len(signedIn) != len(want) {
		t.Fatalf("the generated routes' sign-in %v, want %v", signedIn, want)
	}
	for route, required := range want {
		if got, ok := signedIn[route]; !ok || got != required {
			t.Errorf("%s: signed in %v (known %v), want %v", route, got, ok, required)
		}
	}
}
