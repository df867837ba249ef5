// Command apigen writes the code and documents the contract decides, so that each fact is
// written once: from api/openapi.yaml the gateway's table of proxied routes,
// services/gateway/internal/ports/routes.gen.go (the web's types come from the same spec
// through openapi-typescript: web's `npm run gen:api`), and for each service with a
// services/<name>/internal/ports/oapi-codegen.yaml its server interface and types (oapi-codegen,
// from the operations of its x-service) with their sign-in table; from api/internal.yaml, through
// oapi-codegen, the internal clients and servers (oapicodegen.go says
// which); from pkg/events' Go types the events' JSON Schemas, api/events/*.schema.json.
// `make generate` runs it; TestGeneratedFilesAreUpToDate fails while a committed file differs
// from what apigen writes.
//
//	go run ./tools/apigen [-root DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"

	"github.com/getkin/kin-openapi/openapi3"
)

// specPath is where the spec lives, from the repository root.
const specPath = "api/openapi.yaml"

func main() {
	root := flag.String("root", ".", "the repository root: the sources are read from it and the generated files written under it")
	flag.Parse()
	if err := run(*root); err != nil {
		fmt.Fprintln(os.Stderr, "apigen:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	if err := os.Chdir(root); err != nil {
		return err
	}
	files, err := generate()
	if err != nil {
		return err
	}
	for name, src := range files {
		if err := os.WriteFile(name, src, 0o644); err != nil {
			return err
		}
	}
	// A schema no Go type makes any more (its event type was removed) goes too, and so does a
	// service's generated server without its oapi-codegen.yaml.
	for _, name := range append(strayEventSchemas(files), strayServerFiles(files)...) {
		if err := os.Remove(name); err != nil {
			return err
		}
	}
	return nil
}

// generate reads the sources in the repository root (the working directory) and answers every
// generated file by its path from there.
func generate() (map[string][]byte, error) {
	raw, err := os.ReadFile(specPath)
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
	files, err := eventSchemas()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", eventsDir, err)
	}
	servers, err := serviceServers(raw)
	if err != nil {
		return nil, err
	}
	maps.Copy(files, servers)
	maps.Copy(files, map[string][]byte{gatewayRoutesFile: routes})
	generated, err := oapiCodegenFiles()
	if err != nil {
		return nil, err
	}
	maps.Copy(files, generated)
	return files, nil
}

// strayEventSchemas are the schema files under api/events that generate did not make.
func strayEventSchemas(files map[string][]byte) []string {
	names, _ := filepath.Glob(filepath.Join(eventSchemasDir, "*.schema.json"))
	var stray []string
	for _, name := range names {
		if _, ok := files[filepath.ToSlash(name)]; !ok {
			stray = append(stray, name)
		}
	}
	return stray
}
