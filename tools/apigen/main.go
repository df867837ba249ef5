// Command apigen writes the Go code that api/openapi.yaml decides, so that what the spec says
// about a route is written once, in the spec: today the gateway's table of proxied routes,
// services/gateway/internal/ports/routes.gen.go. (The web's types come from the same spec
// through openapi-typescript: web's `npm run gen:api`.) `make generate` runs both;
// TestGeneratedFilesAreUpToDate fails while a committed file differs from what apigen writes.
//
//	go run ./tools/apigen [-root DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/getkin/kin-openapi/openapi3"
)

// specPath is where the spec lives, from the repository root.
const specPath = "api/openapi.yaml"

func main() {
	root := flag.String("root", ".", "the repository root: the spec is read from it and the generated files written under it")
	flag.Parse()
	files, err := generate(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "apigen:", err)
		os.Exit(1)
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(*root, name), src, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "apigen:", err)
			os.Exit(1)
		}
	}
}

// generate reads the spec under root and answers every generated file by its path from root.
func generate(root string) (map[string][]byte, error) {
	raw, err := os.ReadFile(filepath.Join(root, specPath))
	if err != nil {
		return nil, err
	}
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", specPath, err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("%s is not a valid OpenAPI document: %w", specPath, err)
	}
	routes, err := gatewayRoutes(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", specPath, err)
	}
	return map[string][]byte{gatewayRoutesFile: routes}, nil
}
