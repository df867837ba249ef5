package adapters

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/fakes/gemini"
	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

const testKey = "test-key-123"

func newGemini(t *testing.T, fake *gemini.Server, key string) *Gemini {
	t.Helper()
	g, err := NewGemini(context.Background(), GeminiConfig{APIKey: key, Model: "gemini-2.5-flash", BaseURL: fake.URL})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGeminiSendsTheSpecRequest(t *testing.T) {
	fake := gemini.Start(t, testKey)
	fake.Enqueue(gemini.JSON(map[string]string{"name": "Kite"}))
	g := newGemini(t, fake, testKey)
	png := []byte("\x89PNG\r\n\x1a\n fake png bytes")

	reply, err := g.Generate(context.Background(), domain.Call{
		Kind: domain.KindAnalyze, Prompt: "describe this", Image: &domain.Image{Data: png, MimeType: "image/png"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if reply.Candidates != 1 || !reply.HasText || reply.Text != `{"name":"Kite"}` {
		t.Fatalf("reply %+v", reply)
	}
	reqs := fake.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Model != "gemini-2.5-flash" || r.APIKey != testKey {
		t.Fatalf("model %q key %q", r.Model, r.APIKey)
	}
	gc := r.Body.GenerationConfig
	if gc == nil || gc.Temperature == nil || *gc.Temperature != 0.2 || gc.MaxOutputTokens == nil || *gc.MaxOutputTokens != 800 {
		t.Fatalf("generation config %+v", gc)
	}
	// Flash's thinking would eat the 800 tokens; JSON mode keeps the reply parseable.
	if gc.ThinkingConfig == nil || gc.ThinkingConfig.ThinkingBudget == nil || *gc.ThinkingConfig.ThinkingBudget != 0 ||
		gc.ResponseMIMEType != "application/json" {
		t.Fatalf("thinking %+v, response type %q", gc.ThinkingConfig, gc.ResponseMIMEType)
	}
	imgs := r.Images()
	if len(imgs) != 1 || imgs[0].MimeType != "image/png" || imgs[0].Data != base64.StdEncoding.EncodeToString(png) {
		t.Fatalf("inline data %+v", imgs)
	}
	if r.Prompt() != "describe this" || r.Body.Contents[0].Role != "user" {
		t.Fatalf("prompt %q role %q", r.Prompt(), r.Body.Contents[0].Role)
	}
}

func TestGeminiTextOnlyCallHasNoImage(t *testing.T) {
	fake := gemini.Start(t, testKey)
	g := newGemini(t, fake, testKey)
	if _, err := g.Generate(context.Background(), domain.Call{Kind: domain.KindGift, Prompt: "a teddy bear"}); err != nil {
		t.Fatal(err)
	}
	if r := fake.Requests()[0]; len(r.Images()) != 0 || len(r.Body.Contents[0].Parts) != 1 {
		t.Fatalf("parts %+v", r.Body.Contents[0].Parts)
	}
}

func TestGeminiReplyShapes(t *testing.T) {
	fake := gemini.Start(t, testKey)
	g := newGemini(t, fake, testKey)
	call := domain.Call{Kind: domain.KindGift, Prompt: "x"}

	fake.Enqueue(gemini.NoCandidates())
	if r, err := g.Generate(context.Background(), call); err != nil || r.Candidates != 0 {
		t.Fatalf("no candidates: %+v %v", r, err)
	}
	fake.Enqueue(gemini.NoText())
	if r, err := g.Generate(context.Background(), call); err != nil || r.Candidates != 1 || r.HasText {
		t.Fatalf("no text: %+v %v", r, err)
	}
}

func TestGeminiErrorsCarryTheStatus(t *testing.T) {
	fake := gemini.Start(t, testKey)
	g := newGemini(t, fake, testKey)
	call := domain.Call{Kind: domain.KindGift, Prompt: "x"}
	for _, status := range []int{429, 500, 503} {
		fake.Enqueue(gemini.Error(status))
		_, err := g.Generate(context.Background(), call)
		f, ok := domain.AsAIFailure(err)
		if !ok || f.Status != status || !f.Retryable() {
			t.Fatalf("status %d: %v", status, err)
		}
	}
	// genai's own retry is off: one failing call is one request.
	if fake.Calls() != 3 {
		t.Fatalf("%d calls for 3 failures: genai retried on its own", fake.Calls())
	}

	// A 429 with Google's RetryInfo detail says how long to wait.
	fake.Enqueue(gemini.Reply{Status: 429, Body: []byte(`{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED",
		"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"7s"}]}}`)})
	_, err := g.Generate(context.Background(), call)
	if f, _ := domain.AsAIFailure(err); f == nil || f.RetryAfter != 7*time.Second || f.Message != "Gemini API error (429)" {
		t.Fatalf("retry info: %+v", err)
	}

	// A non-JSON error body still gives its status.
	fake.Enqueue(gemini.Reply{Status: 502, Body: []byte("<html>bad gateway</html>")})
	_, err = g.Generate(context.Background(), call)
	if f, _ := domain.AsAIFailure(err); f == nil || f.Status != 502 {
		t.Fatalf("html error: %+v", err)
	}
}

func TestGeminiWrongKeyIsAClientError(t *testing.T) {
	fake := gemini.Start(t, testKey)
	g := newGemini(t, fake, "wrong")
	_, err := g.Generate(context.Background(), domain.Call{Kind: domain.KindGift, Prompt: "x"})
	f, ok := domain.AsAIFailure(err)
	if !ok || f.Status != 400 || f.Retryable() || !strings.Contains(f.Detail, "API key not valid") {
		t.Fatalf("%+v", err)
	}
}

func TestGeminiTimeoutIsTheContextError(t *testing.T) {
	fake := gemini.Start(t, testKey)
	fake.Enqueue(gemini.Slow(5*time.Second, gemini.Text("late")))
	g := newGemini(t, fake, testKey)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := g.Generate(ctx, domain.Call{Kind: domain.KindGift, Prompt: "x"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Fatal("the call did not stop at the deadline")
	}
}

func TestGeminiUnreachableIsANetworkFailure(t *testing.T) {
	g, err := NewGemini(context.Background(), GeminiConfig{APIKey: testKey, Model: "m", BaseURL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Generate(context.Background(), domain.Call{Kind: domain.KindGift, Prompt: "x"})
	if f, ok := domain.AsAIFailure(err); !ok || f.Reason != domain.ReasonNetwork || !f.Retryable() {
		t.Fatalf("%v", err)
	}
}
