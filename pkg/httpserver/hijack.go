package httpserver

import (
	"bufio"
	"net"
	"net/http"
	"time"
)

// A live stream served over HTTP/1.1 is taken over from net/http (hijacked) once it is open: the
// server's goroutine with its deep stack, its background reader and its 8 KB of connection
// buffers go, and what the stream holds is its socket and one small goroutine. The response is
// then closed-delimited (Connection: close), which EventSource and every HTTP/1.1 client read
// like any other. docs/capacity.md measures what a stream costs either way.

// WriteStreamHead writes a 200 response head with h on a hijacked connection and flushes it.
func WriteStreamHead(w *bufio.Writer, h http.Header) error {
	h.Set("Connection", "close")
	if _, err := w.WriteString("HTTP/1.1 200 OK\r\n"); err != nil {
		return err
	}
	if err := h.Write(w); err != nil {
		return err
	}
	if _, err := w.WriteString("\r\n"); err != nil {
		return err
	}
	return w.Flush()
}

// DeadlineWriter writes to a hijacked connection, each write bounded by Timeout: a device that
// stopped reading (its socket buffer full) is dropped instead of holding a goroutine forever.
type DeadlineWriter struct {
	Conn    net.Conn
	Timeout time.Duration
}

func (w DeadlineWriter) Write(b []byte) (int, error) {
	_ = w.Conn.SetWriteDeadline(time.Now().Add(w.Timeout))
	return w.Conn.Write(b)
}
