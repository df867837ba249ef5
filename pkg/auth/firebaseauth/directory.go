package firebaseauth

import (
	"context"
	"fmt"

	fbauth "firebase.google.com/go/v4/auth"
)

// Directory reads user records (the Admin SDK's GetUser): the notification service looks up a
// user's email address when it sends them an email, so no copy of the address is kept anywhere
// else and a changed address is used from its next email on.
type Directory struct {
	client *fbauth.Client
}

// NewDirectory builds a directory of one Firebase project, with the same emulator rules as
// NewVerifier. In production the SDK finds its credentials the usual way (Application Default
// Credentials: a workload identity or GOOGLE_APPLICATION_CREDENTIALS); the emulator needs none.
func NewDirectory(ctx context.Context, projectID string, allowEmulator bool) (*Directory, error) {
	client, err := checkedAuthClient(ctx, projectID, allowEmulator)
	if err != nil {
		return nil, err
	}
	return &Directory{client: client}, nil
}

// Email returns the user's email address; found is false for a user that does not exist (any
// more) or has no address, or whose account is disabled.
func (d *Directory) Email(ctx context.Context, uid string) (email string, found bool, err error) {
	u, err := d.client.GetUser(ctx, uid)
	if fbauth.IsUserNotFound(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("look up user: %w", err)
	}
	if u.Disabled || u.Email == "" {
		return "", false, nil
	}
	return u.Email, true, nil
}
