package adapters

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"testing"
)

func TestWellFormedBase64TravelsAsBytesInAMultipartForm(t *testing.T) {
	body, contentType, err := uploadBody("user-1", "item-1", "data:image/png;base64,iVBORw0KGgo=")
	if err != nil {
		t.Fatal(err)
	}
	mediaType, params, _ := mime.ParseMediaType(contentType)
	if mediaType != "multipart/form-data" {
		t.Fatalf("content type %q", contentType)
	}
	form, err := multipart.NewReader(body, params["boundary"]).ReadForm(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	if form.Value["userId"][0] != "user-1" || form.Value["itemId"][0] != "item-1" {
		t.Fatalf("fields %v", form.Value)
	}
	f, _ := form.File["image"][0].Open()
	got, _ := io.ReadAll(f)
	if !bytes.Equal(got, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("image bytes %q", got)
	}
}

func TestOtherDataURLsTravelAsJSONForTheMediaServiceToJudge(t *testing.T) {
	for _, dataURL := range []string{
		"data:image/png;base64,iVBO Rw0KGgo=", // spaced: the media service removes the spaces
		"data:image/png;base64,not base64!",   // malformed: the media service words the refusal
		"data:image/svg+xml,%3Csvg%3E",        // percent-encoded
	} {
		body, contentType, err := uploadBody("user-1", "item-1", dataURL)
		if err != nil || contentType != "application/json" {
			t.Fatalf("%q: %q %v", dataURL, contentType, err)
		}
		var sent map[string]string
		if err := json.NewDecoder(body).Decode(&sent); err != nil || sent["dataUrl"] != dataURL || sent["userId"] != "user-1" {
			t.Fatalf("%q: sent %v %v", dataURL, sent, err)
		}
	}
}
