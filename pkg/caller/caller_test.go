package caller

import "testing"

func TestShownNamePrefersTheDisplayNameThenTheEmailThenTheFallback(t *testing.T) {
	for _, tc := range []struct {
		caller Caller
		want   string
	}{
		{Caller{Name: "  Aunt May ", Email: "may@example.com"}, "Aunt May"},
		{Caller{Name: "   ", Email: "may@example.com"}, "may"},
		{Caller{}, "A friend"},
	} {
		if got := tc.caller.ShownName("A friend"); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.caller, got, tc.want)
		}
	}
}
