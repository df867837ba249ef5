package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/santa-wishlist/santa/pkg/events"
)

// eventSchemasDir holds the events' contract, from the repository root: one schema per data
// type of pkg/events and the envelope's. Every *.schema.json in it is generated.
const eventSchemasDir = "api/events"

// eventSchemaBase is where the schemas' $ids live; the envelope's $refs resolve against it.
const eventSchemaBase = "https://santa-wishlist.example/api/events/"

// eventsPackage is pkg/events' directory (from the repository root) and import path: its doc
// comments are the schemas' descriptions.
const (
	eventsDir        = "pkg/events"
	eventsImportBase = "github.com/santa-wishlist/santa"
)

// enumer is a pkg/events data type whose string fields take only listed values, by JSON name.
type enumer interface{ Enums() map[string][]string }

// eventSchemas renders api/events from pkg/events (run in the repository root: the library
// reads the doc comments by their path from it). Each data type's schema is what encoding/json
// writes for it; its enums come from the type's Enums and its title from the event types
// whose data it is.
func eventSchemas() (map[string][]byte, error) {
	r := &jsonschema.Reflector{ExpandedStruct: true, DoNotReference: true}
	if err := r.AddGoComments(eventsImportBase, eventsDir, jsonschema.WithFullComment()); err != nil {
		return nil, err
	}
	for k, v := range r.CommentMap {
		r.CommentMap[k] = strings.Join(strings.Fields(v), " ") // a comment's line breaks are gofmt's, not the text's
	}

	var files []string
	eventTypes := map[string][]string{}
	goTypes := map[string]reflect.Type{}
	for _, d := range events.DataSchemas {
		if t, ok := goTypes[d.File]; ok && t != reflect.TypeOf(d.Data) {
			return nil, fmt.Errorf("%s is written from both %s and %T", d.File, t, d.Data)
		} else if !ok {
			files = append(files, d.File)
			goTypes[d.File] = reflect.TypeOf(d.Data)
		}
		eventTypes[d.File] = append(eventTypes[d.File], d.Type)
	}

	out := map[string][]byte{}
	for _, file := range files {
		t := goTypes[file]
		s := r.ReflectFromType(t)
		s.ID = jsonschema.ID(eventSchemaBase + file)
		s.Title = strings.Join(eventTypes[file], " / ") + " data"
		if err := checkNullable(s, t); err != nil {
			return nil, err
		}
		if e, ok := reflect.Zero(t).Interface().(enumer); ok {
			for name, values := range e.Enums() {
				p, ok := s.Properties.Get(name)
				if !ok {
					return nil, fmt.Errorf("%s.Enums names %q, which is no property of it", t, name)
				}
				for _, v := range values {
					p.Enum = append(p.Enum, v)
				}
			}
		}
		if err := put(out, file, s); err != nil {
			return nil, err
		}
	}

	// The envelope: every event type, and for each the schema its data has.
	env := r.Reflect(events.Envelope{})
	env.ID = eventSchemaBase + "envelope.schema.json"
	env.Title = "Event envelope"
	typ, _ := env.Properties.Get("type")
	for _, d := range events.DataSchemas {
		typ.Enum = append(typ.Enum, d.Type)
		is, data := jsonschema.NewProperties(), jsonschema.NewProperties()
		is.Set("type", &jsonschema.Schema{Const: d.Type})
		data.Set("data", &jsonschema.Schema{Ref: d.File, Required: d.Requires})
		env.AllOf = append(env.AllOf, &jsonschema.Schema{
			If:   &jsonschema.Schema{Properties: is},
			Then: &jsonschema.Schema{Properties: data},
		})
	}
	return out, put(out, "envelope.schema.json", env)
}

// checkNullable refuses a pointer field whose schema does not allow null: encoding/json writes
// a nil pointer as null, but the library allows it only when the field is tagged
// jsonschema:"nullable".
func checkNullable(s *jsonschema.Schema, t reflect.Type) error {
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if p, ok := s.Properties.Get(name); ok && f.Type.Kind() == reflect.Pointer && p.OneOf == nil {
			return fmt.Errorf(`%s.%s is a pointer, written as null when nil: tag it jsonschema:"nullable"`, t, f.Name)
		}
	}
	return nil
}

// put adds a schema to out as a file under eventSchemasDir.
func put(out map[string][]byte, file string, s *jsonschema.Schema) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	out[eventSchemasDir+"/"+file] = append(b, '\n')
	return nil
}
