package codextui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/importer"
)

// Importer imports the codex-tui-session-log format.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return "codex-tui-session-log" }

// Source is the header's source member for traces from Codex.
const Source = "codex"

// record is one line of the log: the members every line has, the
// session_start context, and the payload of codex_event and op lines.
type record struct {
	TS      *string  `json:"ts"`
	Dir     string   `json:"dir"`
	Kind    string   `json:"kind"`
	Payload *payload `json:"payload"`
	Variant string   `json:"variant"`

	Cwd      string `json:"cwd"`
	Model    string `json:"model"`
	Provider string `json:"model_provider_id"`
}

// payload is a codex_event's payload ({id, msg}) or an op's, decoded with
// the line in one pass.
type payload struct {
	Msg *msg `json:"msg"`

	// op
	Type     string   `json:"type"`
	ID       string   `json:"id"`
	Decision string   `json:"decision"`
	Items    []opItem `json:"items"`
}

// opItem is one input item of a user_input op.
type opItem struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// dirs are the values of "dir".
var dirs = map[string]bool{"meta": true, "to_tui": true, "from_tui": true}

// Detect implements importer.Importer: the first non-blank line is a JSON
// object with a string "ts", a "dir" of meta, to_tui or from_tui, and a
// string "kind". Members may come in any order (Codex writes them
// sorted). A first line longer than the head is judged by its start.
func (Importer) Detect(head []byte) bool {
	for len(head) > 0 {
		line, rest, complete := bytes.Cut(head, []byte{'\n'})
		head = rest
		if line = bytes.TrimSpace(line); len(line) == 0 {
			continue
		}
		if !complete {
			return bytes.HasPrefix(line, []byte(`{"cwd":`)) && bytes.Contains(line, []byte(`"dir":"meta"`))
		}
		var r struct {
			TS   *string `json:"ts"`
			Dir  string  `json:"dir"`
			Kind *string `json:"kind"`
		}
		return line[0] == '{' && json.Unmarshal(line, &r) == nil && r.TS != nil && dirs[r.Dir] && r.Kind != nil
	}
	return false
}

// Import implements importer.Importer.
func (Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	s := newState(importer.NewBuilder(Source, opts))
	err := importer.EachLine(r, s.line, func(n int) error {
		return s.b.Problem(n, fmt.Sprintf("line longer than %d bytes: skipped", importer.MaxLine))
	})
	if err != nil {
		return nil, err
	}
	// A turn the log never ended stays open: its tools are still live.
	if len(s.ignored) > 0 {
		s.meta["ignored"] = s.ignored
	}
	s.b.SetMeta(s.meta)
	s.b.NoteClock()
	return s.b.Result(), nil
}

// line maps one line of the log.
func (s *state) line(n int, raw []byte) error {
	s.n = n
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	var r record
	if raw[0] != '{' || json.Unmarshal(raw, &r) != nil {
		var head struct{ Kind string }
		if raw[0] == '{' && json.Unmarshal(raw, &head) == nil {
			return s.b.Problem(n, fmt.Sprintf("%s record with a member of an unexpected type: skipped", head.Kind))
		}
		return s.b.Problem(n, "not a JSON object: skipped")
	}
	if r.Dir == "" || r.Kind == "" {
		return s.b.Problem(n, `a record without "dir" or "kind": skipped`)
	}
	s.ts, s.ok = time.Time{}, false
	if r.TS != nil {
		ts, err := time.Parse(time.RFC3339Nano, *r.TS)
		if err != nil {
			if err := s.b.Problem(n, fmt.Sprintf("bad ts %q: synthetic time used", *r.TS)); err != nil {
				return err
			}
		} else {
			s.ts, s.ok = ts, true
		}
	}
	switch {
	case r.Dir == "to_tui" && r.Kind == "codex_event":
		return s.codexEvent(r.Payload)
	case r.Dir == "from_tui" && r.Kind == "op":
		return s.op(r.Payload)
	case r.Dir == "meta" && r.Kind == "session_start":
		s.sessionStart(&r)
	default:
		s.ignore(r.Kind)
	}
	return nil
}

// sessionStart keeps the session's context in the header's meta.
func (s *state) sessionStart(r *record) {
	for k, v := range map[string]string{"cwd": r.Cwd, "model": r.Model, "model_provider": r.Provider} {
		if v != "" {
			s.meta[k] = v
		}
	}
}

// emit appends an event at the line's time.
func (s *state) emit(ev event.Event) {
	s.b.Emit(s.b.Clock(s.ts, s.ok), ev)
}
