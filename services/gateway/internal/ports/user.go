package ports

import (
	"context"
	"net/http"

	"github.com/santa-wishlist/santa/pkg/auth"
)

type userKey struct{}

type clientIPKey struct{}

// withClientIP remembers the client's address as gin resolved it (honouring TRUSTED_PROXIES),
// so internal services that count per IP (vision's quotas) see the visitor, not the ingress.
func withClientIP(ctx context.Context, ip string) context.Context {
	return context.WithValue(ctx, clientIPKey{}, ip)
}

func clientIPOf(r *http.Request) string {
	ip, _ := r.Context().Value(clientIPKey{}).(string)
	return ip
}

func withUser(ctx context.Context, u auth.User) context.Context {
	return context.WithValue(ctx, userKey{}, u)
}

func userOf(r *http.Request) (auth.User, bool) {
	u, ok := r.Context().Value(userKey{}).(auth.User)
	return u, ok
}
