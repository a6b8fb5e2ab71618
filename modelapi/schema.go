package modelapi

import (
	"encoding/json"
	"strings"
)

// sideText is the plain answer to a side request.
const sideText = "toolsim"

// SampleJSON returns a small JSON value valid for the JSON schema (or
// Gemini OpenAPI schema, whose type names are upper case): the answer
// the server gives a side request that asks for JSON. An object holds its
// required properties (all of them when none is marked required); a
// string is "toolsim" (an enum's or const's first value when it has
// one); an integer is 1 and a number 0 (within the schema's minimum and
// maximum); a boolean false; an array holds
// minItems samples; anyOf/oneOf/allOf take their first schema; an empty
// or unreadable schema gives {}. For Gemini CLI's next-speaker check
// this is {"next_speaker":"user","reasoning":"toolsim"}.
func SampleJSON(schema json.RawMessage) json.RawMessage {
	var s any
	if json.Unmarshal(schema, &s) != nil {
		return json.RawMessage(`{}`)
	}
	b, err := marshal(sample(s, 0))
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return b
}

// sample is a value valid for schema node s.
func sample(s any, depth int) any {
	m, ok := s.(map[string]any)
	if !ok || depth > 10 {
		return map[string]any{}
	}
	if c, ok := m["const"]; ok {
		return c
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if alts, ok := m[k].([]any); ok && len(alts) > 0 {
			return sample(alts[0], depth+1)
		}
	}
	switch schemaType(m) {
	case "object":
		return sampleObject(m, depth)
	case "array":
		n, _ := m["minItems"].(float64)
		out := []any{}
		for i := 0; i < int(n) && i < 3; i++ {
			out = append(out, sample(m["items"], depth+1))
		}
		return out
	case "string":
		return sampleString(m)
	case "integer", "number":
		return sampleNumber(m)
	case "boolean":
		return false
	case "null":
		return nil
	}
	if len(m) == 0 {
		return map[string]any{}
	}
	return sideText
}

// schemaType is a schema's type, lower case: its "type" (the first that
// is not "null" of a list), else object when it has properties, array
// when it has items.
func schemaType(m map[string]any) string {
	switch t := m["type"].(type) {
	case string:
		return strings.ToLower(t)
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok && strings.ToLower(s) != "null" {
				return strings.ToLower(s)
			}
		}
		return "null"
	}
	if _, ok := m["properties"]; ok {
		return "object"
	}
	if _, ok := m["items"]; ok {
		return "array"
	}
	return ""
}

func sampleObject(m map[string]any, depth int) any {
	props, _ := m["properties"].(map[string]any)
	out := map[string]any{}
	req, hasReq := m["required"].([]any)
	if !hasReq {
		for k, p := range props {
			out[k] = sample(p, depth+1)
		}
		return out
	}
	for _, r := range req {
		if k, ok := r.(string); ok {
			p, found := props[k]
			if !found {
				p = map[string]any{"type": "string"}
			}
			out[k] = sample(p, depth+1)
		}
	}
	return out
}

func sampleString(m map[string]any) string {
	s := sideText
	if n, ok := m["minLength"].(float64); ok && int(n) > len(s) {
		s += strings.Repeat("x", int(n)-len(s))
	}
	if n, ok := m["maxLength"].(float64); ok && int(n) < len(s) {
		s = s[:int(n)]
	}
	return s
}

// sampleNumber is 1 for an integer (scores and counts: Gemini CLI's
// routing classifier rejects a complexity_score of 0) and 0 for a number
// (ratios and confidences: its loop detector reads 0 as "no loop"), moved
// into [minimum, maximum] when the schema bounds it.
func sampleNumber(m map[string]any) float64 {
	v := 0.0
	if schemaType(m) == "integer" {
		v = 1
	}
	if min, ok := m["minimum"].(float64); ok && v < min {
		v = min
	}
	if max, ok := m["maximum"].(float64); ok && v > max {
		v = max
	}
	return v
}
