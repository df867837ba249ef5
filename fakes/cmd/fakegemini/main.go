// Command fakegemini serves the fake Gemini API for the local stack and end-to-end tests, so
// the product shows a working AI without internet. It listens on FAKE_GEMINI_ADDR (default
// 127.0.0.1:8095) and accepts the key in FAKE_GEMINI_API_KEY (any key when unset). Point the
// vision service at it with GEMINI_BASE_URL=http://127.0.0.1:8095. Tests in other processes
// steer it through /_fake/replies, /_fake/always, /_fake/requests and /_fake/reset.
package main

import (
	"os"

	"github.com/santa-wishlist/santa/fakes/gemini"
	"github.com/santa-wishlist/santa/fakes/server"
)

func main() {
	server.Run("fakegemini", "FAKE_GEMINI_ADDR", "127.0.0.1:8095",
		gemini.New(os.Getenv("FAKE_GEMINI_API_KEY"), gemini.WithControl()))
}
