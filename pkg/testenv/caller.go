package testenv

import (
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/caller"
)

// CallerShowsName checks a port's caller function: the verified user reaches the app
// unchanged, with the name others see settled (the display name, else the email's name, else
// the service's neutral word, fallback).
func CallerShowsName(t *testing.T, callerOf func(*gin.Context) caller.Caller, fallback string) {
	t.Helper()
	for _, tc := range []struct {
		user auth.User
		want string
	}{
		{auth.User{UID: "u1", Name: "Aunt May", Email: "may@example.com"}, "Aunt May"},
		{auth.User{UID: "u2", Email: "may@example.com"}, "may"},
		{auth.User{UID: "u3"}, fallback},
	} {
		c, _ := gin.CreateTestContext(httptest.NewRecorder())
		auth.SetUser(c, tc.user)
		got := callerOf(c)
		if got.Name != tc.want || got.UID != tc.user.UID || got.Email != tc.user.Email {
			t.Errorf("%+v: got %+v, want the name %q", tc.user, got, tc.want)
		}
	}
}
