package codexexec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolsim/toolsim/event"
)

// errorMessage reads an item's error: {"message": …} or a string.
func errorMessage(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Message != "" {
		return e.Message
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(compact(raw))
}

// typeProblem words a member of the wrong JSON type; the member is left
// out and the rest of the line is mapped.
func typeProblem(te *json.UnmarshalTypeError) string {
	if te.Field == "" {
		return "not a JSON object: got " + te.Value
	}
	return fmt.Sprintf("member %q: unexpected JSON %s: left out", te.Field, te.Value)
}

// firstLine is the first line of s, trimmed.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

// compact compacts raw JSON; invalid JSON is kept as a JSON string.
func compact(b []byte) json.RawMessage {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return mustObject(string(b))
	}
	return buf.Bytes()
}

// mustObject marshals values that cannot fail: strings, numbers, booleans
// and maps of compacted raw JSON.
func mustObject(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return b
}

// field builds an Extra member holding v as JSON.
func field(key string, v any) event.Field { return event.Field{Key: key, Value: mustObject(v)} }

// str is *p, or "" for nil.
func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
