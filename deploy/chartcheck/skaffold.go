package chartcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"
)

// SkaffoldConfig is a typed view of the part of skaffold.yaml the checks read, with the
// schema's field names. Skaffold's own JSON schema decides what is valid (LoadSkaffold); this
// view only reads.
type SkaffoldConfig struct {
	APIVersion  string                `json:"apiVersion"`
	Kind        string                `json:"kind"`
	Metadata    SkaffoldMetadata      `json:"metadata"`
	Build       SkaffoldBuild         `json:"build"`
	Deploy      SkaffoldDeploy        `json:"deploy"`
	PortForward []SkaffoldPortForward `json:"portForward,omitempty"`
	Profiles    []SkaffoldProfile     `json:"profiles,omitempty"`
}

type SkaffoldMetadata struct {
	Name string `json:"name"`
}

type SkaffoldBuild struct {
	Local     *SkaffoldLocalBuild `json:"local,omitempty"`
	Artifacts []SkaffoldArtifact  `json:"artifacts"`
}

type SkaffoldLocalBuild struct {
	Push        *bool `json:"push,omitempty"`
	UseBuildkit *bool `json:"useBuildkit,omitempty"`
	Concurrency *int  `json:"concurrency,omitempty"`
}

type SkaffoldArtifact struct {
	Image   string          `json:"image"`
	Context string          `json:"context,omitempty"`
	Docker  *SkaffoldDocker `json:"docker,omitempty"`
}

type SkaffoldDocker struct {
	Dockerfile string            `json:"dockerfile,omitempty"`
	Target     string            `json:"target,omitempty"`
	BuildArgs  map[string]string `json:"buildArgs,omitempty"`
}

type SkaffoldDeploy struct {
	Helm *SkaffoldHelm `json:"helm,omitempty"`
}

type SkaffoldHelm struct {
	Releases []SkaffoldHelmRelease `json:"releases"`
}

type SkaffoldHelmRelease struct {
	Name              string            `json:"name"`
	ChartPath         string            `json:"chartPath,omitempty"`
	Namespace         string            `json:"namespace,omitempty"`
	CreateNamespace   *bool             `json:"createNamespace,omitempty"`
	ValuesFiles       []string          `json:"valuesFiles,omitempty"`
	SetValues         map[string]string `json:"setValues,omitempty"`
	SetValueTemplates map[string]string `json:"setValueTemplates,omitempty"`
	Wait              *bool             `json:"wait,omitempty"`
}

type SkaffoldPortForward struct {
	ResourceType string `json:"resourceType"`
	ResourceName string `json:"resourceName"`
	Namespace    string `json:"namespace,omitempty"`
	Port         int    `json:"port"`
	Address      string `json:"address,omitempty"`
	LocalPort    int    `json:"localPort,omitempty"`
}

type SkaffoldProfile struct {
	Name        string                `json:"name"`
	Activation  []SkaffoldActivation  `json:"activation,omitempty"`
	Patches     []SkaffoldPatch       `json:"patches,omitempty"`
	PortForward []SkaffoldPortForward `json:"portForward,omitempty"`
}

type SkaffoldActivation struct {
	Env         string `json:"env,omitempty"`
	KubeContext string `json:"kubeContext,omitempty"`
	Command     string `json:"command,omitempty"`
}

type SkaffoldPatch struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	From  string          `json:"from,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
}

// SkaffoldSchemaVersion is the apiVersion of the schema file chartcheck validates against.
const SkaffoldSchemaVersion = "skaffold/v4beta13"

// skaffoldModule is the Skaffold release whose published schema file is the reference; the
// module comes through the Go module proxy like any dependency (about 43 MB, cached once), so no
// copy of Skaffold's file lives in this repository. Importing the module's
// pkg/skaffold/schema package instead would link Docker, buildpacks and ~200 more modules.
const skaffoldModule = "github.com/GoogleContainerTools/skaffold/v2@v2.16.1"

// skaffoldSchemaFile is where that release keeps the schema of SkaffoldSchemaVersion.
const skaffoldSchemaFile = "docs-v2/content/en/schemas/v4beta13.json"

// skaffoldSchema is Skaffold's own published schema, fetched and compiled once.
var skaffoldSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	out, err := exec.Command("go", "mod", "download", "-json", skaffoldModule).Output()
	if err != nil {
		return nil, fmt.Errorf("go mod download %s: %w", skaffoldModule, err)
	}
	var mod struct{ Dir, Error string }
	if err := json.Unmarshal(out, &mod); err != nil {
		return nil, fmt.Errorf("go mod download %s: %w", skaffoldModule, err)
	}
	if mod.Error != "" {
		return nil, fmt.Errorf("go mod download %s: %s", skaffoldModule, mod.Error)
	}
	f, err := os.Open(filepath.Join(mod.Dir, skaffoldSchemaFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("skaffold.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("skaffold.json")
})

// validateSkaffold checks a skaffold.yaml document (as JSON) against Skaffold's schema and
// decodes it into the typed view the checks read.
func validateSkaffold(js []byte) (*SkaffoldConfig, error) {
	sch, err := skaffoldSchema()
	if err != nil {
		return nil, fmt.Errorf("skaffold schema: %w", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return nil, err
	}
	if err := sch.Validate(inst); err != nil {
		return nil, err
	}
	var cfg SkaffoldConfig
	if err := json.Unmarshal(js, &cfg); err != nil {
		return nil, err
	}
	if cfg.APIVersion != SkaffoldSchemaVersion {
		return nil, fmt.Errorf("apiVersion %q, but chartcheck holds the schema of %s (deploy/chartcheck/schemas)", cfg.APIVersion, SkaffoldSchemaVersion)
	}
	return &cfg, nil
}

// LoadSkaffold validates skaffold.yaml against Skaffold's published JSON schema and returns
// the effective configuration for a profile ("" for none): the profile's patches applied the
// way Skaffold applies them (RFC 6902 on the document, by a JSON Patch library), the result
// validated again, then the profile's portForward appended.
func LoadSkaffold(src []byte, profile string) (*SkaffoldConfig, error) {
	js, err := yaml.YAMLToJSONStrict(src)
	if err != nil {
		return nil, err
	}
	base, err := validateSkaffold(js)
	if err != nil {
		return nil, fmt.Errorf("skaffold.yaml: %w", err)
	}
	if profile == "" {
		return base, nil
	}
	var p *SkaffoldProfile
	for i := range base.Profiles {
		if base.Profiles[i].Name == profile {
			p = &base.Profiles[i]
		}
	}
	if p == nil {
		return nil, fmt.Errorf("no profile %q", profile)
	}
	patched, err := applyPatches(js, p.Patches)
	if err != nil {
		return nil, fmt.Errorf("profile %s: %w", profile, err)
	}
	out, err := validateSkaffold(patched)
	if err != nil {
		return nil, fmt.Errorf("profile %s after patches: %w", profile, err)
	}
	out.PortForward = append(out.PortForward, p.PortForward...)
	return out, nil
}

// applyPatches applies JSON Patch operations (add, remove, replace, ...; "-" appends) to a
// JSON document.
func applyPatches(doc []byte, patches []SkaffoldPatch) ([]byte, error) {
	ops, err := json.Marshal(patches)
	if err != nil {
		return nil, err
	}
	patch, err := jsonpatch.DecodePatch(ops)
	if err != nil {
		return nil, err
	}
	return patch.Apply(doc)
}

// SanitizeImageName is how Skaffold turns an artifact's image name into the suffix of its
// template variables (IMAGE_REPO_<suffix>): "/" and "-" become "_".
func SanitizeImageName(image string) string {
	return strings.NewReplacer("/", "_", "-", "_", ".", "_", ":", "_").Replace(image)
}
