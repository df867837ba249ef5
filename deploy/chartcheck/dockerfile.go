package chartcheck

import (
	"fmt"
	"strings"
)

// Instruction is one Dockerfile instruction with its continuation lines joined.
type Instruction struct {
	Cmd  string // upper case: FROM, RUN, COPY, ...
	Args string
	Line int
}

// Stage is a FROM and the instructions after it.
type Stage struct {
	Image        string
	Name         string
	Instructions []Instruction
}

// ParseDockerfile reads the instructions of a Dockerfile, stage by stage. It knows line
// continuations and comments, which is all these Dockerfiles use (no heredocs).
func ParseDockerfile(src string) ([]Stage, error) {
	var stages []Stage
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		start := i
		line := strings.TrimSpace(lines[i])
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
			i++
			next := strings.TrimSpace(lines[i])
			if strings.HasPrefix(next, "#") {
				continue
			}
			line = strings.TrimSuffix(line, "\\") + " " + next
		}
		cmd, args, _ := strings.Cut(line, " ")
		in := Instruction{Cmd: strings.ToUpper(cmd), Args: strings.TrimSpace(args), Line: start + 1}
		if in.Cmd == "FROM" {
			f := strings.Fields(in.Args)
			st := Stage{}
			for j := 0; j < len(f); j++ {
				switch {
				case strings.HasPrefix(f[j], "--"):
				case strings.EqualFold(f[j], "AS") && j+1 < len(f):
					st.Name = f[j+1]
					j++
				case st.Image == "":
					st.Image = f[j]
				}
			}
			stages = append(stages, st)
			continue
		}
		if len(stages) == 0 {
			if in.Cmd == "ARG" {
				continue
			}
			return nil, fmt.Errorf("line %d: %s before the first FROM", in.Line, in.Cmd)
		}
		stages[len(stages)-1].Instructions = append(stages[len(stages)-1].Instructions, in)
	}
	if len(stages) == 0 {
		return nil, fmt.Errorf("no FROM")
	}
	return stages, nil
}

// GoBuild is a `go build` command found in a RUN instruction.
type GoBuild struct {
	Env     []string // NAME=value assignments before `go`, and ENV of the stage
	Flags   []string // everything between `build` and the package
	Output  string   // the -o value
	Package string
}

// FindGoBuild returns the single `go build` of a stage, with the stage's ENV settings.
func FindGoBuild(st Stage) (*GoBuild, error) {
	var found *GoBuild
	var env []string
	for _, in := range st.Instructions {
		if in.Cmd == "ENV" {
			for _, kv := range strings.Fields(in.Args) {
				if strings.Contains(kv, "=") {
					env = append(env, kv)
				}
			}
		}
		if in.Cmd != "RUN" {
			continue
		}
		words, err := ShellWords(in.Args)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", in.Line, err)
		}
		for len(words) > 0 && strings.HasPrefix(words[0], "--") { // RUN --mount=...
			words = words[1:]
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
			return nil, fmt.Errorf("line %d: a second go build", in.Line)
		}
		gb := &GoBuild{Env: append(append([]string(nil), env...), assign...)}
		rest := words[2:]
		for j := 0; j < len(rest); j++ {
			w := rest[j]
			switch {
			case w == "&&" || w == ";" || w == "|":
				return nil, fmt.Errorf("line %d: go build must be the whole RUN, found %q", in.Line, w)
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
					return nil, fmt.Errorf("line %d: more than one package: %s %s", in.Line, gb.Package, w)
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

// ShellWords splits a POSIX shell command line into words, honouring single and double quotes
// and backslashes. Operators such as && come out as words of their own when space-separated.
func ShellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.ContainsRune(`"\$`+"`", rune(s[i+1])) {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated double quote")
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
