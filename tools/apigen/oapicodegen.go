package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// internalSpecPath is the contract of the calls services make on each other (/internal/).
const internalSpecPath = "api/internal.yaml"

// oapiCodegenDir is the module that pins oapi-codegen (its go.mod's tool directive). It stays
// outside go.work so that the generator's dependencies do not raise the versions the services
// build with.
const oapiCodegenDir = "tools/oapigen"

// oapiCodegen lists what oapi-codegen makes: each output from a spec with the configuration
// committed beside it (which has no output of its own: the code is read from the generator's
// standard output, so that the staleness test can compare it without writing anything).
var oapiCodegen = []struct{ spec, config, output string }{
	// The callers' client of media's internal routes and the types both sides use.
	{internalSpecPath, "pkg/internalapi/media/oapi-codegen.yaml", "pkg/internalapi/media/client.gen.go"},
	// Media's server interface of those routes, which its ports implement.
	{internalSpecPath, "services/media/internal/ports/internalapi.oapi-codegen.yaml", "services/media/internal/ports/internalapi.gen.go"},
	// A service's client of media's public upload (vision's, as the importing user).
	{specPath, "pkg/publicapi/media/oapi-codegen.yaml", "pkg/publicapi/media/client.gen.go"},
}

// oapiCodegenFiles runs the pinned oapi-codegen for each entry of oapiCodegen and answers the
// code by output path.
func oapiCodegenFiles() (map[string][]byte, error) {
	root, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, g := range oapiCodegen {
		cmd := exec.Command("go", "tool", "oapi-codegen", "-config", filepath.Join(root, g.config), filepath.Join(root, g.spec))
		cmd.Dir = filepath.Join(root, oapiCodegenDir)
		cmd.Env = append(os.Environ(), "GOWORK=off")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("oapi-codegen -config %s %s: %w\n%s", g.config, g.spec, err, stderr.Bytes())
		}
		files[g.output] = stdout.Bytes()
	}
	return files, nil
}
