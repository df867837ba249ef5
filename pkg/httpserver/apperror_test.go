package httpserver

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/apperror"
)

func TestWriteAppErrorSaysWhatFailedThenWhy(t *testing.T) {
	for _, tc := range []struct {
		e      *apperror.Error
		status int
		body   string
	}{
		{&apperror.Error{Kind: apperror.KindNotFound, Code: "not_found", Message: "item not found"}, 404,
			`{"error":{"code":"not_found","message":"Failed to delete item: item not found."}}`},
		{&apperror.Error{Kind: apperror.KindInvalid, Code: "validation_failed", Message: "Name is required",
			Fields: map[string]string{"name": "Name is required"}}, 422,
			`{"error":{"code":"validation_failed","message":"Name is required","fields":{"name":"Name is required"}}}`},
		{&apperror.Error{Kind: apperror.KindConflict, Code: "draw_impossible", Message: "No draw fits.", Standalone: true}, 409,
			`{"error":{"code":"draw_impossible","message":"No draw fits."}}`},
		{apperror.Classify(errors.New("dial tcp: refused"), nil), 503,
			`{"error":{"code":"unavailable","message":"Failed to delete item: please try again shortly."}}`},
	} {
		rec := httptest.NewRecorder()
		c, _ := gin.CreateTestContext(rec)
		WriteAppError(c, tc.e, StatusOf(tc.e.Kind), "Failed to delete item")
		if rec.Code != tc.status || strings.TrimSpace(rec.Body.String()) != tc.body {
			t.Errorf("%s: %d %s, want %d %s", tc.e.Code, rec.Code, rec.Body, tc.status, tc.body)
		}
	}
	if got := StatusOf(apperror.KindUnavailable); got != http.StatusServiceUnavailable {
		t.Errorf("unavailable answers %d", got)
	}
}
