package app

import (
	"context"
	"errors"
	"strings"
	"time"
)

// AccountStore keeps the deletion records (the account's owner is the wishlist: every user has
// a default list here, and the outbox that announces the deletion).
type AccountStore interface {
	RequestDeletion(ctx context.Context, uid string, now time.Time) error
	DeletionPending(ctx context.Context, uid string) (bool, error)
	EraseUser(ctx context.Context, uid string) error
	MarkErased(ctx context.Context, uid, service string, at time.Time) (bool, error)
}

// Account is the signed-in user's account as GET /api/account answers it.
type Account struct {
	UID             string `json:"uid"`
	Email           string `json:"email"`
	DisplayName     string `json:"displayName"`
	DeletionPending bool   `json:"deletionPending"`
}

// Accounts are the account use cases.
type Accounts struct {
	store AccountStore
	now   func() time.Time
}

// NewAccounts builds the account use cases.
func NewAccounts(store AccountStore) *Accounts { return &Accounts{store: store, now: time.Now} }

// ErrConfirmation means the deletion was not confirmed with the account's email.
var ErrConfirmation = errors.New("confirmation does not match")

// Get answers the caller's account.
func (a *Accounts) Get(ctx context.Context, uid, email, name string) (Account, error) {
	pending, err := a.store.DeletionPending(ctx, uid)
	if err != nil {
		return Account{}, err
	}
	return Account{UID: uid, Email: email, DisplayName: name, DeletionPending: pending}, nil
}

// ConfirmationFor is what the caller must type to delete their account: their email, or (an
// account without one) their uid.
func ConfirmationFor(uid, email string) string {
	if email != "" {
		return email
	}
	return uid
}

// Delete asks for the caller's account to be deleted, once confirm matches.
func (a *Accounts) Delete(ctx context.Context, uid, email, confirm string) error {
	want := ConfirmationFor(uid, email)
	if !strings.EqualFold(strings.TrimSpace(confirm), want) {
		return ErrConfirmation
	}
	return a.store.RequestDeletion(ctx, uid, a.now())
}

// Erase removes the wishlist's data of a deleted user.
func (a *Accounts) Erase(ctx context.Context, uid string) error { return a.store.EraseUser(ctx, uid) }

// Erased records a service's confirmation that it erased uid.
func (a *Accounts) Erased(ctx context.Context, uid, service string) error {
	_, err := a.store.MarkErased(ctx, uid, service, a.now())
	return err
}
