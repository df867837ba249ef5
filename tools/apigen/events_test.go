package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
)

// The library reflects *string as a string; encoding/json writes a nil one as null, which such
// a schema would refuse, so apigen refuses the type until the tag says null is allowed.
func TestAPointerMustAllowNull(t *testing.T) {
	type untagged struct {
		Name *string `json:"name"`
	}
	type tagged struct {
		Name *string `json:"name" jsonschema:"nullable"`
	}
	r := &jsonschema.Reflector{ExpandedStruct: true}
	if err := checkNullable(r.Reflect(untagged{}), reflect.TypeFor[untagged]()); err == nil || !strings.Contains(err.Error(), "nullable") {
		t.Errorf("untagged pointer: got %v, want an error asking for the nullable tag", err)
	}
	if err := checkNullable(r.Reflect(tagged{}), reflect.TypeFor[tagged]()); err != nil {
		t.Errorf("tagged pointer: %v", err)
	}
}
