package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Every generated file is committed (a reader and the Docker build see it without running
// apigen); this fails while one differs from what api/openapi.yaml makes, which is when the
// spec changed and `make generate` was not run, or the file was edited by hand.
func TestGeneratedFilesAreUpToDate(t *testing.T) {
	root := filepath.Join("..", "..")
	files, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Errorf("%s: %v (run `make generate`)", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what api/openapi.yaml makes: run `make generate` and commit the result", name)
		}
	}
}
