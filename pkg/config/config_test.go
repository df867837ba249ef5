package config

import (
	"strings"
	"testing"
	"time"
)

func TestEnvReportsEveryProblemAtOnce(t *testing.T) {
	t.Setenv("CFG_PORT", "eighty")
	t.Setenv("CFG_TIMEOUT", "soon")
	t.Setenv("CFG_FLAG", "maybe")
	env := New()
	env.Required("CFG_MISSING")
	if got := env.Int("CFG_PORT", 8080); got != 8080 {
		t.Fatalf("fallback on bad int: got %d", got)
	}
	env.Duration("CFG_TIMEOUT", time.Second)
	env.Bool("CFG_FLAG", false)
	err := env.Err()
	if err == nil {
		t.Fatal("expected problems")
	}
	for _, want := range []string{"CFG_MISSING is required", "CFG_PORT must be a whole number", "CFG_TIMEOUT must be a duration", "CFG_FLAG must be true or false"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestEnvReadsValues(t *testing.T) {
	t.Setenv("CFG_NAME", "  santa ")
	t.Setenv("CFG_N", "42")
	t.Setenv("CFG_D", "250ms")
	t.Setenv("CFG_B", "true")
	env := New()
	if env.Required("CFG_NAME") != "santa" || env.Int("CFG_N", 0) != 42 || env.Duration("CFG_D", 0) != 250*time.Millisecond || !env.Bool("CFG_B", false) {
		t.Fatal("values not read")
	}
	if env.String("CFG_UNSET", "dflt") != "dflt" {
		t.Fatal("fallback not used")
	}
	if err := env.Err(); err != nil {
		t.Fatal(err)
	}
}
