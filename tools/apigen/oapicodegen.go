package main

import (
	"fmt"
	"os"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oapi-codegen/oapi-codegen/v2/pkg/codegen"
	"gopkg.in/yaml.v3"
)

// internalSpecPath is the contract of the calls services make on each other (/internal/).
const internalSpecPath = "api/internal.yaml"

// oapiCodegen lists what oapi-codegen makes besides the services' servers (servers.go): each
// output from a spec with the configuration committed beside it, in oapi-codegen's own format.
var oapiCodegen = []struct{ spec, config, output string }{
	// The callers' client of media's internal routes and the types both sides use.
	{internalSpecPath, "pkg/internalapi/media/oapi-codegen.yaml", "pkg/internalapi/media/client.gen.go"},
	// Media's server interface of those routes, which its ports implement.
	{internalSpecPath, "services/media/internal/ports/internalserver/internalapi.oapi-codegen.yaml", "services/media/internal/ports/internalserver/internalapi.gen.go"},
	// A service's client of media's public upload (vision's, as the importing user).
	{specPath, "pkg/publicapi/media/oapi-codegen.yaml", "pkg/publicapi/media/client.gen.go"},
}

// oapiCodegenFiles runs oapi-codegen (the library apigen is built with, as for the servers) for
// each entry of oapiCodegen and answers the code by output path.
func oapiCodegenFiles() (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, g := range oapiCodegen {
		code, err := oapiCodegenFile(g.spec, g.config)
		if err != nil {
			return nil, fmt.Errorf("%s with %s: %w", g.spec, g.config, err)
		}
		files[g.output] = []byte(generatedHeader(code, g.spec))
	}
	return files, nil
}

func oapiCodegenFile(specFile, configFile string) (string, error) {
	src, err := os.ReadFile(configFile)
	if err != nil {
		return "", err
	}
	var cfg codegen.Configuration
	if err := yaml.Unmarshal(src, &cfg); err != nil {
		return "", err
	}
	cfg = cfg.UpdateDefaults()
	if err := cfg.Validate(); err != nil {
		return "", err
	}
	doc, err := openapi3.NewLoader().LoadFromFile(specFile)
	if err != nil {
		return "", err
	}
	return codegen.Generate(doc, cfg)
}
