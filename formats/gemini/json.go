package gemini

import (
	"bytes"
	"encoding/json"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/internal/jsonscan"
)

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

// compact compacts raw JSON; invalid JSON is kept as a JSON string.
func compact(b []byte) json.RawMessage {
	if out, ok := jsonscan.Compact(b); ok {
		return out
	}
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return mustJSON(string(b))
	}
	return buf.Bytes()
}

// mustJSON marshals values that cannot fail: strings, booleans and maps or
// slices of compacted raw JSON.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`null`)
	}
	return b
}

// field builds an Extra member holding v as JSON.
func field(key string, v any) event.Field { return event.Field{Key: key, Value: mustJSON(v)} }

// str is *p, or "" for nil.
func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
