package adapters

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/apperror"
	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/pkg/testenv"
	"github.com/santa-wishlist/santa/services/wishlist/internal/domain"
)

// The generated client's requests reach media's internal routes with an assertion media
// accepts (the wishlist's, for the user, bound to the route), and media's answers become the
// errors the wishlist gave before: a stand-in media checks the assertion as media's does.
func TestMediaClientCallsTheInternalRoutesAsTheUser(t *testing.T) {
	r := gin.New()
	r.Use(auth.RequireIdentity(testenv.IdentityVerifier("media")))
	var calls []string
	answer := map[string]int{}
	r.Use(func(c *gin.Context) {
		u, _ := auth.UserFrom(c)
		calls = append(calls, c.Request.URL.Path+" "+auth.IssuerFrom(c)+" "+u.UID)
		if status := answer[c.Request.URL.Path]; status >= 400 {
			httpserver.Abort(c, status, "refused", "media said no")
		}
	})
	r.POST("/internal/media", func(c *gin.Context) { c.JSON(http.StatusCreated, gin.H{"url": "/media/items/x.jpg"}) })
	r.POST("/internal/media/attach", func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"marked": 1}) })
	r.POST("/internal/media/discard", func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"removed": 1}) })
	srv := httptest.NewServer(r)
	defer srv.Close()
	m := NewMediaClient(srv.URL, testenv.IdentitySigner("wishlist"))
	ctx := context.Background()

	if u, err := m.StoreDataURL(ctx, "alice", "item-1", "data:image/png;base64,iVBORw0KGgo="); err != nil || u != "/media/items/x.jpg" {
		t.Fatalf("store: %q %v", u, err)
	}
	if err := m.Attach(ctx, "alice", "item-1", "/media/items/x.jpg"); err != nil {
		t.Fatalf("attach: %v", err)
	}
	if err := m.Discard(ctx, "alice", "/media/items/x.jpg"); err != nil {
		t.Fatalf("discard: %v", err)
	}
	want := []string{"/internal/media wishlist alice", "/internal/media/attach wishlist alice", "/internal/media/discard wishlist alice"}
	if len(calls) != len(want) {
		t.Fatalf("media saw %v, want %v", calls, want)
	}
	for i := range want {
		if calls[i] != want[i] {
			t.Fatalf("media saw %v, want %v", calls, want)
		}
	}

	answer["/internal/media"] = http.StatusRequestEntityTooLarge
	_, err := m.StoreDataURL(ctx, "alice", "", "data:image/png;base64,iVBORw0KGgo=")
	var refused *apperror.Error
	if !errors.As(err, &refused) || refused.Kind != apperror.KindTooLarge || refused.Message != "media said no" {
		t.Fatalf("413: %v", err)
	}
	answer["/internal/media/attach"] = http.StatusNotFound
	if err := m.Attach(ctx, "alice", "item-1", "/media/items/x.jpg"); !errors.Is(err, domain.ErrNotYourImage) {
		t.Fatalf("attach answered 404: %v", err)
	}
	answer["/internal/media/discard"] = http.StatusServiceUnavailable
	if err := m.Discard(ctx, "alice", "/media/items/x.jpg"); err == nil {
		t.Fatal("discard answered 503: no error")
	}
}
