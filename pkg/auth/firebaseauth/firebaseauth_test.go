package firebaseauth_test

import (
	"context"
	"errors"
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
