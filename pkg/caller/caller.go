// Package caller holds Caller, the user a request acts for, as every service's app layer
// takes it. It has no dependencies, so that app layers can name the caller without linking
// gin or the identity assertion code of pkg/auth (whose User is this same type).
package caller

import "strings"

// Caller is who makes a request: the user the identity assertion names (UID empty for a
// signed-out visitor) and, where a service needs it, the address the request came from.
type Caller struct {
	UID string
	// Email is the account's email from the verified ID token; empty when the provider
	// gave none.
	Email string
	// Name is the name others see. The identity assertion carries the account's display
	// name, which may be empty; a service's port that shows the name to others settles it
	// with ShownName before its app layer sees the caller, so nothing stores an empty name.
	Name string
	// IP is the address the request came from, for per-address rate limits (vision's
	// quotas, which also count signed-out visitors). Only the port of a service that counts
	// by address sets it. It is the request's, not the user's: identity assertions do not
	// carry it, since every hop between services sees a different address.
	IP string
}

// ShownName is the name other people see for the caller: their display name, else the part
// of their email before the @, else fallback (a neutral word chosen by the service).
func (c Caller) ShownName(fallback string) string {
	name := strings.TrimSpace(c.Name)
	if name == "" {
		name, _, _ = strings.Cut(c.Email, "@")
	}
	if name == "" {
		name = fallback
	}
	return name
}
