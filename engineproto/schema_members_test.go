package engineproto_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/engineproto"
)

const memberSchemaFile = "../docs/protocol.schema.json"

// memberSchema is the part of a JSON Schema the checks read.
type memberSchema struct {
	Properties map[string]*memberSchema `json:"properties"`
	Items      *memberSchema            `json:"items"`
	Enum       []string                 `json:"enum"`
	Defs       map[string]*memberSchema `json:"$defs"`
}

func readMemberSchema(t *testing.T) *memberSchema {
	t.Helper()
	data, err := os.ReadFile(memberSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var s memberSchema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("%s: %v", memberSchemaFile, err)
	}
	return &s
}

// tagNames lists the JSON member names of a struct, from its tags.
func tagNames(typ reflect.Type) []string {
	var out []string
	for f := range typ.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

func sortedKeys(m map[string]*memberSchema) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestSchemaMatchesTypes checks that docs/protocol.schema.json and the Go
// types of the protocol name the same members: every JSON member of
// Message, Reply and InitOptions is in the schema, and every schema
// property is a member of the Go type.
func TestSchemaMatchesTypes(t *testing.T) {
	s := readMemberSchema(t)
	msg, reply := s.Defs["Message"], s.Defs["Reply"]
	if msg == nil || reply == nil || msg.Properties["options"] == nil {
		t.Fatalf("%s: want $defs.Message, $defs.Reply and Message.properties.options", memberSchemaFile)
	}
	for _, c := range []struct {
		where  string
		goType reflect.Type
		schema *memberSchema
	}{
		{"$defs.Message", reflect.TypeFor[engineproto.Message](), msg},
		{"$defs.Reply", reflect.TypeFor[engineproto.Reply](), reply},
		{"$defs.Message.properties.options", reflect.TypeFor[engineproto.InitOptions](), msg.Properties["options"]},
	} {
		goNames, schemaNames := tagNames(c.goType), sortedKeys(c.schema.Properties)
		for _, n := range goNames {
			if !slices.Contains(schemaNames, n) {
				t.Errorf("%s: engineproto.%s has member %q; %s does not list it", memberSchemaFile, c.goType.Name(), n, c.where)
			}
		}
		for _, n := range schemaNames {
			if !slices.Contains(goNames, n) {
				t.Errorf("%s: %s lists %q; engineproto.%s has no such member", memberSchemaFile, c.where, n, c.goType.Name())
			}
		}
	}
}

// TestSchemaMatchesConstants checks the schema's enums against the
// package's constants, read from its source: the message and reply types
// (Type*), the capabilities (Cap*) and the optional fields (Field*, and
// AllFields).
func TestSchemaMatchesConstants(t *testing.T) {
	s := readMemberSchema(t)
	consts := protoConsts(t)
	enum := func(n *memberSchema) []string {
		if n == nil {
			return nil
		}
		if n.Items != nil {
			n = n.Items
		}
		return slices.Sorted(slices.Values(n.Enum))
	}
	msg, reply := s.Defs["Message"], s.Defs["Reply"]
	types := append(enum(msg.Properties["type"]), enum(reply.Properties["type"])...)
	slices.Sort(types)
	for _, c := range []struct {
		what         string
		schema, code []string
	}{
		{"message and reply types (Type*)", types, consts["Type"]},
		{"Reply.capabilities (Cap*)", enum(reply.Properties["capabilities"]), consts["Cap"]},
		{"Reply.fields (Field*)", enum(reply.Properties["fields"]), consts["Field"]},
		{"Reply.fields (AllFields)", enum(reply.Properties["fields"]), slices.Sorted(slices.Values(engineproto.AllFields))},
	} {
		if !slices.Equal(c.schema, c.code) {
			t.Errorf("%s: %s: the schema has %q, the code %q", memberSchemaFile, c.what, c.schema, c.code)
		}
	}
}

// protoConsts reads the string constants of the package's source, by
// name prefix (Type, Cap, Field), sorted by value.
func protoConsts(t *testing.T) map[string][]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			spec, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			for i, id := range spec.Names {
				lit, ok := specValue(spec, i).(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING || !id.IsExported() {
					continue
				}
				v, _ := strconv.Unquote(lit.Value)
				for _, p := range []string{"Type", "Cap", "Field"} {
					if strings.HasPrefix(id.Name, p) {
						out[p] = append(out[p], v)
					}
				}
			}
			return true
		})
	}
	for k := range out {
		slices.Sort(out[k])
	}
	return out
}

func specValue(spec *ast.ValueSpec, i int) ast.Expr {
	if i < len(spec.Values) {
		return spec.Values[i]
	}
	return nil
}
