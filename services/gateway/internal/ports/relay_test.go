package ports

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// The relay waits on a 16-byte read and sends longer events with a pooled buffer: whatever the
// sizes the upstream delivers, the device gets every byte in order, each delivery as it comes.
func TestRelayPassesEveryDeliveryOnWhole(t *testing.T) {
	deliveries := []string{": ping\n\n", "x", strings.Repeat("a", 16), "id: 7\nevent: wishlist-count\ndata: {}\n\n",
		strings.Repeat("b", 3000), strings.Repeat("c", 17), ": ping\n\n"}
	body, up := io.Pipe()
	var got bytes.Buffer
	writes := make(chan string, 100)
	done := make(chan error, 1)
	go func() {
		done <- relay(body, func(b []byte) error { got.Write(b); writes <- string(b); return nil })
	}()
	for i, d := range deliveries {
		if _, err := up.Write([]byte(d)); err != nil {
			t.Fatal(err)
		}
		// Everything of this delivery reaches the device before the next one is sent (a
		// 16-byte delivery is the one case whose last write waits: its bytes went out first).
		var seen string
		for len(seen) < len(d) {
			seen += <-writes
		}
		if seen != d {
			t.Fatalf("delivery %d: the device got %q, want %q", i, seen, d)
		}
	}
	up.Close()
	if err := <-done; err != nil {
		t.Fatalf("relay ended with %v at EOF", err)
	}
	if got.String() != strings.Join(deliveries, "") {
		t.Fatalf("the device got %d bytes, want %d", got.Len(), len(strings.Join(deliveries, "")))
	}
}
