package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"strings"
)

// runFamilyBench measures the family side: a 50-item shared list opened
// anonymously through the gateway beside its owner's own list, and a claim storm on one list.
func runFamilyBench(cfg config, users []user) {
	if len(users) < 2 {
		log.Printf("family bench needs at least 2 users")
		return
	}
	// The last user: the first one's list also holds the image bench's items.
	owner, family := users[len(users)-1], users[:len(users)-1]
	var lists []struct{ ID string }
	if err := call(http.MethodGet, cfg.URL+"/api/lists", owner.Token, "", &lists); err != nil || len(lists) == 0 {
		log.Printf("family bench: lists: %v", err)
		return
	}
	var share struct{ Token string }
	if err := call(http.MethodPost, cfg.URL+"/api/lists/"+lists[0].ID+"/share", owner.Token, "", &share); err != nil {
		log.Printf("family bench: share: %v", err)
		return
	}
	var items []struct{ ID string }
	if err := call(http.MethodGet, cfg.URL+"/api/wishlist", owner.Token, "", &items); err != nil || len(items) == 0 {
		log.Printf("family bench: items: %v", err)
		return
	}
	// Room for everyone: each family member holds at most 3 units of a 99-unit gift.
	for _, it := range items {
		if err := call(http.MethodPatch, cfg.URL+"/api/wishlist/"+it.ID, owner.Token, `{"quantity":99}`, nil); err != nil {
			log.Printf("family bench: quantity: %v", err)
			return
		}
	}

	ownerList := closedLoop(cfg.Concurrency, cfg.Duration, func(int) error { return listThroughGateway(cfg.URL, owner.Token) })
	shared := closedLoop(cfg.Concurrency, cfg.Duration, func(int) error {
		return call(http.MethodGet, cfg.URL+"/api/shared/"+share.Token, "", "", nil)
	})
	// Christmas Eve's read storm: the family reopening a list it already holds.
	etag, err := sharedETag(cfg.URL + "/api/shared/" + share.Token)
	if err != nil {
		log.Printf("family bench: etag: %v", err)
		return
	}
	revalidated := closedLoop(cfg.Concurrency, cfg.Duration, func(int) error {
		return revalidate(cfg.URL+"/api/shared/"+share.Token, etag)
	})
	fmt.Printf("shared list of %d items through the gateway, %d concurrent, %s each\n", len(items), cfg.Concurrency, cfg.Duration)
	fmt.Println(header())
	fmt.Println(ownerList.row("owner's GET /api/wishlist"))
	fmt.Println(shared.row("anonymous GET /api/shared"))
	fmt.Println(revalidated.row("same, If-None-Match (304)"))
	fmt.Printf("shared / owner throughput: %.0f%% (target at least 80%%)\n", 100*shared.throughput()/ownerList.throughput())

	const rate = 200
	storm := openLoop(rate, cfg.Duration, func(i int) error {
		u := family[i%len(family)]
		it := items[(i/len(family))%len(items)]
		body := fmt.Sprintf(`{"quantity":%d,"purchased":%t}`, 1+i%3, i%2 == 0)
		return call(http.MethodPut, cfg.URL+"/api/shared/"+share.Token+"/items/"+it.ID+"/claim", u.Token, body, nil)
	})
	fmt.Println()
	fmt.Printf("claim storm: %d claims/s by %d people on one list for %s\n", rate, len(family), cfg.Duration)
	fmt.Println(header())
	fmt.Println(storm.row(fmt.Sprintf("%d claims/s", rate)))
	fmt.Printf("claim p99 at %d/s: %.1f ms (target under 50 ms)\n", rate, ms(storm.percentile(99)))
}

// call sends a request through the gateway and decodes a 2xx answer into out (if given).
// sharedETag is the anonymous shared view's tag.
func sharedETag(url string) (string, error) {
	resp, err := httpClient.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if tag := resp.Header.Get("ETag"); tag != "" {
		return tag, nil
	}
	return "", fmt.Errorf("GET %s: %d without an ETag", url, resp.StatusCode)
}

// revalidate asks with If-None-Match and expects 304.
func revalidate(url, etag string) error {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("If-None-Match", etag)
	resp, err := httpClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusNotModified {
		return fmt.Errorf("GET %s with If-None-Match: %d", url, resp.StatusCode)
	}
	return nil
}

func call(method, url, token, body string, out any) error {
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, b)
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}
