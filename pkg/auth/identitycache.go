package auth

import (
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
)

// Assertions are signed with Ed25519: about 30 µs of CPU to sign one and 60 µs to verify it,
// the largest single cost of a request through the gateway. Both ends therefore remember recent
// ones. A phone asks for the same thing again and again (a list reopened, every device of a
// household refetching after the same live update), so the signer hands out the assertion it
// made for the same user, audience, method and path a moment ago, and the verifier recognises
// the exact token it already checked. Neither weakens the assertion: the verifier accepts no
// token it would refuse without the cache (a hit still checks the expiry, the method and the
// path), and a reused token is one that could have been replayed anyway while it lived
// (assertions carry no nonce; their short life and their binding to one request's method and
// path are what limit a captured one).

// recentAssertions is how many assertions each end remembers (a few hundred bytes each).
const recentAssertions = 1024

// reuseFraction of an assertion's life is how long the signer hands it out again, so a reused
// assertion always reaches the service with most of its life left.
const reuseFraction = 3

// assertionRequest is what an assertion says: who, to which service, for which request.
type assertionRequest struct {
	user                   User
	signedIn               bool
	audience, method, path string
}

type mintedAssertion struct {
	token     string
	reuseTill time.Time
}

// signedAssertions remembers the signer's recent assertions.
type signedAssertions struct {
	lru *lru.Cache[assertionRequest, mintedAssertion]
}

func newSignedAssertions() *signedAssertions {
	c, _ := lru.New[assertionRequest, mintedAssertion](recentAssertions) // errors only for size <= 0
	return &signedAssertions{c}
}

func (s *signedAssertions) get(r assertionRequest, now time.Time) (string, bool) {
	if s == nil {
		return "", false
	}
	m, ok := s.lru.Get(r)
	if !ok || !now.Before(m.reuseTill) {
		return "", false
	}
	return m.token, true
}

func (s *signedAssertions) put(r assertionRequest, token string, now time.Time, ttl time.Duration) {
	if s != nil {
		s.lru.Add(r, mintedAssertion{token: token, reuseTill: now.Add(ttl / reuseFraction)})
	}
}

// verifiedAssertion is what a checked token asserted, and until when it may be accepted.
type verifiedAssertion struct {
	user                 User
	signedIn             bool
	issuer, method, path string
	acceptTill           time.Time // its expiry plus the verifier's leeway, as the parser accepts it
}

// verifiedAssertions remembers the tokens the verifier accepted, by their exact text.
type verifiedAssertions struct {
	lru *lru.Cache[string, verifiedAssertion]
}

func newVerifiedAssertions() *verifiedAssertions {
	c, _ := lru.New[string, verifiedAssertion](recentAssertions)
	return &verifiedAssertions{c}
}

func (v *verifiedAssertions) get(token string, now time.Time) (verifiedAssertion, bool) {
	a, ok := v.lru.Get(token)
	if !ok || !now.Before(a.acceptTill) {
		return verifiedAssertion{}, false
	}
	return a, true
}

func (v *verifiedAssertions) put(token string, a verifiedAssertion) { v.lru.Add(token, a) }
