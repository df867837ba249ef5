package httpserver

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

// What a generated wrapper refused reaches the route's unbound call with the request's first
// values; a route the calls do not name is answered ParamError.
func TestUnboundCallsTheRouteWithTheFirstValues(t *testing.T) {
	gin.SetMode(gin.TestMode)
	var got []string
	calls := map[string]gin.HandlerFunc{
		"POST /things/:id/share": func(c *gin.Context) {
			key, lang := OptionalHeader[string](c, "Idempotency-Key"), OptionalHeader[string](c, "Accept-Language")
			list := OptionalQuery[string](c, "listId")
			got = []string{"id=" + c.Param("id"), "key=" + *key, "list=" + *list, "lang nil=" + map[bool]string{true: "yes", false: "no"}[lang == nil]}
			c.Status(http.StatusNoContent)
		},
	}
	refused := Unbound(calls)
	r := gin.New()
	r.POST("/things/:id/share", func(c *gin.Context) { refused(c, errors.New("bind"), http.StatusBadRequest) })
	r.GET("/other", func(c *gin.Context) { refused(c, errors.New("Invalid format for parameter x"), http.StatusBadRequest) })

	req := httptest.NewRequest("POST", "/things//share?listId=a&listId=b", nil)
	req.Header.Add("Idempotency-Key", "one")
	req.Header.Add("Idempotency-Key", "two")
	w := httptest.NewRecorder()
	r.ServeHTTP(w, req)
	if w.Code != http.StatusNoContent {
		t.Fatalf("unbound call not made: %d %s", w.Code, w.Body)
	}
	if want := []string{"id=", "key=one", "list=a", "lang nil=yes"}; len(got) != 4 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Errorf("the call saw %v, want %v", got, want)
	}

	w = httptest.NewRecorder()
	r.ServeHTTP(w, httptest.NewRequest("GET", "/other", nil))
	if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `"invalid_parameter"`) {
		t.Errorf("a route without an unbound call: %d %s, want ParamError", w.Code, w.Body)
	}
}
