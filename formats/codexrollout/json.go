package codexrollout

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/internal/jsonscan"
)

// contentText joins the text of a list of content items
// ({"type":"input_text"|"output_text","text":…}) and counts the images.
func contentText(raw json.RawMessage) (string, int) {
	var parts []contentPart
	if len(raw) == 0 || !fastParts(raw, &parts) && json.Unmarshal(raw, &parts) != nil {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s, 0
		}
		return "", 0
	}
	var texts []string
	images := 0
	for _, p := range parts {
		switch {
		case p.Text != nil:
			texts = append(texts, *p.Text)
		case strings.Contains(p.Type, "image"):
			images++
		}
	}
	return strings.Join(texts, "\n"), images
}

// parseArguments turns a call's arguments into the args object: a JSON
// string holding an object is that object; anything else is kept as
// {"input": "…"}. An object given directly is used as is.
func parseArguments(raw json.RawMessage) (json.RawMessage, []event.Field) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage(`{}`), nil
	}
	if raw[0] == '{' {
		return compact(raw), nil
	}
	s, ok := jsonscan.String(raw) // raw is checked JSON: the string encoding/json decodes
	if !ok {
		return mustJSON(map[string]string{"input": string(raw)}), []event.Field{field("args_wrapped", true)}
	}
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") && (jsonscan.Check([]byte(t)) == nil || json.Valid([]byte(t))) {
		return compact([]byte(t)), nil
	}
	return mustJSON(map[string]string{"input": s}), []event.Field{field("args_wrapped", true)}
}

// compact compacts raw JSON; invalid JSON is kept as {"input": "…"}.
func compact(b []byte) json.RawMessage {
	if out, ok := jsonscan.Compact(b); ok {
		return out
	}
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return mustJSON(map[string]string{"input": string(b)})
	}
	return buf.Bytes()
}

// isObject reports whether raw is a valid JSON object.
func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{' && json.Valid(raw)
}

// mustJSON marshals values that cannot fail.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only called with strings, numbers, booleans and maps of strings
	}
	return b
}

// field builds an Extra member holding v as JSON.
func field(key string, v any) event.Field { return event.Field{Key: key, Value: mustJSON(v)} }

// rawString is the value of a raw JSON string, the compact JSON of any
// other value, or "" for none or null.
func rawString(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if v, ok := jsonscan.String(raw); ok { // raw is checked JSON
		return v
	}
	return string(compact(raw))
}

// str is *p, or "" for nil.
func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
