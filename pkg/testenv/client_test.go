package testenv

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
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

func TestOpenReturnsAtTheHeadersAndEventsParsesTheStream(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte("event: hello\ndata: {\"count\":0}\n\n: ping\n\nid: 7\nevent: item\ndata: " + r.Header.Get("Last-Event-ID") + "\n\n"))
		w.(http.Flusher).Flush()
		select { // the stream stays open until the client leaves
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)

	s := NewClient(t, srv.URL).Open("/stream", "Last-Event-ID", "6")
	if s.Status != http.StatusOK || s.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("opened %d %v", s.Status, s.Header)
	}
	events := s.Events()
	want := []Event{{Event: "hello", Data: `{"count":0}`}, {ID: "7", Event: "item", Data: "6"}}
	for _, w := range want {
		select {
		case got := <-events:
			if got != w {
				t.Fatalf("got %+v, want %+v", got, w)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no %+v", w)
		}
	}
	s.Close()
	select {
	case e, open := <-events:
		if open {
			t.Fatalf("an event after the stream was closed: %+v", e)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the events channel stays open after Close")
	}
}
