package ports

import (
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
)

// The quotas count the verified user's uid and the address the gateway saw (X-Real-IP).
func TestCallerIsTheVerifiedUserWithTheGatewaysAddress(t *testing.T) {
	c, _ := gin.CreateTestContext(httptest.NewRecorder())
	c.Request = httptest.NewRequest("POST", "/api/vision/analyze", nil)
	c.Request.Header.Set("X-Real-IP", "203.0.113.7")
	auth.SetUser(c, auth.User{UID: "alice"})
	if got := caller(c); got.UID != "alice" || got.IP != "203.0.113.7" {
		t.Errorf("got %+v, want alice from 203.0.113.7", got)
	}
}
