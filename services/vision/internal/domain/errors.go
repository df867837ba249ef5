package domain

import (
	"errors"
	"fmt"
	"time"
)

// The spec's AI error messages (docs/spec.md, section 8: error catalogue), word for word.
const (
	MsgNoResponse           = "No response from Gemini API"
	MsgNoValidResponse      = "No valid response from Gemini API"
	MsgNoValidResponseImage = "No valid response from Gemini API for image analysis"
	MsgUnparseable          = "Failed to parse the AI response. The response format was invalid."
	MsgTimeout              = "Gemini API did not answer in time. Please try again."
	MsgUnreachable          = "Gemini API could not be reached. Please try again."
)

// Why a model call failed; these are also the reason label of gemini_failures_total.
const (
	ReasonStatus          = "status"
	ReasonRateLimited     = "rate_limited"
	ReasonTimeout         = "timeout"
	ReasonNetwork         = "network"
	ReasonNoResponse      = "no_response"
	ReasonNoValidResponse = "no_valid_response"
	ReasonUnparseable     = "unparseable"
)

// AIFailure is a failed model call, with a message a person can read.
type AIFailure struct {
	Reason  string
	Message string
	// Status is the upstream HTTP status, when Gemini answered with an error.
	Status int
	// RetryAfter is how long Gemini asked us to wait before trying again (0 if it did not say).
	RetryAfter time.Duration
	// Detail is what the upstream said, for logs only: it is not shown to users.
	Detail string
}

func (f *AIFailure) Error() string { return f.Message }

func newFailure(reason, msg string) error { return &AIFailure{Reason: reason, Message: msg} }

// StatusFailure is Gemini answering an HTTP error, in the spec's words.
func StatusFailure(status int) *AIFailure {
	reason := ReasonStatus
	if status == 429 {
		reason = ReasonRateLimited
	}
	return &AIFailure{Reason: reason, Status: status, Message: fmt.Sprintf("Gemini API error (%d)", status)}
}

// TimeoutFailure is a call that took longer than allowed.
func TimeoutFailure() *AIFailure { return &AIFailure{Reason: ReasonTimeout, Message: MsgTimeout} }

// NetworkFailure is a call that got no HTTP answer at all.
func NetworkFailure() *AIFailure { return &AIFailure{Reason: ReasonNetwork, Message: MsgUnreachable} }

// AsAIFailure unwraps an AIFailure.
func AsAIFailure(err error) (*AIFailure, bool) {
	var f *AIFailure
	ok := errors.As(err, &f)
	return f, ok
}

// Retryable reports whether trying again may help: Gemini was rate limited, failed on its
// side, or could not be reached. A timeout is not retried: the caller has already waited
// the whole allowance.
func (f *AIFailure) Retryable() bool {
	return f.Reason == ReasonRateLimited || f.Reason == ReasonNetwork || f.Status >= 500
}
