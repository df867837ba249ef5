package firebaseauth_test

import (
	"context"
	"errors"
	"testing"

	"github.com/santa-wishlist/santa/pkg/auth/firebaseauth"
	"github.com/santa-wishlist/santa/pkg/testenv"
)

// The directory reads a user's address from the Auth emulator; an unknown uid is not found;
// the emulator is refused unless allowed, and for a project that is not a demo one.
func TestDirectoryReadsAddresses(t *testing.T) {
	t.Setenv("FIREBASE_AUTH_EMULATOR_HOST", testenv.AuthEmulatorHost())
	ctx := context.Background()
	if _, err := firebaseauth.NewDirectory(ctx, testenv.FirebaseProject, false); !errors.Is(err, firebaseauth.ErrEmulatorNotAllowed) {
		t.Fatalf("emulator without the switch: %v", err)
	}
	if _, err := firebaseauth.NewDirectory(ctx, "santa-prod", true); !errors.Is(err, firebaseauth.ErrEmulatorNeedsDemoProject) {
		t.Fatalf("emulator with a real project: %v", err)
	}
	d, err := firebaseauth.NewDirectory(ctx, testenv.FirebaseProject, true)
	if err != nil {
		t.Fatal(err)
	}
	s := testenv.SignUp(t, testenv.UniqueEmail("directory"), "secret123", "")
	email, found, err := d.Email(ctx, s.UID)
	if err != nil || !found || email != s.Email {
		t.Fatalf("%q %v %v, want %q", email, found, err, s.Email)
	}
	if _, found, err := d.Email(ctx, "no-such-user-"+testenv.RandomHex(4)); err != nil || found {
		t.Fatalf("unknown uid: %v %v", found, err)
	}
}
