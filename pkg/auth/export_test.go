package auth

import "time"

// SetClock makes a signer and a verifier read the time from now (tests travel in time).
func SetClock(s *IdentitySigner, v *IdentityVerifier, now func() time.Time) {
	s.now, v.now = now, now
}
