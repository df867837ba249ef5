// Package apperror is how a service's app layer says what went wrong: a Kind a port maps to
// its status code (httpserver.StatusOf), a stable code and the words a person reads. No port
// needs to know a domain or adapter error type, and app knows nothing of HTTP.
package apperror

import "errors"

// Kind says what went wrong in terms a port can answer.
type Kind int

// The kinds of failure.
const (
	KindUnavailable Kind = iota // something we depend on failed: try again
	KindInvalid                 // the input breaks a rule; Fields say which
	KindNotFound                // does not exist, or is someone else's (the same on purpose)
	KindConflict                // the rules refuse it in the current state
	KindForbidden               // the caller may never do this
	KindTooLarge                // an upload over a limit
	KindUnsupported             // an upload of a type that is refused
)

// CodeUnavailable is the code of a failure nothing classified: a dependency failed, and the
// port answers "please try again shortly" and logs the cause.
const CodeUnavailable = "unavailable"

// Error is an application failure: its kind, a stable code and the words a person reads.
type Error struct {
	Kind    Kind
	Code    string
	Message string
	Fields  map[string]string
	// Standalone says Message reads on its own: the port does not put the failed action
	// before it (a field's message does not either).
	Standalone bool
	Err        error
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// Sentinel classifies an error value: an error that is Err (errors.Is) has Kind and Code, and
// Message, or Err's own text when Message is empty.
type Sentinel struct {
	Err     error
	Kind    Kind
	Code    string
	Message string
}

// Classify returns err as an *Error: the *Error it wraps, the first sentinel it is, or else
// an unavailable dependency (CodeUnavailable).
func Classify(err error, sentinels []Sentinel) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	for _, s := range sentinels {
		if errors.Is(err, s.Err) {
			msg := s.Message
			if msg == "" {
				msg = s.Err.Error()
			}
			return &Error{Kind: s.Kind, Code: s.Code, Message: msg, Err: err}
		}
	}
	return &Error{Kind: KindUnavailable, Code: CodeUnavailable, Message: "please try again shortly", Err: err}
}
