// Package apierror is the one JSON error shape of the public API:
// {"error": {"code": "...", "message": "...", "fields": {...}}}.
package apierror

import (
	"github.com/gin-gonic/gin"
)

// Body is the wire shape of an error.
type Body struct {
	Error Detail `json:"error"`
}

// Detail carries a machine code, a message a person can act on, and per-field messages.
type Detail struct {
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Fields  map[string]string `json:"fields,omitempty"`
}

// Abort answers the error and stops the handler chain.
func Abort(c *gin.Context, status int, code, message string) {
	c.AbortWithStatusJSON(status, Body{Error: Detail{Code: code, Message: message}})
}

// AbortFields answers a validation error with a message per field.
func AbortFields(c *gin.Context, status int, code, message string, fields map[string]string) {
	c.AbortWithStatusJSON(status, Body{Error: Detail{Code: code, Message: message, Fields: fields}})
}
