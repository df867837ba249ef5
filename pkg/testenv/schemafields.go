package testenv

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// SchemaFieldsMatch fails t unless the JSON field names of v's struct type are the properties
// of the spec's components.schemas[name], both ways; specOnly names the properties the spec
// documents that the type does not carry (answer-only fields another type adds). A field
// added to the Go type or to the spec alone fails here, without a running stack.
func SchemaFieldsMatch(t testing.TB, name string, v any, specOnly ...string) {
	t.Helper()
	schema := OpenAPI(t).doc.Components.Schemas[name]
	if schema == nil || schema.Value == nil {
		t.Fatalf("api/openapi.yaml has no schema %s", name)
	}
	var documented []string
	for property := range schema.Value.Properties {
		if !slices.Contains(specOnly, property) {
			documented = append(documented, property)
		}
	}
	typ := reflect.TypeOf(v)
	var carried []string
	for i := range typ.NumField() {
		f := typ.Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || key == "-" {
			continue
		}
		if key == "" {
			key = f.Name
		}
		carried = append(carried, key)
	}
	var diff []string
	for _, key := range carried {
		if !slices.Contains(documented, key) {
			diff = append(diff, "  "+typ.String()+" has "+key+", the schema does not")
		}
	}
	for _, key := range documented {
		if !slices.Contains(carried, key) {
			diff = append(diff, "  the schema has "+key+", "+typ.String()+" does not")
		}
	}
	if len(diff) > 0 {
		slices.Sort(diff)
		t.Errorf("%s and components.schemas.%s disagree:\n%s", typ, name, strings.Join(diff, "\n"))
	}
}
