package httpserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"
)

// ETag gives a GET's 200 answer a strong validator and answers 304 Not Modified when the
// caller already holds that answer (If-None-Match), so a family reopening the same list on
// Christmas Eve costs a hash, not a download. The tag is a hash of the exact bytes this
// caller receives and of nothing else: a list's owner, whose answer never holds claims before
// the reveal date, gets a tag that cannot change when someone claims a gift.
//
// cacheControl is set on every answer (a handler may replace it), with Vary: Authorization, as
// each caller's answer is their own. Answers larger than maxBody are passed on untagged.
func ETag(cacheControl string, maxBody int) gin.HandlerFunc {
	return func(c *gin.Context) {
		if c.Request.Method != http.MethodGet {
			c.Next()
			return
		}
		orig := c.Writer
		h := orig.Header()
		h.Set("Cache-Control", cacheControl) // a handler may set its own
		h.Add("Vary", "Authorization")
		w := &bufferedWriter{ResponseWriter: orig, status: http.StatusOK, max: maxBody, buf: answerBuffers.Get().(*bytes.Buffer)}
		c.Writer = w
		c.Next()
		// Not deferred: after a panic the recovery handler may still write through w.
		c.Writer = orig
		defer w.release()
		if w.passed {
			return // too large: already streamed through
		}
		if w.status == http.StatusOK {
			sum := sha256.Sum256(w.buf.Bytes())
			tag := `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
			h.Set("ETag", tag)
			if etagListed(c.GetHeader("If-None-Match"), tag) {
				h.Del("Content-Length")
				orig.WriteHeader(http.StatusNotModified)
				orig.WriteHeaderNow()
				return
			}
		}
		orig.WriteHeader(w.status)
		orig.WriteHeaderNow()
		_, _ = orig.Write(w.buf.Bytes())
	}
}

// answerBuffers lend ETag its answer buffers: a list is tens of kilobytes, and growing a fresh
// buffer to that size on every read was a tenth of the wishlist's allocations.
var answerBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// keptBufferSize is the largest buffer given back to the pool (a rare huge answer is not kept).
const keptBufferSize = 256 << 10

// etagListed applies If-None-Match's weak comparison: "*" or any listed tag, W/ or not.
func etagListed(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == tag {
			return true
		}
	}
	return false
}

// bufferedWriter holds an answer until the handler is done, so its hash can decide between
// 200 and 304; past max bytes it gives up and streams the rest straight through.
type bufferedWriter struct {
	gin.ResponseWriter
	buf    *bytes.Buffer
	status int
	max    int
	passed bool
}

func (w *bufferedWriter) WriteHeader(code int) {
	if !w.passed {
		w.status = code
	}
}

func (w *bufferedWriter) WriteHeaderNow() {}

func (w *bufferedWriter) Status() int { return w.status }

func (w *bufferedWriter) Written() bool { return w.passed || w.buf.Len() > 0 }

func (w *bufferedWriter) Size() int {
	if w.passed {
		return w.ResponseWriter.Size()
	}
	return w.buf.Len()
}

func (w *bufferedWriter) Write(b []byte) (int, error) {
	if w.passed {
		return w.ResponseWriter.Write(b)
	}
	if w.buf.Len()+len(b) > w.max {
		w.passed = true
		w.ResponseWriter.WriteHeader(w.status)
		if _, err := w.ResponseWriter.Write(w.buf.Bytes()); err != nil {
			return 0, err
		}
		w.buf.Reset()
		return w.ResponseWriter.Write(b)
	}
	return w.buf.Write(b)
}

func (w *bufferedWriter) WriteString(s string) (int, error) { return w.Write([]byte(s)) }

func (w *bufferedWriter) release() {
	if w.buf.Cap() <= keptBufferSize {
		w.buf.Reset()
		answerBuffers.Put(w.buf)
	}
	w.buf = nil
}

// Flush is held back with the answer: the whole of it goes out when the handler is done.
func (w *bufferedWriter) Flush() {}
