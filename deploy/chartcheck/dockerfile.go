package chartcheck

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
	"github.com/moby/buildkit/frontend/dockerfile/shell"
)

// Image is what one build target of a Dockerfile is made of, as BuildKit reads it.
type Image struct {
	// Stages are all stages of the file, their instructions' arguments expanded with the
	// build arguments the way BuildKit expands them (RUN lines stay as written: the shell
	// expands those, see FindGoBuild).
	Stages []instructions.Stage
	// Chain is the target stage and the stages it is built FROM, base first; Base is the
	// external image at its root.
	Chain []instructions.Stage
	Base  string
	// Args are the build arguments the file sees: ARG defaults overridden by the given ones.
	Args map[string]string
}

// ParseDockerfile reads a Dockerfile with BuildKit's own parser and instruction parser (so
// what `docker build` refuses is an error here too) and resolves a target ("" for the last
// stage) with the given build arguments.
func ParseDockerfile(src []byte, target string, buildArgs map[string]string) (*Image, error) {
	res, err := parser.Parse(bytes.NewReader(src))
	if err != nil {
		return nil, err
	}
	stages, metaArgs, err := instructions.Parse(res.AST, nil)
	if err != nil {
		return nil, err
	}
	if len(stages) == 0 {
		return nil, fmt.Errorf("no FROM")
	}
	img := &Image{Args: map[string]string{}}
	for _, a := range metaArgs {
		for _, kv := range a.Args {
			if kv.Value != nil {
				img.Args[kv.Key] = *kv.Value
			}
		}
	}
	for k, v := range buildArgs {
		img.Args[k] = v
	}
	lex := shell.NewLex(res.EscapeToken)
	expand := func(word string) (string, error) {
		out, _, err := lex.ProcessWord(word, shell.EnvsFromSlice(img.env(nil)))
		return out, err
	}
	for i := range stages {
		if stages[i].BaseName, err = expand(stages[i].BaseName); err != nil {
			return nil, err
		}
		for _, c := range stages[i].Commands {
			if _, isRun := c.(*instructions.RunCommand); isRun {
				continue
			}
			if e, ok := c.(instructions.SupportsSingleWordExpansion); ok {
				if err := e.Expand(expand); err != nil {
					return nil, fmt.Errorf("%s: %w", c.Name(), err)
				}
			}
		}
	}
	img.Stages = stages

	idx := len(stages) - 1
	if target != "" {
		if idx = stageIndex(stages, target); idx < 0 {
			return nil, fmt.Errorf("no stage %q", target)
		}
	}
	for idx >= 0 {
		img.Chain = append([]instructions.Stage{stages[idx]}, img.Chain...)
		base := stages[idx].BaseName
		if idx = stageIndex(stages[:idx], base); idx < 0 {
			img.Base = base
		}
	}
	return img, nil
}

func stageIndex(stages []instructions.Stage, name string) int {
	return slices.IndexFunc(stages, func(s instructions.Stage) bool { return strings.EqualFold(s.Name, name) })
}

// Stage returns the stage of that name, or nil.
func (img *Image) Stage(name string) *instructions.Stage {
	if i := stageIndex(img.Stages, name); i >= 0 {
		return &img.Stages[i]
	}
	return nil
}

// Commands of the target image, base stage first.
func (img *Image) Commands() []instructions.Command {
	var out []instructions.Command
	for _, st := range img.Chain {
		out = append(out, st.Commands...)
	}
	return out
}

// env is the build arguments as NAME=value, followed by a stage's ENV settings.
func (img *Image) env(st *instructions.Stage) []string {
	var env []string
	for k, v := range img.Args {
		env = append(env, k+"="+v)
	}
	slices.Sort(env)
	if st != nil {
		for _, c := range st.Commands {
			if e, ok := c.(*instructions.EnvCommand); ok {
				for _, kv := range e.Env {
					env = append(env, kv.Key+"="+kv.Value)
				}
			}
		}
	}
	return env
}

// Line is where a command starts in the Dockerfile.
func Line(c instructions.Command) int {
	if l, ok := c.(interface{ Location() []parser.Range }); ok && len(l.Location()) > 0 {
		return l.Location()[0].Start.Line
	}
	return 0
}

// RunWords splits a RUN (shell form) into words the way the shell will, with the build
// arguments and the stage's ENV expanded; exec-form RUNs are returned as written.
func (img *Image) RunWords(st *instructions.Stage, run *instructions.RunCommand) ([]string, error) {
	if !run.PrependShell {
		return run.CmdLine, nil
	}
	return shell.NewLex('\\').ProcessWords(strings.Join(run.CmdLine, " "), shell.EnvsFromSlice(img.env(st)))
}

// GoBuild is a `go build` command found in a RUN instruction.
type GoBuild struct {
	Env     []string // the build arguments, the stage's ENV, then NAME=value before `go`
	Flags   []string // everything between `build` and the package
	Output  string   // the -o value
	Package string
}

// FindGoBuild returns the single `go build` of a stage.
func (img *Image) FindGoBuild(st *instructions.Stage) (*GoBuild, error) {
	var found *GoBuild
	for _, c := range st.Commands {
		run, ok := c.(*instructions.RunCommand)
		if !ok {
			continue
		}
		words, err := img.RunWords(st, run)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", Line(c), err)
		}
		var assign []string
		for len(words) > 0 && strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-") {
			assign = append(assign, words[0])
			words = words[1:]
		}
		if len(words) < 2 || words[0] != "go" || words[1] != "build" {
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("line %d: a second go build", Line(c))
		}
		gb := &GoBuild{Env: append(img.env(st), assign...)}
		rest := words[2:]
		for j := 0; j < len(rest); j++ {
			w := rest[j]
			switch {
			case w == "&&" || w == ";" || w == "|" || w == "||":
				return nil, fmt.Errorf("line %d: go build must be the whole RUN, found %q", Line(c), w)
			case w == "-o" && j+1 < len(rest):
				gb.Output = rest[j+1]
				j++
			case strings.HasPrefix(w, "-o="):
				gb.Output = strings.TrimPrefix(w, "-o=")
			case strings.HasPrefix(w, "-"):
				gb.Flags = append(gb.Flags, w)
				// flags that take a separate value
				if (w == "-ldflags" || w == "-tags" || w == "-gcflags" || w == "-mod") && j+1 < len(rest) {
					gb.Flags = append(gb.Flags, rest[j+1])
					j++
				}
			default:
				if gb.Package != "" {
					return nil, fmt.Errorf("line %d: more than one package: %s %s", Line(c), gb.Package, w)
				}
				gb.Package = w
			}
		}
		found = gb
	}
	if found == nil {
		return nil, fmt.Errorf("no go build in stage %q", st.Name)
	}
	return found, nil
}

// EnvValue returns the last assignment of name in env.
func EnvValue(env []string, name string) (string, bool) {
	val, ok := "", false
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); k == name {
			val, ok = v, true
		}
	}
	return val, ok
}
