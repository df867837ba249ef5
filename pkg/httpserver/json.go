package httpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/apperror"
)

// DecodeJSON reads a JSON body of at most maxBytes into dst. On failure it answers a 4xx JSON
// error a person can act on (too large, not UTF-8, malformed, wrong type) and returns false.
func DecodeJSON(c *gin.Context, dst any, maxBytes int64) bool {
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, maxBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			Abort(c, http.StatusRequestEntityTooLarge, "too_large",
				fmt.Sprintf("The request is too large (the limit is %d bytes).", maxBytes))
			return false
		}
		Abort(c, http.StatusBadRequest, "unreadable_body", "The request body could not be read.")
		return false
	}
	if len(bytes.TrimSpace(body)) == 0 {
		Abort(c, http.StatusBadRequest, "empty_body", "The request body is empty; send a JSON object.")
		return false
	}
	// encoding/json would silently turn invalid UTF-8 into U+FFFD and save mangled text.
	if !utf8.Valid(body) {
		Abort(c, http.StatusBadRequest, "invalid_utf8", "The request body is not valid UTF-8 text.")
		return false
	}
	if err := json.Unmarshal(body, dst); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			AbortFields(c, http.StatusBadRequest, "wrong_type",
				fmt.Sprintf("The field %q has the wrong type (expected %s).", typeErr.Field, typeErr.Type.String()),
				map[string]string{typeErr.Field: fmt.Sprintf("Expected %s.", typeErr.Type.String())})
			return false
		}
		Abort(c, http.StatusBadRequest, "malformed_json", "The request body is not valid JSON.")
		return false
	}
	return true
}

// WriteJSON answers v as JSON with a Content-Length. gin's c.JSON streams larger bodies in
// chunks, and a proxy in front (the gateway) then flushes every chunk to the client as its own
// write; a known length lets both sides send the body in one go.
func WriteJSON(c *gin.Context, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		Logger(c).Error("encode answer", "err", err)
		Abort(c, http.StatusInternalServerError, "internal", "Something went wrong on our side. Please try again.")
		return
	}
	c.Data(status, "application/json; charset=utf-8", body)
}

// StatusOf is the status an app error kind is answered with. A port whose contract answers a
// kind differently (family: a broken rule is a 400) changes it after.
func StatusOf(k apperror.Kind) int {
	if status, ok := statuses[k]; ok {
		return status
	}
	return http.StatusServiceUnavailable
}

var statuses = map[apperror.Kind]int{
	apperror.KindInvalid:     http.StatusUnprocessableEntity,
	apperror.KindNotFound:    http.StatusNotFound,
	apperror.KindConflict:    http.StatusConflict,
	apperror.KindForbidden:   http.StatusForbidden,
	apperror.KindTooLarge:    http.StatusRequestEntityTooLarge,
	apperror.KindUnsupported: http.StatusUnsupportedMediaType,
}

// WriteAppError answers an app error for the action that failed ("Failed to delete item"):
// a field error or a standalone message in its own words, an unclassified failure as
// "<action>: please try again shortly." (logged, its cause is not shown), any other as
// "<action>: <message>.".
func WriteAppError(c *gin.Context, e *apperror.Error, status int, action string) {
	msg := e.Message
	switch {
	case e.Fields != nil, e.Standalone:
	case e.Code == apperror.CodeUnavailable:
		Logger(c).Error("request failed", "err", e.Err)
		msg = action + ": please try again shortly."
	default:
		msg = action + ": " + msg + "."
	}
	AbortFields(c, status, e.Code, msg, e.Fields)
}
