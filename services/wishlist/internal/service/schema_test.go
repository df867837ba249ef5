package service_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/santa-wishlist/santa/pkg/events"
)

var (
	envelopeSchema     *jsonschema.Schema
	envelopeSchemaOnce sync.Once
)

// conformsToSchema checks an event against api/events/envelope.schema.json, the contract
// other teams' consumers are written against.
func conformsToSchema(t *testing.T, env events.Envelope) {
	t.Helper()
	envelopeSchemaOnce.Do(func() {
		_, here, _, _ := runtime.Caller(0)
		dir := filepath.Join(filepath.Dir(here), "..", "..", "..", "..", "api", "events")
		c := jsonschema.NewCompiler()
		names, err := filepath.Glob(filepath.Join(dir, "*.schema.json"))
		if err != nil || len(names) == 0 {
			t.Fatalf("no event schemas in %s: %v", dir, err)
		}
		for _, path := range names {
			name := filepath.Base(path)
			doc, err := jsonschema.UnmarshalJSON(mustOpen(t, filepath.Join(dir, name)))
			if err != nil {
				t.Fatal(err)
			}
			if err := c.AddResource("https://santa-wishlist.example/api/events/"+name, doc); err != nil {
				t.Fatal(err)
			}
		}
		c.AssertFormat()
		s, err := c.Compile("https://santa-wishlist.example/api/events/envelope.schema.json")
		if err != nil {
			t.Fatal(err)
		}
		envelopeSchema = s
	})
	raw, _ := json.Marshal(env)
	doc, _ := jsonschema.UnmarshalJSON(bytesReader(raw))
	if err := envelopeSchema.Validate(doc); err != nil {
		t.Fatalf("event %s does not match its schema: %v\n%s", env.Type, err, raw)
	}
}
func mustOpen(t *testing.T, path string) io.Reader {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(b)
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }
