package chartcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// SkaffoldConfig is the part of the skaffold/v4beta13 schema this repository uses, with the
// schema's field names. Decoding is strict, so a misspelt or misplaced key fails the check
// (the Skaffold module itself is not available from the Go proxy to decode with).
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
	Value json.RawMessage `json:"value,omitempty"`
}

func strictJSON(js []byte, into any) error {
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	return dec.Decode(into)
}

// LoadSkaffold decodes skaffold.yaml strictly and returns the effective configuration for a
// profile ("" for none): the profile's patches applied the way Skaffold applies them (RFC 6902
// on the document), then its portForward appended.
func LoadSkaffold(src []byte, profile string) (*SkaffoldConfig, error) {
	js, err := yaml.YAMLToJSONStrict(src)
	if err != nil {
		return nil, err
	}
	var base SkaffoldConfig
	if err := strictJSON(js, &base); err != nil {
		return nil, fmt.Errorf("skaffold.yaml: %w", err)
	}
	if profile == "" {
		return &base, nil
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
	var doc any
	if err := json.Unmarshal(js, &doc); err != nil {
		return nil, err
	}
	for _, patch := range p.Patches {
		if doc, err = applyPatch(doc, patch); err != nil {
			return nil, fmt.Errorf("profile %s: patch %s %s: %w", profile, patch.Op, patch.Path, err)
		}
	}
	patched, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	var out SkaffoldConfig
	if err := strictJSON(patched, &out); err != nil {
		return nil, fmt.Errorf("profile %s after patches: %w", profile, err)
	}
	out.PortForward = append(out.PortForward, p.PortForward...)
	return &out, nil
}

// applyPatch applies one add, remove or replace operation (JSON Pointer paths, "-" appends).
func applyPatch(doc any, p SkaffoldPatch) (any, error) {
	if !strings.HasPrefix(p.Path, "/") {
		return nil, fmt.Errorf("path must start with /")
	}
	var value any
	if p.Op == "add" || p.Op == "replace" {
		if len(p.Value) == 0 {
			return nil, fmt.Errorf("no value")
		}
		if err := json.Unmarshal(p.Value, &value); err != nil {
			return nil, err
		}
	}
	tokens := strings.Split(p.Path[1:], "/")
	for i := range tokens {
		tokens[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(tokens[i])
	}
	parent := doc
	for _, t := range tokens[:len(tokens)-1] {
		switch node := parent.(type) {
		case map[string]any:
			next, ok := node[t]
			if !ok {
				return nil, fmt.Errorf("no %q", t)
			}
			parent = next
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(node) {
				return nil, fmt.Errorf("no index %q", t)
			}
			parent = node[i]
		default:
			return nil, fmt.Errorf("cannot descend into %q", t)
		}
	}
	last := tokens[len(tokens)-1]
	switch node := parent.(type) {
	case map[string]any:
		_, exists := node[last]
		switch p.Op {
		case "add":
			node[last] = value
		case "replace":
			if !exists {
				return nil, fmt.Errorf("replace of missing %q", last)
			}
			node[last] = value
		case "remove":
			if !exists {
				return nil, fmt.Errorf("remove of missing %q", last)
			}
			delete(node, last)
		default:
			return nil, fmt.Errorf("unsupported op %q", p.Op)
		}
		return doc, nil
	case []any:
		idx := len(node)
		if last != "-" {
			i, err := strconv.Atoi(last)
			if err != nil || i < 0 || i > len(node) {
				return nil, fmt.Errorf("bad index %q", last)
			}
			idx = i
		}
		var updated []any
		switch p.Op {
		case "add":
			updated = append(append(append([]any{}, node[:idx]...), value), node[idx:]...)
		case "replace", "remove":
			if idx >= len(node) {
				return nil, fmt.Errorf("no index %q", last)
			}
			updated = append([]any{}, node[:idx]...)
			if p.Op == "replace" {
				updated = append(updated, value)
			}
			updated = append(updated, node[idx+1:]...)
		default:
			return nil, fmt.Errorf("unsupported op %q", p.Op)
		}
		return setAt(doc, tokens[:len(tokens)-1], updated)
	}
	return nil, fmt.Errorf("cannot apply to %T", parent)
}

// setAt replaces the node at the token path (used for slices, which cannot be changed in place).
func setAt(doc any, tokens []string, value any) (any, error) {
	if len(tokens) == 0 {
		return value, nil
	}
	switch node := doc.(type) {
	case map[string]any:
		child, err := setAt(node[tokens[0]], tokens[1:], value)
		if err != nil {
			return nil, err
		}
		node[tokens[0]] = child
		return node, nil
	case []any:
		i, err := strconv.Atoi(tokens[0])
		if err != nil || i < 0 || i >= len(node) {
			return nil, fmt.Errorf("no index %q", tokens[0])
		}
		child, err := setAt(node[i], tokens[1:], value)
		if err != nil {
			return nil, err
		}
		node[i] = child
		return node, nil
	}
	return nil, fmt.Errorf("cannot descend into %T", doc)
}

// SanitizeImageName is how Skaffold turns an artifact's image name into the suffix of its
// template variables (IMAGE_REPO_<suffix>): "/" and "-" become "_".
func SanitizeImageName(image string) string {
	return strings.NewReplacer("/", "_", "-", "_", ".", "_", ":", "_").Replace(image)
}
