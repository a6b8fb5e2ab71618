package engineproto_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/event"
)

// schema validates JSON values against docs/protocol.schema.json. It
// implements the subset of JSON Schema 2020-12 the file uses, and fails on
// any other keyword, so that the file cannot start relying on one that
// this validator would silently ignore.
type schema struct {
	root map[string]any
}

func loadSchema(t testing.TB) *schema {
	t.Helper()
	data, err := os.ReadFile("../docs/protocol.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := decodeNumbers(data, &root); err != nil {
		t.Fatalf("docs/protocol.schema.json: %v", err)
	}
	return &schema{root: root}
}

// decodeNumbers decodes JSON keeping numbers as json.Number, so that
// integers can be told from other numbers.
func decodeNumbers(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// validate checks the JSON text data against the definition def ("" for
// the whole schema).
func (s *schema) validate(data []byte, def string) error {
	var v any
	if err := decodeNumbers(data, &v); err != nil {
		return err
	}
	sch := any(s.root)
	if def != "" {
		sch = s.ref("#/$defs/" + def)
	}
	return s.check(sch, v, "$")
}

func (s *schema) ref(ref string) any {
	node := any(s.root)
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		node = node.(map[string]any)[part]
	}
	if node == nil {
		panic("schema: dangling $ref " + ref)
	}
	return node
}

// check validates v against one schema node.
func (s *schema) check(node, v any, path string) error {
	switch n := node.(type) {
	case bool:
		if !n {
			return fmt.Errorf("%s: not allowed here", path)
		}
		return nil
	case map[string]any:
		keys := make([]string, 0, len(n))
		for k := range n {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if err := s.keyword(n, k, v, path); err != nil {
				return err
			}
		}
		return nil
	}
	panic(fmt.Sprintf("schema: node %T at %s", node, path))
}

func (s *schema) keyword(n map[string]any, k string, v any, path string) error {
	arg := n[k]
	switch k {
	case "$schema", "$id", "$defs", "title", "description", "then", "else":
		return nil // annotations, or handled with their keyword
	case "$ref":
		return s.check(s.ref(arg.(string)), v, path)
	case "type":
		return checkType(arg, v, path)
	case "enum":
		for _, e := range arg.([]any) {
			if reflect.DeepEqual(e, v) {
				return nil
			}
		}
		return fmt.Errorf("%s: %v is not one of %v", path, v, arg)
	case "const":
		if !reflect.DeepEqual(arg, v) {
			return fmt.Errorf("%s: %v, want %v", path, v, arg)
		}
	case "minimum":
		if num, ok := v.(json.Number); ok {
			f, _ := num.Float64()
			min, _ := arg.(json.Number).Float64()
			if f < min {
				return fmt.Errorf("%s: %v is below the minimum %v", path, num, arg)
			}
		}
	case "required", "properties", "patternProperties", "additionalProperties":
		return s.object(n, k, v, path)
	case "items", "contains":
		return s.array(k, arg, v, path)
	case "allOf", "oneOf":
		return s.combine(k, arg.([]any), v, path)
	case "if":
		if s.check(arg, v, path) == nil {
			if then, ok := n["then"]; ok {
				return s.check(then, v, path)
			}
		} else if els, ok := n["else"]; ok {
			return s.check(els, v, path)
		}
	default:
		panic(fmt.Sprintf("schema: keyword %q at %s is not supported by this validator", k, path))
	}
	return nil
}

func checkType(arg, v any, path string) error {
	types, ok := arg.([]any)
	if !ok {
		types = []any{arg}
	}
	got := typeOf(v)
	for _, t := range types {
		if t == got || t == "number" && got == "integer" {
			return nil
		}
	}
	return fmt.Errorf("%s: %s, want %v", path, got, arg)
}

func typeOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case json.Number:
		if regexp.MustCompile(`^-?[0-9]+$`).MatchString(string(x)) {
			return "integer"
		}
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// object handles one object keyword: required, properties,
// patternProperties or additionalProperties (members matched by neither
// of the other two).
func (s *schema) object(n map[string]any, k string, v any, path string) error {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	if k == "required" {
		for _, r := range n[k].([]any) {
			if _, ok := obj[r.(string)]; !ok {
				return fmt.Errorf("%s: member %q is required", path, r)
			}
		}
		return nil
	}
	props, _ := n["properties"].(map[string]any)
	patterns, _ := n["patternProperties"].(map[string]any)
	for name, val := range obj {
		var subs []any
		sub, matched := props[name]
		if k == "properties" && matched {
			subs = append(subs, sub)
		}
		for pat, sub := range patterns {
			if regexp.MustCompile(pat).MatchString(name) {
				matched = true
				if k == "patternProperties" {
					subs = append(subs, sub)
				}
			}
		}
		if k == "additionalProperties" && !matched {
			subs = append(subs, n[k])
		}
		for _, sub := range subs {
			if err := s.check(sub, val, path+"."+name); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *schema) array(k string, arg, v any, path string) error {
	arr, ok := v.([]any)
	if !ok {
		return nil
	}
	for i, e := range arr {
		err := s.check(arg, e, fmt.Sprintf("%s[%d]", path, i))
		if k == "items" && err != nil {
			return err
		}
		if k == "contains" && err == nil {
			return nil
		}
	}
	if k == "contains" {
		return fmt.Errorf("%s: no element matches %v", path, arg)
	}
	return nil
}

func (s *schema) combine(k string, subs []any, v any, path string) error {
	passed := 0
	var errs []string
	for _, sub := range subs {
		if err := s.check(sub, v, path); err != nil {
			errs = append(errs, err.Error())
		} else {
			passed++
		}
	}
	switch {
	case k == "allOf" && len(errs) > 0:
		return fmt.Errorf("%s", errs[0])
	case k == "oneOf" && passed != 1:
		return fmt.Errorf("%s: matches %d of oneOf, want exactly 1 (%s)", path, passed, strings.Join(errs, "; "))
	}
	return nil
}

// TestSchemaValidator: the validator rejects what the schema forbids, so
// that the tests relying on it are not vacuous.
func TestSchemaValidator(t *testing.T) {
	s := loadSchema(t)
	tests := []struct {
		name, def, json string
		ok              bool
	}{
		{"timeline", "Reply", `{"type":"timeline","id":2,"timeline":{"format":"toolsim-timeline/1","items":[]}}`, true},
		{"delta", "Reply", `{"type":"timeline","id":2,"delta":{"len":1,"items":{"0":{"kind":"user","text":"hi"}},"now":3}}`, true},
		{"both", "Reply", `{"type":"timeline","id":2,"delta":{"len":0},"timeline":{"format":"toolsim-timeline/1","items":[]}}`, false},
		{"neither", "Reply", `{"type":"timeline","id":2}`, false},
		{"bad index", "Reply", `{"type":"timeline","id":2,"delta":{"len":1,"items":{"01":{"kind":"user"}}}}`, false},
		{"no len", "Reply", `{"type":"timeline","id":2,"delta":{"items":{}}}`, false},
		{"rendered without text", "Reply", `{"type":"rendered","id":3}`, false},
		{"bad status", "Reply", `{"type":"timeline","id":2,"timeline":{"format":"toolsim-timeline/1","items":[{"kind":"tool","tool":{"id":"a","name":"g","status":"done"}}]}}`, false},
		{"float id", "Reply", `{"type":"error","id":1.5,"message":"x"}`, false},
		{"no timeline capability", "Reply", `{"type":"init_ok","id":1,"protocol":"toolsim-engine/1","capabilities":["batch"]}`, false},
		{"grouping", "Reply", `{"type":"init_ok","id":1,"protocol":"toolsim-engine/1","capabilities":["timeline","delta"],"grouping":false,"features":["tools","text"]}`, true},
		{"init", "Message", `{"type":"init","id":1,"protocol":"toolsim-engine/1","options":{"width":80,"meta_tools":null,"features":["tools"]}}`, true},
		{"unknown feature", "Message", `{"type":"init","id":1,"protocol":"toolsim-engine/1","options":{"width":80,"features":["teleport"]}}`, false},
		{"whole schema", "", `{"type":"reset","id":4}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.validate([]byte(tt.json), tt.def)
			if (err == nil) != tt.ok {
				t.Errorf("valid = %v (%v), want %v", err == nil, err, tt.ok)
			}
		})
	}
}

// TestClientMessagesMatchTheSchema: every message the Client writes is
// valid against docs/protocol.schema.json.
func TestClientMessagesMatchTheSchema(t *testing.T) {
	s := loadSchema(t)
	path := t.TempDir() + "/sent.jsonl"
	t.Setenv(recordEnv, path)
	t.Setenv(fakeEnv, "reference")
	c, err := engineproto.Start([]string{os.Args[0]}, engineproto.Options{Timeout: time.Minute, Features: []string{"tools", "text"}, MetaTools: []string{"todowrite"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Event(ev(1)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Batch([]event.Event{{Seq: 2, T: 3, Kind: event.KindText, Text: "<b>"}}, true); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Finish(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Snapshot(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Render(40); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Reconstruct([]byte(persistedLog)); err != nil {
		t.Fatal(err)
	}
	if err := c.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	sent, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(sent)), "\n")
	if len(lines) != 8 {
		t.Fatalf("%d messages sent, want 8:\n%s", len(lines), sent)
	}
	for _, line := range lines {
		if err := s.validate([]byte(line), "Message"); err != nil {
			t.Errorf("message does not match the schema: %v\n%s", err, line)
		}
	}
}
