// Package adapters connects the vision service to Gemini (google.golang.org/genai), Redis, the
// media service, the product databases (Upstream) and shops' pages (Fetcher).
package adapters

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"google.golang.org/genai"

	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

// GeminiConfig says which Gemini to call.
type GeminiConfig struct {
	APIKey string
	Model  string
	// BaseURL replaces https://generativelanguage.googleapis.com/ (tests and the local stack
	// point it at the fake).
	BaseURL string
}

// Gemini makes one generateContent call per Generate. It does not retry: the application
// owns retries and timeouts, so genai's own retry stays off (RetryOptions nil) and the two
// never multiply.
type Gemini struct {
	client *genai.Client
	model  string
}

var _ domain.Model = (*Gemini)(nil)

// NewGemini builds the client. It does no network call.
func NewGemini(ctx context.Context, cfg GeminiConfig) (*Gemini, error) {
	if cfg.APIKey == "" {
		return nil, errors.New("gemini: an API key is required")
	}
	client, err := genai.NewClient(ctx, &genai.ClientConfig{
		APIKey:  cfg.APIKey,
		Backend: genai.BackendGeminiAPI,
		HTTPClient: &http.Client{Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			TLSHandshakeTimeout: 5 * time.Second,
			MaxIdleConnsPerHost: 16,
			IdleConnTimeout:     90 * time.Second,
			ForceAttemptHTTP2:   true,
		}},
		HTTPOptions: genai.HTTPOptions{BaseURL: cfg.BaseURL, RetryOptions: nil},
	})
	if err != nil {
		return nil, fmt.Errorf("gemini client: %w", err)
	}
	return &Gemini{client: client, model: cfg.Model}, nil
}

// Generate sends the prompt (and the image, when there is one) and returns the first
// candidate's first part text. An HTTP error from Gemini comes back as a domain.AIFailure
// with its status; a cancelled or expired ctx comes back as ctx's error.
func (g *Gemini) Generate(ctx context.Context, call domain.Call) (domain.ModelReply, error) {
	var parts []*genai.Part
	if call.Image != nil {
		parts = append(parts, genai.NewPartFromBytes(call.Image.Data, call.Image.MimeType))
	}
	parts = append(parts, genai.NewPartFromText(call.Prompt))
	config := &genai.GenerateContentConfig{
		Temperature:      genai.Ptr[float32](domain.Temperature),
		MaxOutputTokens:  domain.MaxOutputTokens,
		ResponseMIMEType: "application/json",
	}
	// Gemini 2.5 Flash thinks by default and its thoughts count against the 800 output
	// tokens, which can leave no room for the answer; these short answers need no thinking.
	if strings.HasPrefix(g.model, "gemini-2.5-flash") {
		config.ThinkingConfig = &genai.ThinkingConfig{ThinkingBudget: genai.Ptr[int32](0)}
	}
	resp, err := g.client.Models.GenerateContent(ctx, g.model,
		[]*genai.Content{genai.NewContentFromParts(parts, genai.RoleUser)}, config)
	if err != nil {
		return domain.ModelReply{}, callError(ctx, err)
	}
	return firstText(resp), nil
}

func firstText(resp *genai.GenerateContentResponse) domain.ModelReply {
	if resp == nil || len(resp.Candidates) == 0 {
		return domain.ModelReply{}
	}
	r := domain.ModelReply{Candidates: len(resp.Candidates)}
	c := resp.Candidates[0]
	if c != nil && c.Content != nil && len(c.Content.Parts) > 0 && c.Content.Parts[0] != nil {
		r.Text = c.Content.Parts[0].Text
		r.HasText = r.Text != ""
	}
	return r
}

func callError(ctx context.Context, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	var apiErr genai.APIError
	if errors.As(err, &apiErr) {
		f := domain.StatusFailure(apiStatus(apiErr))
		f.RetryAfter = retryDelay(apiErr)
		f.Detail = apiErr.Message
		return f
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return context.DeadlineExceeded
	}
	f := domain.NetworkFailure()
	f.Detail = err.Error()
	return f
}

// apiStatus is the HTTP status of an API error. genai takes Code from the JSON error body;
// for a body that was not Google's error JSON it keeps the status line ("503 Service
// Unavailable") instead.
func apiStatus(e genai.APIError) int {
	if e.Code >= 400 && e.Code <= 599 {
		return e.Code
	}
	if code, err := strconv.Atoi(strings.SplitN(strings.TrimSpace(e.Status), " ", 2)[0]); err == nil && code >= 400 && code <= 599 {
		return code
	}
	return http.StatusBadGateway
}

// retryDelay reads the google.rpc.RetryInfo detail that Gemini adds to a 429.
func retryDelay(e genai.APIError) time.Duration {
	for _, d := range e.Details {
		if t, _ := d["@type"].(string); !strings.HasSuffix(t, "google.rpc.RetryInfo") {
			continue
		}
		if s, ok := d["retryDelay"].(string); ok {
			if v, err := time.ParseDuration(s); err == nil && v > 0 {
				return v
			}
		}
	}
	return 0
}
