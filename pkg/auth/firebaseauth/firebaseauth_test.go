package firebaseauth_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/pkg/auth/firebaseauth"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

// The verifier is built without the SDK's root package (client.go); this proves the client it
// builds still verifies real emulator tokens, names their user, and refuses what it must.
func TestVerifierChecksEmulatorTokens(t *testing.T) {
	t.Setenv("FIREBASE_AUTH_EMULATOR_HOST", testenv.AuthEmulatorHost())
	ctx := context.Background()
	v, err := firebaseauth.NewVerifier(ctx, "demo-santa", true)
	if err != nil {
		t.Fatal(err)
	}
	s := testenv.SignUp(t, testenv.UniqueEmail("verify"), "secret123", "Mrs Claus")
	u, err := v.Verify(ctx, s.IDToken)
	if err != nil {
		t.Fatalf("a fresh emulator token was refused: %v", err)
	}
	if u.UID != s.UID || u.Email != s.Email || u.Name != "Mrs Claus" {
		t.Fatalf("verified %+v, want uid %s, email %s, name Mrs Claus", u, s.UID, s.Email)
	}

	for name, token := range map[string]string{
		"another project's": testenv.UnsignedToken(s.UID, "not-demo-santa", time.Now().Add(time.Hour)),
		"an expired":        testenv.UnsignedToken(s.UID, "demo-santa", time.Now().Add(-time.Hour)),
		"a garbage":         "not.a.token",
	} {
		if _, err := v.Verify(ctx, token); err == nil {
			t.Errorf("%s token was accepted", name)
		}
	}
}

func TestVerifierRefusesTheEmulatorUnlessAllowed(t *testing.T) {
	t.Setenv("FIREBASE_AUTH_EMULATOR_HOST", testenv.AuthEmulatorHost())
	if _, err := firebaseauth.NewVerifier(context.Background(), "demo-santa", false); !errors.Is(err, firebaseauth.ErrEmulatorNotAllowed) {
		t.Fatalf("got %v, want ErrEmulatorNotAllowed", err)
	}
}

// Both switches on are still refused for a real project id: only Firebase's emulator-only
// demo- projects may run against the emulator.
func TestVerifierRefusesTheEmulatorForARealProject(t *testing.T) {
	t.Setenv("FIREBASE_AUTH_EMULATOR_HOST", testenv.AuthEmulatorHost())
	for _, project := range []string{"santa-wishlist-prod", "demosanta", "my-demo-santa"} {
		if _, err := firebaseauth.NewVerifier(context.Background(), project, true); !errors.Is(err, firebaseauth.ErrEmulatorNeedsDemoProject) {
			t.Errorf("project %s: got %v, want ErrEmulatorNeedsDemoProject", project, err)
		}
	}
}

// A household's devices present the same token together (the app opened on every phone at
// once): it is checked once for all of them, and a device that gives up does not fail the
// others. Counted at the emulator's door: a proxy in front of it.
func TestConcurrentChecksOfOneTokenAreOneCheck(t *testing.T) {
	emulator, err := url.Parse("http://" + testenv.AuthEmulatorHost())
	if err != nil {
		t.Fatal(err)
	}
	var lookups atomic.Int64
	proxy := httputil.NewSingleHostReverseProxy(emulator)
	door := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "accounts:lookup") {
			lookups.Add(1)
			time.Sleep(200 * time.Millisecond) // a busy morning: the others arrive meanwhile
		}
		proxy.ServeHTTP(w, r)
	}))
	defer door.Close()
	t.Setenv("FIREBASE_AUTH_EMULATOR_HOST", strings.TrimPrefix(door.URL, "http://"))
	v, err := firebaseauth.NewVerifier(context.Background(), "demo-santa", true)
	if err != nil {
		t.Fatal(err)
	}
	s := testenv.SignUp(t, testenv.UniqueEmail("household"), "secret123", "")

	gaveUp, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	uids := make([]string, 10)
	errs := make([]error, 10)
	for i := range uids {
		ctx := context.Background()
		if i == 0 {
			ctx = gaveUp // the first device leaves while its check runs
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			u, err := v.Verify(ctx, s.IDToken)
			uids[i], errs[i] = u.UID, err
		}()
		if i == 0 {
			time.Sleep(50 * time.Millisecond)
			cancel()
		}
	}
	wg.Wait()
	for i := 1; i < len(uids); i++ {
		if errs[i] != nil || uids[i] != s.UID {
			t.Errorf("device %d: %q %v, want %s", i, uids[i], errs[i], s.UID)
		}
	}
	if n := lookups.Load(); n != 1 {
		t.Errorf("%d user lookups for one token presented by 10 devices at once, want 1", n)
	}
}
