package testenv

import (
	"fmt"
	"path"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TaggedUnion reads components.schemas[union] of api/openapi.yaml: a oneOf of objects told apart
// by their tag property's enum (nested oneOfs flattened), each with a payload property that
// refers to a schema. It answers each tag value with the name of that schema, so that a Go
// list of names and data types can be checked against the spec's. A variant without a tag enum
// or a payload reference, or a tag value two variants share, fails t.
func TaggedUnion(t testing.TB, union, tag, payload string) map[string]string {
	t.Helper()
	schema := OpenAPI(t).doc.Components.Schemas[union]
	if schema == nil || schema.Value == nil {
		t.Fatalf("api/openapi.yaml has no schema %s", union)
	}
	out := map[string]string{}
	var visit func(where string, s *openapi3.SchemaRef)
	visit = func(where string, s *openapi3.SchemaRef) {
		if len(s.Value.OneOf) > 0 {
			for _, variant := range s.Value.OneOf {
				visit(path.Base(variant.Ref), variant)
			}
			return
		}
		name, data := s.Value.Properties[tag], s.Value.Properties[payload]
		if name == nil || name.Value == nil || len(name.Value.Enum) == 0 || data == nil || data.Ref == "" {
			t.Fatalf("%s (in %s's oneOf) has no %s enum or no %s $ref", where, union, tag, payload)
		}
		for _, v := range name.Value.Enum {
			value := fmt.Sprint(v)
			if _, twice := out[value]; twice {
				t.Fatalf("%s %q is in two variants of %s", tag, value, union)
			}
			out[value] = path.Base(data.Ref)
		}
	}
	visit(union, schema)
	return out
}
