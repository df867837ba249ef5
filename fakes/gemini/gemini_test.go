package gemini

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func post(t *testing.T, url, body string, header map[string]string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	data, _ := io.ReadAll(resp.Body)
	if len(data) > 0 {
		if err := json.Unmarshal(data, &out); err != nil {
			t.Fatalf("%d %s: %v", resp.StatusCode, data, err)
		}
	}
	return resp.StatusCode, out
}

const textRequest = `{"contents":[{"role":"user","parts":[{"text":"a teddy bear please"}]}],"generationConfig":{"temperature":0.2,"maxOutputTokens":800}}`

func firstText(t *testing.T, resp map[string]any) string {
	t.Helper()
	c := resp["candidates"].([]any)[0].(map[string]any)
	return c["content"].(map[string]any)["parts"].([]any)[0].(map[string]any)["text"].(string)
}

func TestFakeSpeaksTheRESTShape(t *testing.T) {
	s := Start(t, "k")
	url := s.URL + "/v1beta/models/gemini-2.5-flash:generateContent"

	status, resp := post(t, url+"?key=k", textRequest, nil)
	if status != 200 || resp["usageMetadata"] == nil {
		t.Fatalf("%d %v", status, resp)
	}
	c := resp["candidates"].([]any)[0].(map[string]any)
	if c["finishReason"] != "STOP" || c["content"].(map[string]any)["role"] != "model" {
		t.Fatalf("%v", c)
	}
	// With nothing queued the answer is a plausible product picked by the prompt's words.
	var product map[string]any
	if err := json.Unmarshal([]byte(firstText(t, resp)), &product); err != nil || product["name"] != "Classic Teddy Bear" {
		t.Fatalf("%v %v", product, err)
	}
	if !strings.Contains(product["description"].(string), "fake Gemini") {
		t.Fatal("the sample answer does not say it is fake")
	}

	reqs := s.Requests()
	if len(reqs) != 1 || reqs[0].Model != "gemini-2.5-flash" || reqs[0].APIKey != "k" || *reqs[0].Body.GenerationConfig.Temperature != 0.2 {
		t.Fatalf("%+v", reqs)
	}
}

func TestFakeChecksKeyPathAndBody(t *testing.T) {
	s := Start(t, "k")
	url := s.URL + "/v1beta/models/m:generateContent"
	if status, resp := post(t, url, textRequest, nil); status != 403 || resp["error"].(map[string]any)["status"] != "PERMISSION_DENIED" {
		t.Fatalf("no key: %d %v", status, resp)
	}
	if status, _ := post(t, url, textRequest, map[string]string{"x-goog-api-key": "wrong"}); status != 400 {
		t.Fatalf("wrong key: %d", status)
	}
	if status, _ := post(t, url, `{"contents":[]}`, map[string]string{"x-goog-api-key": "k"}); status != 400 {
		t.Fatalf("no contents: %d", status)
	}
	if status, _ := post(t, url, `{"contents":[{"parts":[{"inlineData":{"mimeType":"image/png","data":"%%%"}}]}]}`, map[string]string{"x-goog-api-key": "k"}); status != 400 {
		t.Fatalf("bad base64: %d", status)
	}
	if status, _ := post(t, s.URL+"/v1beta/models/m:countTokens", textRequest, map[string]string{"x-goog-api-key": "k"}); status != 404 {
		t.Fatalf("other method: %d", status)
	}
}

func TestFakeScenariosInOrder(t *testing.T) {
	s := Start(t, "")
	url := s.URL + "/v1beta/models/m:generateContent?key=any"
	s.Enqueue(Error(429), NoCandidates(), NoText(), Text("just prose"))
	if status, resp := post(t, url, textRequest, nil); status != 429 || resp["error"].(map[string]any)["status"] != "RESOURCE_EXHAUSTED" {
		t.Fatalf("429: %d %v", status, resp)
	}
	if _, resp := post(t, url, textRequest, nil); len(resp["candidates"].([]any)) != 0 {
		t.Fatalf("no candidates: %v", resp)
	}
	if _, resp := post(t, url, textRequest, nil); len(resp["candidates"].([]any)[0].(map[string]any)["content"].(map[string]any)["parts"].([]any)) != 0 {
		t.Fatalf("no text: %v", resp)
	}
	if _, resp := post(t, url, textRequest, nil); firstText(t, resp) != "just prose" {
		t.Fatalf("prose: %v", resp)
	}
	if s.Calls() != 4 {
		t.Fatalf("%d calls", s.Calls())
	}
}

func TestFakeControlEndpoints(t *testing.T) {
	s := Start(t, "", WithControl())
	body, _ := json.Marshal([]Reply{Text("queued"), {Status: 500}, {Text: "late", Delay: 10 * time.Millisecond}})
	resp, err := http.Post(s.URL+"/_fake/replies", "application/json", bytes.NewReader(body))
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("%v %v", resp, err)
	}
	url := s.URL + "/v1beta/models/m:generateContent?key=any"
	if _, r := post(t, url, textRequest, nil); firstText(t, r) != "queued" {
		t.Fatalf("%v", r)
	}
	if status, _ := post(t, url, textRequest, nil); status != 500 {
		t.Fatalf("%d", status)
	}
	if _, r := post(t, url, textRequest, nil); firstText(t, r) != "late" {
		t.Fatalf("%v", r)
	}
	got, err := http.Get(s.URL + "/_fake/requests")
	if err != nil {
		t.Fatal(err)
	}
	var reqs []Request
	_ = json.NewDecoder(got.Body).Decode(&reqs)
	got.Body.Close()
	if len(reqs) != 3 || reqs[0].Model != "m" {
		t.Fatalf("%+v", reqs)
	}
	if resp, _ := http.Post(s.URL+"/_fake/reset", "application/json", nil); resp.StatusCode != http.StatusNoContent || s.Calls() != 0 {
		t.Fatal("reset")
	}
}

func TestPlausibleFollowsTheRequest(t *testing.T) {
	item := Plausible(Request{Body: GenerateContentRequest{Contents: []Content{{Parts: []Part{{Text: "category: one of: toy, electronics, clothing, accessory, other\nWireless headphones"}}}}}})
	if !strings.Contains(item.Text, `"category":"electronics"`) || !strings.Contains(item.Text, `"estimatedPrice"`) {
		t.Fatalf("%s", item.Text)
	}
	// The category names in instructions are not cues; an image picks the same product every time.
	img := Request{Body: GenerateContentRequest{Contents: []Content{{Parts: []Part{
		{InlineData: &Blob{MimeType: "image/jpeg", Data: "AAECAwQF"}},
		{Text: "category: one of: Electronics, Clothing, Toys, Home, Books"},
	}}}}}
	if a, b := Plausible(img), Plausible(img); a.Text != b.Text {
		t.Fatal("not deterministic")
	}
}
