package events

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// schemaEnums are the Go constants of every enum in a data schema, by "file#property". An enum
// in a schema that is not here fails the test, as does a stale entry.
var schemaEnums = map[string][]string{
	"claim.schema.json#reason":                        ClaimReasons,
	"pledge.schema.json#action":                       PledgeActions,
	"list-changed.schema.json#cause":                  ListChangedCauses,
	"list-managers-changed.schema.json#recipientKind": RecipientKinds,
	"family-member-joined.schema.json#role":           MemberRoles,
	"user-erased.schema.json#service":                 ErasingServices,
	"secretsanta-message.schema.json#with":            ConversationSides,
}

// schema is the part of a JSON Schema file the comparison reads.
type schema struct {
	Required   []string `json:"required"`
	Properties map[string]struct {
		Type any      `json:"type"` // "string" or ["string", "null"]
		Enum []string `json:"enum"`
	} `json:"properties"`
	// The envelope's: which data schema each type's data has.
	AllOf []struct {
		If struct {
			Properties struct {
				Type struct{ Const string } `json:"type"`
			} `json:"properties"`
		} `json:"if"`
		Then struct {
			Properties struct {
				Data struct {
					Ref string `json:"$ref"`
				} `json:"data"`
			} `json:"properties"`
		} `json:"then"`
	} `json:"allOf"`
}

var schemaDir = filepath.Join("..", "..", "api", "events")

func readSchema(t *testing.T, file string) schema {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(schemaDir, file))
	if err != nil {
		t.Fatal(err)
	}
	var s schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return s
}

// TestDataTypesAgreeWithSchemas: the event types of dataTypes are those of envelope.schema.json,
// each has a data schema there (its allOf), every schema file is some type's, and each Go type
// has exactly its schema's properties, none of the required ones omitempty, a pointer where the
// schema allows null, a Go kind its JSON type decodes into, and its enums' values as constants.
func TestDataTypesAgreeWithSchemas(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(schemaDir, "*.schema.json"))
	if err != nil || len(files) < 2 {
		t.Fatalf("no schemas under %s: %v", schemaDir, err)
	}
	unused := map[string]bool{}
	for _, f := range files {
		if name := filepath.Base(f); name != "envelope.schema.json" {
			unused[name] = true
		}
	}
	enumsSeen := map[string]bool{}
	fileOf := map[string]string{}
	envelope := readSchema(t, "envelope.schema.json")
	for _, rule := range envelope.AllOf {
		fileOf[rule.If.Properties.Type.Const] = rule.Then.Properties.Data.Ref
	}
	if got, want := slices.Sorted(maps.Keys(dataTypes)), slices.Sorted(slices.Values(envelope.Properties["type"].Enum)); !slices.Equal(got, want) {
		t.Errorf("envelope.schema.json's types are %v, dataTypes' are %v", want, got)
	}
	for typ := range dataTypes {
		if fileOf[typ] == "" {
			t.Errorf("%s has a Go data type but no data schema in envelope.schema.json", typ)
		}
	}
	compared := map[string]bool{} // item.created and item.deleted share a schema and a type
	for typ, file := range fileOf {
		delete(unused, file)
		data, ok := dataTypes[typ]
		if !ok {
			t.Errorf("%s (%s) has no Go data type in dataTypes", typ, file)
			continue
		}
		if goType := reflect.TypeOf(data); !compared[file+goType.String()] {
			compared[file+goType.String()] = true
			compare(t, file, readSchema(t, file), goType, enumsSeen)
		}
	}
	for file := range unused {
		t.Errorf("%s is no event type's data schema in envelope.schema.json", file)
	}
	for key := range schemaEnums {
		if !enumsSeen[key] {
			t.Errorf("schemaEnums has %s, which is no enum of a schema", key)
		}
	}
}

func compare(t *testing.T, file string, s schema, goType reflect.Type, enumsSeen map[string]bool) {
	fields := map[string]reflect.StructField{}
	omitempty := map[string]bool{}
	for _, f := range reflect.VisibleFields(goType) {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			t.Errorf("%s.%s has no json name", goType, f.Name)
			continue
		}
		fields[name], omitempty[name] = f, strings.Contains(opts, "omitempty")
	}
	for name := range fields {
		if _, ok := s.Properties[name]; !ok {
			t.Errorf("%s: %s has field %q, which the schema does not have", file, goType, name)
		}
	}
	for _, name := range s.Required {
		if omitempty[name] {
			t.Errorf("%s: %q is required, but %s omits it when empty", file, name, goType)
		}
	}
	for name, prop := range s.Properties {
		f, ok := fields[name]
		if !ok {
			t.Errorf("%s: property %q is no field of %s", file, name, goType)
			continue
		}
		if prop.Enum != nil {
			key := file + "#" + name
			enumsSeen[key] = true
			if got := slices.Sorted(slices.Values(schemaEnums[key])); !slices.Equal(got, slices.Sorted(slices.Values(prop.Enum))) {
				t.Errorf("%s: %q's enum is %v, its Go constants (schemaEnums[%q]) are %v", file, name, prop.Enum, key, got)
			}
		}
		if want := kindsOf(prop.Type, prop.Enum != nil); !matches(f.Type, want) {
			t.Errorf("%s: %q is %v, but %s.%s is %s", file, name, prop.Type, goType, f.Name, f.Type)
		}
	}
}

// kindsOf is the JSON types a schema type allows ("null" among them when nullable); an enum
// without a type is of strings.
func kindsOf(typ any, enum bool) []string {
	switch v := typ.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			out = append(out, x.(string))
		}
		return out
	}
	if enum {
		return []string{"string"}
	}
	return nil
}

// matches says whether a Go field of type t holds exactly the JSON types want: a pointer
// exactly when null is allowed, and a kind the JSON type decodes into.
func matches(t reflect.Type, want []string) bool {
	nullable := slices.Contains(want, "null")
	if nullable != (t.Kind() == reflect.Pointer) {
		return false
	}
	if nullable {
		t = t.Elem()
		want = slices.DeleteFunc(slices.Clone(want), func(s string) bool { return s == "null" })
	}
	if len(want) != 1 {
		return false
	}
	switch want[0] {
	case "string":
		return t.Kind() == reflect.String || t == reflect.TypeOf(time.Time{})
	case "integer":
		return t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64
	case "boolean":
		return t.Kind() == reflect.Bool
	case "array":
		return t.Kind() == reflect.Slice
	}
	return false
}
