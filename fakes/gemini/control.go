package gemini

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// serveControl answers the /_fake/ endpoints:
//
//	POST /_fake/replies   body: a JSON list of Reply (delay in nanoseconds); queued in order
//	POST /_fake/always    body: one Reply answered whenever the queue is empty
//	GET  /_fake/requests  the calls received, oldest first
//	POST /_fake/reset     forget replies and requests
func (f *Fake) serveControl(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/_fake/replies":
		var replies []Reply
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&replies); err != nil {
			http.Error(w, `{"error":"body must be a JSON list of replies"}`, http.StatusBadRequest)
			return
		}
		f.Enqueue(replies...)
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodPost && r.URL.Path == "/_fake/always":
		var reply Reply
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&reply); err != nil {
			http.Error(w, `{"error":"body must be a JSON reply"}`, http.StatusBadRequest)
			return
		}
		f.Always(reply)
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodGet && r.URL.Path == "/_fake/requests":
		_ = json.NewEncoder(w).Encode(f.Requests())
	case r.Method == http.MethodPost && r.URL.Path == "/_fake/reset":
		f.Reset()
		w.WriteHeader(http.StatusNoContent)
	default:
		http.Error(w, `{"error":"unknown control endpoint"}`, http.StatusNotFound)
	}
}

// Server is a Fake listening on a local port.
type Server struct {
	*Fake
	// URL is the base URL to give the genai client (HTTPOptions.BaseURL).
	URL string
}

// Start serves a new Fake that accepts apiKey until the test ends.
func Start(tb testing.TB, apiKey string, opts ...Option) *Server {
	tb.Helper()
	f := New(apiKey, opts...)
	ts := httptest.NewServer(f)
	tb.Cleanup(ts.Close)
	return &Server{Fake: f, URL: ts.URL}
}
