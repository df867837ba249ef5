package testenv

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestClientSendsHeadersAndReadsTheWholeAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Seen", r.Header.Get("Authorization")+"|"+r.Header.Get("X-Extra")+"|"+r.Header.Get("Content-Type"))
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"method":"` + r.Method + `","path":"` + r.URL.Path + `","got":` + string(body) + `}`))
	}))
	defer srv.Close()

	c := NewClient(t, srv.URL).With(t, "Authorization", "Bearer tok")
	r := c.JSON("POST", "/x", map[string]int{"n": 1}, "X-Extra", "yes")
	if r.Status != http.StatusCreated || r.Header.Get("X-Seen") != "Bearer tok|yes|application/json" {
		t.Fatalf("answer %d, headers seen %q", r.Status, r.Header.Get("X-Seen"))
	}
	var got struct {
		Method, Path string
		Got          struct{ N int }
	}
	r.Decode(t, &got)
	if got.Method != "POST" || got.Path != "/x" || got.Got.N != 1 {
		t.Fatalf("decoded %+v from %s", got, r.Body)
	}
	// With copies: the original keeps its headers.
	other := c.With(t, "Authorization", "")
	if c.Header.Get("Authorization") != "Bearer tok" || other.Header.Get("Authorization") != "" {
		t.Fatal("With changed the original client's headers")
	}
	if r := other.Do("GET", "/y", strings.NewReader("")); !strings.HasPrefix(r.Header.Get("X-Seen"), "|") {
		t.Fatalf("a cleared header was still sent: %q", r.Header.Get("X-Seen"))
	}
}
