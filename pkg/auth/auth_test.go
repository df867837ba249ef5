package auth

import "testing"

func TestShownNamePrefersTheDisplayNameThenTheEmailThenTheFallback(t *testing.T) {
	for _, tc := range []struct {
		user User
		want string
	}{
		{User{Name: "  Aunt May ", Email: "may@example.com"}, "Aunt May"},
		{User{Name: "   ", Email: "may@example.com"}, "may"},
		{User{}, "A friend"},
	} {
		if got := tc.user.ShownName("A friend"); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.user, got, tc.want)
		}
	}
}
