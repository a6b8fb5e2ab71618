package codexrollout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"time"
)

// envelope is one rollout line. The payload is decoded in the same pass:
// payload holds the members of every payload kind that the mapping uses.
type envelope struct {
	Timestamp *string  `json:"timestamp"`
	Type      string   `json:"type"`
	Payload   *payload `json:"payload"`
}

// payload is the union of the payload members the importer reads. Members
// whose JSON type differs between payload kinds are kept raw.
type payload struct {
	Type string `json:"type"`

	// response_item
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Summary   json.RawMessage `json:"summary"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	CallID    *string         `json:"call_id"`
	ID        json.RawMessage `json:"id"`
	Status    json.RawMessage `json:"status"`
	Action    json.RawMessage `json:"action"`
	Output    json.RawMessage `json:"output"`
	Phase     json.RawMessage `json:"phase"`

	// event_msg
	Reason   json.RawMessage `json:"reason"`
	TurnID   json.RawMessage `json:"turn_id"`
	Message  json.RawMessage `json:"message"`
	Duration json.RawMessage `json:"duration_ms"`
	ExecTime json.RawMessage `json:"duration"` // exec_command_end: {secs, nanos}
	Item     json.RawMessage `json:"item"`     // item_completed (Codex 0.169.0): the finished item

	// session_meta, turn_context
	Cwd           json.RawMessage `json:"cwd"`
	CLIVersion    json.RawMessage `json:"cli_version"`
	Originator    json.RawMessage `json:"originator"`
	ModelProvider json.RawMessage `json:"model_provider"`
	Source        json.RawMessage `json:"source"`
	Git           json.RawMessage `json:"git"`
	Model         json.RawMessage `json:"model"`
}

// line maps one rollout line.
func (s *state) line(n int, line []byte) error {
	s.b.SetLine(n) // records without a time of their own take the line's arrival stamp
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	s.n = n
	line = dropEncrypted(line)
	var env envelope
	if err := decodeEnvelope(line, &env, &s.members, &s.payload); err != nil {
		if stop, err := s.decodeProblem(n, err); stop {
			return err
		}
	}
	if err := s.stamp(n, env.Timestamp); err != nil {
		return err
	}
	if env.Type == "" {
		return s.b.Problem(n, `no "type" member`)
	}
	p := env.Payload
	if p == nil {
		return s.b.Problem(n, fmt.Sprintf("%s line without a payload", env.Type))
	}
	return s.dispatch(env.Type, p)
}

// decodeProblem reports a line that did not decode. stop is true when the
// line cannot be mapped (err is then what line returns); a member of an
// unexpected type is left out and the rest of the line is mapped.
func (s *state) decodeProblem(n int, err error) (stop bool, _ error) {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return true, s.b.Problem(n, jsonProblem(err))
	}
	if te.Field == "type" || te.Field == "payload" || te.Field == "payload.type" || te.Field == "timestamp" {
		return true, s.b.Problem(n, fmt.Sprintf("member %q: want a JSON %s, got %s", te.Field, jsonKind(te.Type), te.Value))
	}
	// Another member has an unexpected type: map what decoded.
	if err := s.b.Problem(n, fmt.Sprintf("member %q: want a JSON %s, got %s: left out", te.Field, jsonKind(te.Type), te.Value)); err != nil {
		return true, err
	}
	return false, nil
}

// stamp sets the line's time from its timestamp, when it has one that
// parses.
func (s *state) stamp(n int, timestamp *string) error {
	s.ts, s.ok = time.Time{}, false
	if timestamp == nil {
		return nil
	}
	ts, err := time.Parse(time.RFC3339Nano, *timestamp)
	if err != nil {
		return s.b.Problem(n, fmt.Sprintf("bad timestamp %q: synthetic time used", *timestamp))
	}
	s.ts, s.ok = ts, true
	return nil
}

// dispatch maps a line's payload by the line's type.
func (s *state) dispatch(typ string, p *payload) error {
	switch typ {
	case "session_meta":
		s.sessionMeta(p)
		return nil
	case "turn_context":
		s.turnContext(p)
		return nil
	case "compacted":
		s.ignore("compacted")
		s.inResp = false
		return nil
	case "world_state", "token_usage_record":
		// Codex 0.169.0: the thread's settings and context (world_state)
		// and per-request token counts, nothing the timeline shows.
		s.ignore(typ)
		return nil
	case "response_item":
		return s.responseItem(p)
	case "event_msg":
		return s.eventMsg(p)
	}
	return s.b.Problem(s.n, fmt.Sprintf("unknown line type %q", typ))
}

// encryptedKey starts an encrypted_content member.
var encryptedKey = []byte(`"encrypted_content":"`)

// dropEncrypted empties the value of an "encrypted_content" member in
// place. Encrypted reasoning is half the bytes of a typical rollout and the
// importer never reads it, so it is cut before decoding. Outside a string
// the key can only be a member name (inside one its quotes would be
// escaped), and the value is cut only when it is plain (no escapes, no
// control characters), so the line stays valid JSON exactly when it was.
func dropEncrypted(line []byte) []byte {
	i := bytes.Index(line, encryptedKey)
	if i < 0 {
		return line
	}
	start := i + len(encryptedKey)
	j := bytes.IndexByte(line[start:], '"')
	if j <= 0 {
		return line
	}
	for _, c := range line[start : start+j] {
		if c < 0x20 || c == '\\' {
			return line
		}
	}
	n := copy(line[start:], line[start+j:])
	return line[:start+n]
}

// jsonKind names the JSON type a Go type decodes from.
func jsonKind(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return "value"
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number"
	}
	return t.String()
}

// jsonProblem words a decoding error.
func jsonProblem(err error) string {
	if err.Error() == "unexpected end of JSON input" {
		return "truncated JSON (unexpected end of input)"
	}
	return "not JSON: " + err.Error()
}
