package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/santa-wishlist/santa/pkg/auth"
)

var httpClient = &http.Client{
	Timeout:   10 * time.Second,
	Transport: &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256},
}

type user struct {
	UID, Token string
}

func signUp(emulator, email string) (user, error) {
	body, _ := json.Marshal(map[string]any{"email": email, "password": "secret123", "returnSecureToken": true})
	resp, err := http.Post("http://"+emulator+"/identitytoolkit.googleapis.com/v1/accounts:signUp?key=bench", "application/json", bytes.NewReader(body))
	if err != nil {
		return user{}, err
	}
	defer resp.Body.Close()
	var out struct {
		IDToken, LocalID string
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.IDToken == "" {
		return user{}, fmt.Errorf("sign up %s: %d %v", email, resp.StatusCode, err)
	}
	return user{UID: out.LocalID, Token: out.IDToken}, nil
}

func seedUsers(ctx context.Context, cfg config) ([]user, error) {
	users := make([]user, cfg.Users)
	run := fmt.Sprint(time.Now().UnixNano())
	for i := range users {
		u, err := signUp(cfg.EmulatorHost, fmt.Sprintf("bench-%s-%d@example.com", run, i))
		if err != nil {
			return nil, err
		}
		users[i] = u
	}
	jobs := make(chan [2]int)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				item := fmt.Sprintf(`{"name":"Bench gift %d","description":"A present used to measure the list","category":"Toys","price":"$%d.99","features":["one","two","three"]}`, j[1], j[1])
				code, body, err := post(cfg.URL+"/api/wishlist", users[j[0]].Token, item)
				if err == nil && code != http.StatusCreated {
					err = fmt.Errorf("create: %d %s", code, body)
				}
				if err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}
	for u := range users {
		for i := 0; i < cfg.ItemsPerUser; i++ {
			jobs <- [2]int{u, i}
		}
	}
	close(jobs)
	wg.Wait()
	select {
	case err := <-errs:
		return nil, err
	default:
	}
	return users, nil
}

func post(url, token, body string) (int, []byte, error) {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b, nil
}

func listThroughGateway(base, token string) error {
	req, _ := http.NewRequest(http.MethodGet, base+"/api/wishlist", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := httpClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	n, _ := io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK || n < 100 {
		return fmt.Errorf("list: %d (%d bytes)", resp.StatusCode, n)
	}
	return nil
}

// listDirect calls the wishlist service as the gateway does (with an identity assertion
// signed by the stack's gateway key), to split the gateway's own cost from the service's.
func listDirect(base, uid string) error {
	req, _ := http.NewRequest(http.MethodGet, base+"/api/wishlist", nil)
	if gatewayIdentity == nil {
		return fmt.Errorf("direct list: no gateway identity key (BENCH_PID_DIR/identity.env)")
	}
	if err := gatewayIdentity.SetHeaders(req, auth.User{UID: uid}, true, "wishlist"); err != nil {
		return err
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	n, _ := io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK || n < 100 {
		return fmt.Errorf("direct list: %d", resp.StatusCode)
	}
	return nil
}

// benchItem mirrors the wishlist's row so the floor scans the same columns.
type benchItem struct {
	ID, Name, Description     string
	Price, ImageURL, Category *string
	Features                  []byte
	SearchQuery, ShoppingURL  string
	AIGenerated, SentToSanta  bool
	CreatedAt                 time.Time
	ListID                    string
	Priority, Quantity        int16
	Notes                     string
	Claims                    []byte
}

// listThroughPgx is the floor: the query the wishlist answers GET /api/wishlist with (the
// owner's default list, each item with its revealed claims), straight through pgx.
func listThroughPgx(ctx context.Context, pool *pgxpool.Pool, uid string) error {
	rows, err := pool.Query(ctx, `SELECT items.id, items.name, items.description, items.price, items.image_url,
		items.category, items.features, items.search_query, items.shopping_url, items.ai_generated,
		items.sent_to_santa, items.created_at, items.list_id, items.priority, items.quantity, items.notes,
		(SELECT COALESCE(jsonb_agg(jsonb_build_object('displayName', c.display_name, 'quantity', c.quantity,
			'purchased', c.purchased, 'revealedAt', c.reveal_at) ORDER BY c.reveal_at DESC, c.created_at, c.user_id), '[]'::jsonb)
			FROM claims c WHERE c.item_id = items.id AND c.reveal_at <= now())
		FROM items JOIN lists l ON l.id = items.list_id WHERE l.user_id = $1 AND l.is_default
		ORDER BY items.created_at DESC, items.id DESC`, uid)
	if err != nil {
		return err
	}
	items, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (benchItem, error) {
		var it benchItem
		err := r.Scan(&it.ID, &it.Name, &it.Description, &it.Price, &it.ImageURL, &it.Category,
			&it.Features, &it.SearchQuery, &it.ShoppingURL, &it.AIGenerated, &it.SentToSanta, &it.CreatedAt,
			&it.ListID, &it.Priority, &it.Quantity, &it.Notes, &it.Claims)
		return it, err
	})
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return fmt.Errorf("no items for %s", uid)
	}
	return nil
}

func residentMemory(base string) (float64, error) {
	resp, err := httpClient.Get(base + "/metrics")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		return 0, err
	}
	f, ok := families["process_resident_memory_bytes"]
	if !ok || len(f.Metric) == 0 {
		return 0, fmt.Errorf("no process_resident_memory_bytes")
	}
	return f.Metric[0].GetGauge().GetValue(), nil
}

// gatewayIdentity signs as the stack's gateway, with the key the local stack keeps in its
// state directory (identity.env); nil when it cannot be read.
var gatewayIdentity *auth.IdentitySigner

func loadGatewayIdentity(stateDir string) {
	raw, err := os.ReadFile(filepath.Join(stateDir, "identity.env"))
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if key, ok := strings.CutPrefix(line, "IDENTITY_KEY_gateway="); ok {
			gatewayIdentity, _ = auth.NewIdentitySigner("gateway", key, 0)
		}
	}
}
