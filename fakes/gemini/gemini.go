// Package gemini is a stand-in for the Gemini API's generateContent endpoint, speaking its
// real REST shape (POST /v1beta/models/{model}:generateContent with the key in the
// x-goog-api-key header or the key query parameter). Tests queue the replies they need
// (well-formed JSON, JSON in prose or fences, prose, no candidates, HTTP errors, slow replies)
// and read back the requests it received; with nothing queued it answers a plausible product
// so the local stack shows a working AI without internet.
package gemini

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// GenerateContentRequest is the request body, as the REST API defines it.
type GenerateContentRequest struct {
	Contents          []Content         `json:"contents"`
	SystemInstruction *Content          `json:"systemInstruction,omitempty"`
	GenerationConfig  *GenerationConfig `json:"generationConfig,omitempty"`
}

// Content is one turn of a conversation.
type Content struct {
	Role  string `json:"role,omitempty"`
	Parts []Part `json:"parts"`
}

// Part is text or inline data.
type Part struct {
	Text       string `json:"text,omitempty"`
	InlineData *Blob  `json:"inlineData,omitempty"`
}

// Blob is inline data, base64 encoded.
type Blob struct {
	MimeType string `json:"mimeType"`
	Data     string `json:"data"`
}

// GenerationConfig holds the sampling settings the tests check.
type GenerationConfig struct {
	Temperature      *float64 `json:"temperature,omitempty"`
	MaxOutputTokens  *int     `json:"maxOutputTokens,omitempty"`
	ResponseMIMEType string   `json:"responseMimeType,omitempty"`
	ThinkingConfig   *struct {
		ThinkingBudget *int `json:"thinkingBudget,omitempty"`
	} `json:"thinkingConfig,omitempty"`
}

// Request is one call the fake received.
type Request struct {
	Model    string                 `json:"model"`
	APIKey   string                 `json:"-"`
	Body     GenerateContentRequest `json:"body"`
	Received time.Time              `json:"received"`
}

// Prompt joins the request's text parts.
func (r Request) Prompt() string {
	var texts []string
	for _, c := range r.Body.Contents {
		for _, p := range c.Parts {
			if p.Text != "" {
				texts = append(texts, p.Text)
			}
		}
	}
	return strings.Join(texts, "\n")
}

// Images returns the request's inline data parts.
func (r Request) Images() []Blob {
	var out []Blob
	for _, c := range r.Body.Contents {
		for _, p := range c.Parts {
			if p.InlineData != nil {
				out = append(out, *p.InlineData)
			}
		}
	}
	return out
}

// Reply is how the fake answers one call.
type Reply struct {
	// Status is the HTTP status; 0 means 200.
	Status int `json:"status,omitempty"`
	// Text is the first candidate's text, used when Body is nil.
	Text string `json:"text,omitempty"`
	// NoCandidates answers an empty candidate list (as for a blocked prompt).
	NoCandidates bool `json:"noCandidates,omitempty"`
	// NoText answers a candidate without parts.
	NoText bool `json:"noText,omitempty"`
	// Body, when set, is sent as is.
	Body json.RawMessage `json:"body,omitempty"`
	// Delay holds the answer back; a client that gives up first sees a timeout.
	Delay time.Duration `json:"delay,omitempty"`
}

// JSON answers v encoded as JSON text, the well-formed reply.
func JSON(v any) Reply {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return Reply{Text: string(b)}
}

// Fenced answers v as JSON inside a ```json fence with prose around it, as models often do.
func Fenced(v any) Reply {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	return Reply{Text: "Sure! Here is the product information:\n\n```json\n" + string(b) + "\n```\n\nLet me know if you need more."}
}

// Text answers the given text as the first candidate's text (prose without JSON, for example).
func Text(s string) Reply { return Reply{Text: s} }

// NoCandidates answers an empty candidate list.
func NoCandidates() Reply { return Reply{NoCandidates: true} }

// NoText answers a candidate whose content has no parts.
func NoText() Reply { return Reply{NoText: true} }

// Error answers an HTTP error in Google's error format.
func Error(status int) Reply { return Reply{Status: status} }

// Slow holds r back for d.
func Slow(d time.Duration, r Reply) Reply { r.Delay = d; return r }

// Fake is the fake API. It is safe for concurrent use.
type Fake struct {
	apiKey   string
	control  bool
	mu       sync.Mutex
	queue    []Reply
	always   *Reply
	requests []Request
}

// Option configures a Fake.
type Option func(*Fake)

// WithControl adds the /_fake/ endpoints (queue replies, read requests, reset) for callers in
// another process, such as end-to-end tests against the running stack.
func WithControl() Option { return func(f *Fake) { f.control = true } }

// New returns a fake that accepts apiKey; an empty apiKey accepts any non-empty key.
func New(apiKey string, opts ...Option) *Fake {
	f := &Fake{apiKey: apiKey}
	for _, o := range opts {
		o(f)
	}
	return f
}

// Enqueue adds replies answered in order, one per call; after them the default applies.
func (f *Fake) Enqueue(replies ...Reply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queue = append(f.queue, replies...)
}

// Always makes every call with nothing queued answer r, instead of a plausible product.
func (f *Fake) Always(r Reply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.always = &r
}

// Requests returns the calls received so far, oldest first.
func (f *Fake) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.requests...)
}

// Calls is the number of generateContent calls received.
func (f *Fake) Calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

// Reset forgets queued replies, the Always reply and the recorded requests.
func (f *Fake) Reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queue, f.always, f.requests = nil, nil, nil
}

const maxBody = 32 << 20

func (f *Fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if f.control && strings.HasPrefix(r.URL.Path, "/_fake/") {
		f.serveControl(w, r)
		return
	}
	model, ok := parsePath(r.URL.Path)
	if !ok {
		writeError(w, http.StatusNotFound, "NOT_FOUND", "Requested entity was not found.")
		return
	}
	if r.Method != http.MethodPost {
		writeError(w, http.StatusMethodNotAllowed, "INVALID_ARGUMENT", "Only POST is supported.")
		return
	}
	key := r.Header.Get("x-goog-api-key")
	if key == "" {
		key = r.URL.Query().Get("key")
	}
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "INVALID_ARGUMENT", "Request payload size exceeds the limit.")
		return
	}
	var body GenerateContentRequest
	decodeErr := json.Unmarshal(raw, &body)

	req := Request{Model: model, APIKey: key, Body: body, Received: time.Now()}
	f.mu.Lock()
	f.requests = append(f.requests, req)
	reply := f.nextLocked(req)
	f.mu.Unlock()

	switch {
	case key == "":
		writeError(w, http.StatusForbidden, "PERMISSION_DENIED",
			"Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.")
		return
	case f.apiKey != "" && key != f.apiKey:
		writeError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.")
		return
	case decodeErr != nil:
		writeError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "Invalid JSON payload received. "+decodeErr.Error())
		return
	case len(body.Contents) == 0:
		writeError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "* GenerateContentRequest.contents: contents is not specified")
		return
	}
	if bad := badInlineData(body); bad != "" {
		writeError(w, http.StatusBadRequest, "INVALID_ARGUMENT", bad)
		return
	}

	if reply.Delay > 0 {
		select {
		case <-time.After(reply.Delay):
		case <-r.Context().Done():
			return
		}
	}
	f.write(w, model, req, reply)
}

func (f *Fake) nextLocked(req Request) Reply {
	if len(f.queue) > 0 {
		r := f.queue[0]
		f.queue = f.queue[1:]
		return r
	}
	if f.always != nil {
		return *f.always
	}
	return Plausible(req)
}

func (f *Fake) write(w http.ResponseWriter, model string, req Request, reply Reply) {
	if reply.Body != nil {
		status := reply.Status
		if status == 0 {
			status = http.StatusOK
		}
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		w.WriteHeader(status)
		_, _ = w.Write(reply.Body)
		return
	}
	if reply.Status != 0 && reply.Status != http.StatusOK {
		writeError(w, reply.Status, statusName(reply.Status), errorMessage(reply.Status))
		return
	}
	type candidate struct {
		Content      Content `json:"content"`
		FinishReason string  `json:"finishReason"`
		Index        int     `json:"index"`
	}
	resp := struct {
		Candidates     []candidate    `json:"candidates"`
		PromptFeedback map[string]any `json:"promptFeedback,omitempty"`
		UsageMetadata  map[string]int `json:"usageMetadata"`
		ModelVersion   string         `json:"modelVersion"`
		ResponseID     string         `json:"responseId"`
	}{
		Candidates:   []candidate{},
		ModelVersion: model,
		ResponseID:   fmt.Sprintf("fake-%d", time.Now().UnixNano()),
	}
	promptTokens := len(req.Prompt())/4 + 258*len(req.Images())
	outTokens := 0
	switch {
	case reply.NoCandidates:
		resp.PromptFeedback = map[string]any{"blockReason": "OTHER"}
	case reply.NoText:
		resp.Candidates = append(resp.Candidates, candidate{Content: Content{Role: "model", Parts: []Part{}}, FinishReason: "MAX_TOKENS"})
	default:
		outTokens = len(reply.Text)/4 + 1
		resp.Candidates = append(resp.Candidates, candidate{
			Content:      Content{Role: "model", Parts: []Part{{Text: reply.Text}}},
			FinishReason: "STOP",
		})
	}
	resp.UsageMetadata = map[string]int{
		"promptTokenCount": promptTokens, "candidatesTokenCount": outTokens, "totalTokenCount": promptTokens + outTokens,
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = json.NewEncoder(w).Encode(resp)
}

// parsePath reads the model from /v1beta/models/{model}:generateContent.
func parsePath(p string) (string, bool) {
	for _, prefix := range []string{"/v1beta/models/", "/v1/models/"} {
		if rest, ok := strings.CutPrefix(p, prefix); ok {
			model, ok := strings.CutSuffix(rest, ":generateContent")
			return model, ok && model != "" && !strings.Contains(model, "/")
		}
	}
	return "", false
}

func badInlineData(body GenerateContentRequest) string {
	for _, c := range body.Contents {
		for _, p := range c.Parts {
			if p.InlineData == nil {
				continue
			}
			if p.InlineData.MimeType == "" {
				return "* GenerateContentRequest.contents.parts.inline_data.mime_type: mime_type is not specified"
			}
			if _, err := base64.StdEncoding.DecodeString(p.InlineData.Data); err != nil {
				return "Invalid value at 'contents.parts.inline_data.data' (TYPE_BYTES), Base64 decoding failed"
			}
		}
	}
	return ""
}

func writeError(w http.ResponseWriter, status int, name, message string) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"error": map[string]any{"code": status, "message": message, "status": name},
	})
}

func statusName(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "INVALID_ARGUMENT"
	case http.StatusForbidden:
		return "PERMISSION_DENIED"
	case http.StatusNotFound:
		return "NOT_FOUND"
	case http.StatusTooManyRequests:
		return "RESOURCE_EXHAUSTED"
	case http.StatusServiceUnavailable:
		return "UNAVAILABLE"
	case http.StatusGatewayTimeout:
		return "DEADLINE_EXCEEDED"
	}
	return "INTERNAL"
}

func errorMessage(status int) string {
	switch status {
	case http.StatusTooManyRequests:
		return "Resource has been exhausted (e.g. check quota)."
	case http.StatusServiceUnavailable:
		return "The model is overloaded. Please try again later."
	case http.StatusInternalServerError:
		return "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"
	}
	return http.StatusText(status)
}
