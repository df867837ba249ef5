package events

import (
	"strings"
	"testing"
)

// An event type outside the stream's subjects would be refused by JetStream (or by the
// service's NATS permissions) and sit in its outbox for ever.
func TestEveryEventTypeIsInTheStream(t *testing.T) {
	for eventType := range dataTypes {
		in := false
		for _, topic := range streamTopics {
			in = in || strings.HasPrefix(eventType, strings.TrimSuffix(topic, ">"))
		}
		if !in {
			t.Errorf("%s is in none of the stream's subjects %v", eventType, streamTopics)
		}
	}
}
