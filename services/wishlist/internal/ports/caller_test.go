package ports

import (
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
)

// Others see a user's display name, else their email's name, else a neutral word;
// the rest of the verified user reaches the app unchanged.
func TestCallerIsTheVerifiedUserWithTheNameOthersSee(t *testing.T) {
	for _, tc := range []struct {
		user auth.User
		want string
	}{
		{auth.User{UID: "u1", Name: "Aunt May", Email: "may@example.com"}, "Aunt May"},
		{auth.User{UID: "u2", Email: "may@example.com"}, "may"},
		{auth.User{UID: "u3"}, "A friend"},
	} {
		c, _ := gin.CreateTestContext(httptest.NewRecorder())
		auth.SetUser(c, tc.user)
		got := caller(c)
		if got.Name != tc.want || got.UID != tc.user.UID || got.Email != tc.user.Email {
			t.Errorf("%+v: got %+v, want the name %q", tc.user, got, tc.want)
		}
	}
}
