package httpserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

func etagEngine(body *string, status *int) *gin.Engine {
	gin.SetMode(gin.TestMode)
	r := gin.New()
	r.Use(ETag("private, no-cache", 64))
	handler := func(c *gin.Context) { c.Data(*status, "application/json", []byte(*body)) }
	r.GET("/x", handler)
	r.POST("/x", handler)
	return r
}

func call(r http.Handler, method, inm string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "/x", nil)
	if inm != "" {
		req.Header.Set("If-None-Match", inm)
	}
	w := httptest.NewRecorder()
	r.ServeHTTP(w, req)
	return w
}

func TestETagAnswers304OnlyForTheSameBytes(t *testing.T) {
	body, status := `{"items":[1]}`, http.StatusOK
	r := etagEngine(&body, &status)

	first := call(r, "GET", "")
	tag := first.Header().Get("ETag")
	if first.Code != 200 || first.Body.String() != body || !strings.HasPrefix(tag, `"`) {
		t.Fatalf("first: %d %q, ETag %q", first.Code, first.Body.String(), tag)
	}
	if cc, vary := first.Header().Get("Cache-Control"), first.Header().Get("Vary"); cc != "private, no-cache" || vary != "Authorization" {
		t.Errorf("Cache-Control %q, Vary %q", cc, vary)
	}
	for _, inm := range []string{tag, "W/" + tag, `"other", ` + tag, "*"} {
		again := call(r, "GET", inm)
		if again.Code != http.StatusNotModified || again.Body.Len() != 0 || again.Header().Get("ETag") != tag {
			t.Errorf("If-None-Match %s: %d with %d bytes, ETag %q", inm, again.Code, again.Body.Len(), again.Header().Get("ETag"))
		}
	}

	body = `{"items":[2]}`
	changed := call(r, "GET", tag)
	if changed.Code != 200 || changed.Body.String() != body || changed.Header().Get("ETag") == tag {
		t.Errorf("after a change: %d %q, ETag %q", changed.Code, changed.Body.String(), changed.Header().Get("ETag"))
	}
}

func TestETagLeavesWritesErrorsAndLargeAnswersAlone(t *testing.T) {
	body, status := `{"ok":true}`, http.StatusCreated
	r := etagEngine(&body, &status)
	if w := call(r, "POST", "*"); w.Code != http.StatusCreated || w.Header().Get("ETag") != "" || w.Body.String() != body {
		t.Errorf("POST: %d, ETag %q, %q", w.Code, w.Header().Get("ETag"), w.Body.String())
	}
	status = http.StatusNotFound
	if w := call(r, "GET", "*"); w.Code != http.StatusNotFound || w.Header().Get("ETag") != "" || w.Body.String() != body {
		t.Errorf("404: %d, ETag %q, %q", w.Code, w.Header().Get("ETag"), w.Body.String())
	}
	status, body = http.StatusOK, strings.Repeat("x", 100) // over the 64-byte cap
	if w := call(r, "GET", "*"); w.Code != http.StatusOK || w.Header().Get("ETag") != "" || w.Body.String() != body {
		t.Errorf("large: %d, ETag %q, %d bytes", w.Code, w.Header().Get("ETag"), w.Body.Len())
	}
}
