package domain

import "context"

// What a delivery answers the use cases: the outcome of one push, and which notices of an email
// batch the mail server refused. The adapters that deliver (web push, SMTP) return these.

// PushOutcome is what a push service made of one push.
type PushOutcome int

// The outcomes of one push.
const (
	PushSent     PushOutcome = iota
	PushRetry                // the network or the push service failed for now: try again later
	PushGone                 // 404/410: the device unsubscribed; its subscription goes
	PushRejected             // refused for good (bad request, too large): trying again changes nothing
)

// PushResult is the outcome of one push and, unless sent, why.
type PushResult struct {
	Outcome PushOutcome
	Err     error
}

// SendFunc sends one batch and says what became of each of its notices (by event id; a notice
// not named was sent); an error leaves the batch to be tried again.
type SendFunc func(ctx context.Context, b EmailBatch) (map[string]string, error)
