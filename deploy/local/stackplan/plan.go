package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Services are the six services, in the order the plan gives them ports: PUBLIC+0..5 and
// ADMIN+0..5 of each profile (deploy/local/ports.env).
var Services = []string{"gateway", "wishlist", "vision", "media", "notification", "family"}

// Plan is the port plan, deploy/local/ports.env: the shared listeners (one of each per machine)
// and each profile's bases and ports, in the file's order.
type Plan struct {
	Shared   []Setting                 // NAME_PORT=..., in the file's order
	Profiles []string                  // every profile that has a PUBLIC base, in the file's order
	values   map[string]string         // every setting of the file
	profile  map[string]map[string]int // profile -> PUBLIC, ADMIN, NATS, SHOP
}

// Setting is one NAME=value line of the file.
type Setting struct {
	Key   string
	Value int
}

var (
	assignment = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)=([0-9]+)\s*(#.*)?$`)
	sharedKey  = regexp.MustCompile(`^[A-Z_]*_PORT$`)
	profileKey = regexp.MustCompile(`^([a-z]*)_([A-Z]+)$`)
)

// LoadPlan reads the port plan. The file is sourced by shell scripts too, so it stays plain:
// comments, blank lines and NAME=number lines, each name once.
func LoadPlan(path string) (*Plan, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p := &Plan{values: map[string]string{}, profile: map[string]map[string]int{}}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		m := assignment.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("%s:%d: not NAME=number: %q", path, n, line)
		}
		key := m[1]
		if _, dup := p.values[key]; dup {
			return nil, fmt.Errorf("%s:%d: %s is set twice", path, n, key)
		}
		p.values[key] = m[2]
		v, err := strconv.Atoi(m[2])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if sharedKey.MatchString(key) {
			p.Shared = append(p.Shared, Setting{key, v})
		}
		if pm := profileKey.FindStringSubmatch(key); pm != nil {
			if p.profile[pm[1]] == nil {
				p.profile[pm[1]] = map[string]int{}
			}
			p.profile[pm[1]][pm[2]] = v
			if pm[2] == "PUBLIC" {
				p.Profiles = append(p.Profiles, pm[1])
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return p, nil
}

// Planned is a profile's setting (PUBLIC, ADMIN, NATS, SHOP).
func (p *Plan) Planned(profile, key string) (int, error) {
	v, ok := p.profile[profile][key]
	if !ok {
		return 0, fmt.Errorf("%s_%s: no %s for the profile %s in deploy/local/ports.env", profile, key, key, profile)
	}
	return v, nil
}

// SharedPort is a shared listener's port (POSTGRES_PORT, ...).
func (p *Plan) SharedPort(key string) (int, error) {
	for _, s := range p.Shared {
		if s.Key == key {
			return s.Value, nil
		}
	}
	return 0, fmt.Errorf("no %s in deploy/local/ports.env", key)
}

// CheckProfile is nil when profile is one of the plan's.
func (p *Plan) CheckProfile(profile string) error {
	if !slices.Contains(p.Profiles, profile) {
		return fmt.Errorf("STACK is one of: %s", strings.Join(p.Profiles, " "))
	}
	return nil
}

// ServicePort is the port the plan gives the profile's service: public, or admin (its /readyz
// and /metrics).
func (p *Plan) ServicePort(profile, service string, admin bool) (int, error) {
	i := slices.Index(Services, service)
	if i < 0 {
		return 0, fmt.Errorf("no service %s", service)
	}
	key := "PUBLIC"
	if admin {
		key = "ADMIN"
	}
	base, err := p.Planned(profile, key)
	return base + i, err
}

// Listeners is every listener of every profile as "profile name port" lines, the shared ones
// once (stack.sh ports; tests/stackplan checks that no two share a port).
func (p *Plan) Listeners() ([]string, error) {
	var out []string
	for _, s := range p.Shared {
		name := strings.ReplaceAll(strings.ToLower(strings.TrimSuffix(s.Key, "_PORT")), "_", "-")
		out = append(out, fmt.Sprintf("shared %s %d", name, s.Value))
	}
	for _, prof := range p.Profiles {
		for _, s := range Services {
			pub, err := p.ServicePort(prof, s, false)
			if err != nil {
				return nil, err
			}
			adm, err := p.ServicePort(prof, s, true)
			if err != nil {
				return nil, err
			}
			out = append(out, fmt.Sprintf("%s %s %d", prof, s, pub), fmt.Sprintf("%s %s-admin %d", prof, s, adm))
		}
		for _, key := range []string{"NATS", "SHOP"} {
			v, err := p.Planned(prof, key)
			if err != nil {
				return nil, err
			}
			out = append(out, fmt.Sprintf("%s %s %d", prof, strings.ToLower(key), v))
		}
	}
	return out, nil
}

// Stack is one profile's resolved plan: what stack.sh reads as shell variables (vars).
type Stack struct {
	Name                string
	PortBase, AdminBase int
	DBName              string
	NATSAddr            string // the stack's own NATS, users per service
	ShopAddr, PushAddr  string // the end-to-end suite's local shop and push service
}

// Resolve is the profile's stack: its bases, its database, its addresses.
func (p *Plan) Resolve(profile string) (*Stack, error) {
	if err := p.CheckProfile(profile); err != nil {
		return nil, err
	}
	s := &Stack{Name: profile, DBName: "santa_" + profile}
	if profile == "dev" {
		s.DBName = "santa"
	}
	var err error
	get := func(key string) int {
		v, e := p.Planned(profile, key)
		if err == nil {
			err = e
		}
		return v
	}
	s.PortBase, s.AdminBase = get("PUBLIC"), get("ADMIN")
	s.NATSAddr = "127.0.0.1:" + strconv.Itoa(get("NATS"))
	s.ShopAddr = "127.0.0.3:" + strconv.Itoa(get("SHOP"))
	s.PushAddr = "127.0.0.4:" + strconv.Itoa(s.PortBase+8)
	return s, err
}

// Addr is 127.0.0.1 and a shared port of the plan.
func (p *Plan) Addr(key string) (string, error) {
	v, err := p.SharedPort(key)
	return "127.0.0.1:" + strconv.Itoa(v), err
}

// ShellVars is what stack.sh evaluates: the shared ports (as sourcing the file would give
// them) and the profile's resolved values.
func (p *Plan) ShellVars(profile string) (string, error) {
	s, err := p.Resolve(profile)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, sh := range p.Shared {
		fmt.Fprintf(&b, "%s=%d\n", sh.Key, sh.Value)
	}
	fmt.Fprintf(&b, "PORT_BASE=%d\nADMIN_BASE=%d\nDB_NAME=%s\nNATS_STACK_ADDR=%s\n", s.PortBase, s.AdminBase, s.DBName, s.NATSAddr)
	for _, a := range []struct{ name, key string }{
		{"MINIO_ADDR", "MINIO_PORT"}, {"EMULATOR_HOST", "AUTH_EMULATOR_PORT"}, {"MAILPIT_SMTP", "MAILPIT_SMTP_PORT"},
		{"MAILPIT_HTTP", "MAILPIT_HTTP_PORT"}, {"FAKE_GEMINI_ADDR", "FAKE_GEMINI_PORT"}, {"FAKE_PRODUCTS_ADDR", "FAKE_PRODUCTS_PORT"},
	} {
		addr, err := p.Addr(a.key)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "%s=%s\n", a.name, addr)
	}
	return b.String(), nil
}
