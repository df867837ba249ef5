package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"
)

// runNotificationBench measures, at a fixed rate of creates, the time from POST
// /api/wishlist to the new count arriving on an open live stream of the same user.
func runNotificationBench(cfg config, users []user) {
	const rate, seconds = 50, 10
	// A fresh user: the seeded ones are near the per-user item cap.
	u, err := signUp(cfg.EmulatorHost, fmt.Sprintf("bench-live-%d@example.com", time.Now().UnixNano()))
	if err != nil {
		fmt.Printf("sign up: %v\n", err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	arrivals, err := openStream(ctx, cfg.URL, u.Token)
	time.Sleep(200 * time.Millisecond) // let the stream's hello arrive first
	if err != nil {
		fmt.Printf("live stream unavailable: %v\n", err)
		return
	}
	// The count may arrive before the POST's own answer, so both sides are recorded and matched
	// whichever comes second.
	var mu sync.Mutex
	sent := map[string]time.Time{}
	arrived := map[string]time.Time{}
	res := &result{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for a := range arrivals {
			mu.Lock()
			if t0, ok := sent[a.itemID]; ok {
				res.latencies = append(res.latencies, a.at.Sub(t0))
				delete(sent, a.itemID)
			} else {
				arrived[a.itemID] = a.at
			}
			mu.Unlock()
		}
	}()
	interval := time.Second / rate
	start := time.Now()
	var wg sync.WaitGroup
	var errs int64
	for i := 0; i < rate*seconds; i++ {
		time.Sleep(time.Until(start.Add(time.Duration(i) * interval)))
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			t0 := time.Now()
			code, body, err := post(cfg.URL+"/api/wishlist", u.Token,
				fmt.Sprintf(`{"name":"Live gift %d","description":"Measuring the live badge update","category":"Toys"}`, i))
			if err != nil || code != http.StatusCreated {
				mu.Lock()
				errs++
				mu.Unlock()
				return
			}
			var it struct{ ID string }
			_ = json.Unmarshal(body, &it)
			mu.Lock()
			if at, ok := arrived[it.ID]; ok {
				res.latencies = append(res.latencies, at.Sub(t0))
				delete(arrived, it.ID)
			} else {
				sent[it.ID] = t0
			}
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	time.Sleep(2 * time.Second) // stragglers
	cancel()
	<-done
	res.elapsed = time.Since(start)
	res.errors = errs
	missing := len(sent)
	fmt.Printf("POST /api/wishlist -> count update on an open stream, %d creates/s for %ds\n", rate, seconds)
	fmt.Printf("  received %d of %d, missing %d, errors %d\n", len(res.latencies), rate*seconds, missing, errs)
	fmt.Printf("  p50 %.1f ms, p99 %.1f ms, max %.1f ms (target p99 under 100 ms)\n",
		ms(res.percentile(50)), ms(res.percentile(99)), ms(res.percentile(100)))
}

type arrival struct {
	itemID string
	at     time.Time
}

// openStream reads the SSE stream with fetch-style headers, as the web app does.
func openStream(ctx context.Context, base, token string) (<-chan arrival, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/notifications/stream", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := (&http.Client{}).Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("stream answered %d", resp.StatusCode)
	}
	out := make(chan arrival, 1024)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		event := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event:"):
				event = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
			case strings.HasPrefix(line, "data:") && event == "wishlist-count":
				var d struct {
					ItemID string `json:"itemId"`
				}
				if json.Unmarshal([]byte(strings.TrimSpace(strings.TrimPrefix(line, "data:"))), &d) == nil && d.ItemID != "" {
					out <- arrival{itemID: d.ItemID, at: time.Now()}
				}
			case line == "":
				event = ""
			}
		}
	}()
	return out, nil
}

// runImageBench posts items carrying a 2 MB JPEG as a data URL (as the photo flow does) and
// measures until the item is saved with its image stored and thumbnailed.
func runImageBench(cfg config, u user) {
	photo := noisyJPEG(2 << 20)
	dataURL := "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(photo)
	res := &result{}
	start := time.Now()
	var lastURL string
	for i := 0; i < 15; i++ {
		body, _ := json.Marshal(map[string]any{"name": fmt.Sprintf("Photo gift %d", i), "description": "A gift photographed on a phone", "imageUrl": dataURL})
		t0 := time.Now()
		code, answer, err := post(cfg.URL+"/api/wishlist", u.Token, string(body))
		if err != nil || code != http.StatusCreated {
			res.errors++
			if i == 0 {
				fmt.Printf("image path unavailable: %d %s %v\n", code, truncate(answer), err)
				return
			}
			continue
		}
		res.latencies = append(res.latencies, time.Since(t0))
		var it struct {
			ImageURL string `json:"imageUrl"`
		}
		_ = json.Unmarshal(answer, &it)
		lastURL = it.ImageURL
	}
	res.elapsed = time.Since(start)
	served := "not checked"
	if resp, err := httpClient.Get(cfg.URL + lastURL); err == nil {
		served = fmt.Sprintf("%d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		resp.Body.Close()
	}
	fmt.Printf("POST of a %.1f MB JPEG data URL -> stored and thumbnailed (%d runs)\n", float64(len(photo))/(1<<20), len(res.latencies))
	fmt.Printf("  p50 %.1f ms, p99 %.1f ms, errors %d (target p50 under 250 ms); image URL serves: %s\n",
		ms(res.percentile(50)), ms(res.percentile(99)), res.errors, served)
}

// noisyJPEG makes a photo-like JPEG of about size bytes (noise does not compress).
func noisyJPEG(size int) []byte {
	side := 1000
	for {
		img := image.NewRGBA(image.Rect(0, 0, side, side*3/4))
		r := rand.New(rand.NewPCG(1, 2))
		for y := 0; y < img.Bounds().Dy(); y++ {
			for x := 0; x < side; x++ {
				img.Set(x, y, color.RGBA{uint8(x + r.IntN(60)), uint8(y + r.IntN(60)), uint8(r.IntN(255)), 255})
			}
		}
		var buf bytes.Buffer
		_ = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90})
		if buf.Len() >= size || side > 4000 {
			return buf.Bytes()
		}
		side = side * 6 / 5
	}
}

func truncate(b []byte) string {
	if len(b) > 200 {
		return string(b[:200])
	}
	return string(b)
}
