// Package config reads a service's settings from the environment and reports every missing or
// bad value at once, so an operator fixes them in one go instead of one restart per mistake.
package config

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Env collects values and the problems found while reading them.
type Env struct {
	problems []string
}

// New starts a fresh reading of the environment.
func New() *Env { return &Env{} }

// String returns the variable or the fallback when it is unset or empty.
func (e *Env) String(name, fallback string) string {
	if v, ok := os.LookupEnv(name); ok && strings.TrimSpace(v) != "" {
		return strings.TrimSpace(v)
	}
	return fallback
}

// Required returns the variable and records a problem when it is unset or empty.
func (e *Env) Required(name string) string {
	v := e.String(name, "")
	if v == "" {
		e.problems = append(e.problems, fmt.Sprintf("%s is required but not set", name))
	}
	return v
}

// Int returns the variable as an integer, recording a problem when it does not parse.
func (e *Env) Int(name string, fallback int) int {
	raw := e.String(name, "")
	if raw == "" {
		return fallback
	}
	v, err := strconv.Atoi(raw)
	if err != nil {
		e.problems = append(e.problems, fmt.Sprintf("%s must be a whole number, got %q", name, raw))
		return fallback
	}
	return v
}

// Bool returns the variable as a boolean (true/false/1/0), recording a problem otherwise.
func (e *Env) Bool(name string, fallback bool) bool {
	raw := e.String(name, "")
	if raw == "" {
		return fallback
	}
	v, err := strconv.ParseBool(raw)
	if err != nil {
		e.problems = append(e.problems, fmt.Sprintf("%s must be true or false, got %q", name, raw))
		return fallback
	}
	return v
}

// Duration returns the variable as a Go duration ("250ms", "20s"), recording a problem otherwise.
func (e *Env) Duration(name string, fallback time.Duration) time.Duration {
	raw := e.String(name, "")
	if raw == "" {
		return fallback
	}
	v, err := time.ParseDuration(raw)
	if err != nil || v < 0 {
		e.problems = append(e.problems, fmt.Sprintf("%s must be a duration such as 20s or 250ms, got %q", name, raw))
		return fallback
	}
	return v
}

// Problem records a problem found by the caller's own check of a value.
func (e *Env) Problem(format string, args ...any) {
	e.problems = append(e.problems, fmt.Sprintf(format, args...))
}

// Err returns every problem found so far, or nil.
func (e *Env) Err() error {
	if len(e.problems) == 0 {
		return nil
	}
	return errors.New("configuration: " + strings.Join(e.problems, "; "))
}
