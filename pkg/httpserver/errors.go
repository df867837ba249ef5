package httpserver

// The one JSON error shape of the public API, which every service answers with:
// {"error": {"code": "...", "message": "...", "fields": {...}}}.

import (
	"github.com/gin-gonic/gin"
)

// ErrorBody is the wire shape of an error.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail carries a machine code, a message a person can act on, and per-field messages.
type ErrorDetail struct {
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Fields  map[string]string `json:"fields,omitempty"`
}

// Abort answers the error and stops the handler chain.
func Abort(c *gin.Context, status int, code, message string) {
	c.AbortWithStatusJSON(status, ErrorBody{Error: ErrorDetail{Code: code, Message: message}})
}

// AbortFields answers a validation error with a message per field.
func AbortFields(c *gin.Context, status int, code, message string, fields map[string]string) {
	c.AbortWithStatusJSON(status, ErrorBody{Error: ErrorDetail{Code: code, Message: message, Fields: fields}})
}
