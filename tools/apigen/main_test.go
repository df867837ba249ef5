package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Every generated file is committed (a reader and the Docker build see it without running
// apigen); this fails while one differs from what api/openapi.yaml, api/internal.yaml and
// pkg/events make (through oapi-codegen for the internal clients and servers), which
// is when a source changed and `make generate` was not run, or the file was edited by hand.
func TestGeneratedFilesAreUpToDate(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	files, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%s: %v (run `make generate`)", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what its source makes: run `make generate` and commit the result", name)
		}
	}
	for _, name := range strayEventSchemas(files) {
		t.Errorf("%s is no event data type's schema: run `make generate` (which deletes it) and commit the result", name)
	}
	for _, name := range strayServerFiles(files) {
		t.Errorf("%s has no oapi-codegen.yaml beside it: run `make generate` (which deletes it) and commit the result", name)
	}
}
