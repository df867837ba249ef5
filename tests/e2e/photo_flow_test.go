//go:build e2e

package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/testenv"
)

type liveEvent = testenv.Event

// stream opens the user's live stream through the gateway, as the web app does with fetch
// (its status and headers checked against api/openapi.yaml; the body stays open).
func (c *client) stream(t *testing.T) <-chan liveEvent {
	t.Helper()
	s := c.api().With(t).Open("/api/notifications/stream")
	if s.Status != 200 {
		t.Fatalf("stream: %d", s.Status)
	}
	return s.Events()
}

// expectWithin bounds how long expect waits for a live event. It is a bound on a lost event, not
// a latency target (those are printed by the tests and benchmarks): an event passes through
// wishlist's outbox relay, whose retry pause after a failed publish grows to 10 s, then
// JetStream and notification's consumer, so a cluster that has just rolled out can take a few
// seconds more than 10 s for the first one.
const expectWithin = 30 * time.Second

func expect(t *testing.T, c <-chan liveEvent, event, contains string) {
	t.Helper()
	deadline := time.After(expectWithin)
	var seen []string // what came instead, for the failure message
	for {
		select {
		case e := <-c:
			if e.Event == event && strings.Contains(e.Data, contains) {
				return
			}
			seen = append(seen, e.Event+" "+e.Data)
		case <-deadline:
			t.Fatalf("no %s event containing %s within %s; the stream sent instead: %q", event, contains, expectWithin, seen)
		}
	}
}

func photoDataURL(t *testing.T) string {
	img := image.NewRGBA(image.Rect(0, 0, 640, 480))
	for y := 0; y < 480; y++ {
		for x := 0; x < 640; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 120, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}

func TestAPhotoItemIsStoredServedCountedAndCleanedUp(t *testing.T) {
	c, _ := newUser(t, "photo")
	live := c.stream(t)
	expect(t, live, "hello", `"count":0`)

	code, body := c.json("POST", "/api/wishlist", map[string]any{
		"name": "Teddy Bear", "description": "A soft brown bear with a red scarf", "category": "Toys",
		"imageUrl": photoDataURL(t), "aiGenerated": true, "features": []string{"soft", "washable", "scarf"},
	})
	if code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, body)
	}
	var it item
	_ = json.Unmarshal(body, &it)
	if it.ImageURL == nil || !strings.HasPrefix(*it.ImageURL, "/media/") || strings.Contains(string(body), "base64") {
		t.Fatalf("the image must be stored, not kept as a data URL: %s", body)
	}
	code, _, hdr := c.do("GET", *it.ImageURL, nil)
	if code != 200 || hdr.Get("Content-Type") != "image/jpeg" || hdr.Get("ETag") == "" {
		t.Fatalf("image served: %d %v", code, hdr)
	}
	img, err := http.Get(c.base + *it.ImageURL) // and without a token, as an <img> asks
	if err != nil {
		t.Fatal(err)
	}
	img.Body.Close()
	if img.StatusCode != 200 || img.Header.Get("Content-Type") != "image/jpeg" || img.Header.Get("ETag") == "" {
		t.Fatalf("image served: %d %v", img.StatusCode, img.Header)
	}
	expect(t, live, "wishlist-count", `"count":1`)

	if code, _, _ := c.do("DELETE", "/api/wishlist/"+it.ID, nil); code != http.StatusNoContent {
		t.Fatalf("delete: %d", code)
	}
	expect(t, live, "wishlist-count", `"count":0`)
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(c.base + *it.ImageURL)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusNotFound {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the deleted item's image is still served")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestSantaRequestReachesTheUsersOtherDevicesOnly(t *testing.T) {
	c, _ := newUser(t, "santa")
	other, _ := newUser(t, "bystander")
	phone := c.stream(t)
	tablet := c.stream(t)
	theirs := other.stream(t)
	for _, s := range []<-chan liveEvent{phone, tablet, theirs} {
		expect(t, s, "hello", `"count"`)
	}
	code, body := c.json("POST", "/api/santa", map[string]any{
		"name": "Wooden Sled", "description": "A gift item from your wishlist", "price": "$45.00", "imageUrl": "",
	})
	if code != 200 || !strings.Contains(string(body), `"sentToSanta":true`) {
		t.Fatalf("santa: %d %s", code, body)
	}
	expect(t, phone, "santa", "Santa received your gift request!")
	expect(t, tablet, "santa", "Wooden Sled")
	select {
	case e := <-theirs:
		t.Fatalf("another user's device got %+v", e)
	case <-time.After(time.Second):
	}
	if items := c.list(); len(items) != 1 || !items[0].SentToSanta {
		t.Fatalf("the gift was not saved as sent: %+v", items)
	}
}

func TestImagesThatAreNotImagesAreRefused(t *testing.T) {
	c, _ := newUser(t, "badimage")
	for name, dataURL := range map[string]string{
		"text named jpeg":  "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString([]byte("just some text, not a photo")),
		"malformed base64": "data:image/jpeg;base64,/9j/4AAQ%%%not-base64",
		"svg":              "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)),
	} {
		code, body := c.json("POST", "/api/wishlist", map[string]any{"name": "Sneaky", "description": "Not really a photo at all", "imageUrl": dataURL})
		if code < 400 || code >= 500 || !strings.Contains(string(body), "imageUrl") {
			t.Fatalf("%s: %d %s", name, code, body)
		}
	}
	if len(c.list()) != 0 {
		t.Fatal("an item with a refused image was saved")
	}
}

// The wishlist sends well-formed base64 to the media service as bytes and anything else as
// the data URL itself: a photo whose base64 carries spaces takes the second way.
func TestAPhotoWithSpacedBase64IsStoredToo(t *testing.T) {
	c, _ := newUser(t, "spacedphoto")
	photo := photoDataURL(t)
	head, payload, _ := strings.Cut(photo, ",")
	var spaced strings.Builder
	for i := 0; i < len(payload); i += 76 {
		spaced.WriteString(payload[i:min(i+76, len(payload))])
		spaced.WriteString(" ")
	}
	code, body := c.json("POST", "/api/wishlist", map[string]any{
		"name": "Rocking Horse", "description": "A wooden horse painted red and white", "category": "Toys",
		"imageUrl": head + "," + spaced.String(),
	})
	var it item
	_ = json.Unmarshal(body, &it)
	if code != http.StatusCreated || it.ImageURL == nil || !strings.HasPrefix(*it.ImageURL, "/media/") {
		t.Fatalf("create: %d %s", code, body)
	}
}
