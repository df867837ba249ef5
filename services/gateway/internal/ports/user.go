package ports

import (
	"context"
	"net/http"

	"github.com/santa-wishlist/santa/pkg/auth"
)

type userKey struct{}

func withUser(ctx context.Context, u auth.User) context.Context {
	return context.WithValue(ctx, userKey{}, u)
}

func userOf(r *http.Request) (auth.User, bool) {
	u, ok := r.Context().Value(userKey{}).(auth.User)
	return u, ok
}
