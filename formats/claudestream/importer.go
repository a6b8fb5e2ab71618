package claudestream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/internal/claudecode"
	"github.com/toolsim/toolsim/importer"
)

// Importer imports the claude-stream-json format.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return "claude-stream-json" }

// detectLines is how many lines of the head Detect looks at.
const detectLines = 64

// Detect implements importer.Importer. It accepts a head where some line
// is a stream-json message — "type" system, assistant, user or result with
// "session_id", and for assistant and user lines "parent_tool_use_id" too
// — and no line has the transcript's camelCase members ("parentUuid",
// "sessionId"). A line cut off at the end of the head is judged on the
// members read before it ends.
func (Importer) Detect(head []byte) bool {
	found := false
	for n := 0; len(head) > 0 && n < detectLines; n++ {
		var line []byte
		line, head, _ = bytes.Cut(head, []byte{'\n'})
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		keys, typ := topKeys(line)
		if keys["parentUuid"] || keys["sessionId"] {
			return false
		}
		switch typ {
		case "system", "result":
			found = found || keys["session_id"]
		case "assistant", "user":
			found = found || keys["session_id"] && keys["parent_tool_use_id"]
		}
	}
	return found
}

// topKeys lists the top-level member names of a JSON object, and its
// "type" when it is a string, reading as far as the line is valid.
func topKeys(line []byte) (map[string]bool, string) {
	keys := map[string]bool{}
	typ := ""
	dec := json.NewDecoder(bytes.NewReader(line))
	depth, key := 0, true
	for {
		tok, err := dec.Token()
		if err != nil {
			return keys, typ
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				depth++
				if depth == 1 {
					key = true
				}
			case '}', ']':
				depth--
				if depth == 1 {
					key = true
				}
			}
			continue
		case string:
			if depth == 1 && key {
				keys[v] = true
				key = false
				if v == "type" {
					if tok, err := dec.Token(); err == nil {
						if s, ok := tok.(string); ok {
							typ = s
						} else if d, ok := tok.(json.Delim); ok && (d == '{' || d == '[') {
							depth++
							continue
						}
					}
					key = true
				}
				continue
			}
		}
		if depth == 1 {
			key = true
		}
	}
}

// ignoredTypes are line types that carry nothing for the timeline.
var ignoredTypes = map[string]bool{
	"stream_event": true, // partial-message deltas (--include-partial-messages); the whole message follows
}

// Import implements importer.Importer.
func (im Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	b := importer.NewBuilder(im.Name(), opts)
	s := &stream{b: b, meta: map[string]any{}, ignored: map[string]int{}}
	s.c = newConv(b, s.ignored)
	if err := importer.EachLine(r, s.line, s.tooLong); err != nil {
		return nil, err
	}
	if err := s.reportBad(true); err != nil {
		return nil, err
	}
	s.c.finish()
	if len(s.ignored) > 0 {
		s.meta["ignored"] = s.ignored
	}
	if len(s.results) > 0 {
		s.meta["results"] = s.results
	}
	b.SetMeta(s.meta)
	b.NoteClock()
	return b.Result(), nil
}

// stream maps lines as they come: stream-json is already in order.
type stream struct {
	b       *importer.Builder
	c       *conv
	meta    map[string]any
	ignored map[string]int
	results []map[string]any
	bad     *badLine
}

type badLine struct {
	n   int
	err error
}

func (s *stream) line(n int, raw []byte) error {
	s.b.SetLine(n) // records without a time of their own take the line's arrival stamp
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	if err := s.reportBad(false); err != nil {
		return err
	}
	l, partial, err := decode(raw)
	if err != nil {
		s.bad = &badLine{n: n, err: err}
		return nil
	}
	if partial != "" {
		if err := s.b.Problem(n, partial); err != nil {
			return err
		}
	}
	switch {
	case l.Type == "system":
		s.system(l)
	case l.Type == "user" || l.Type == "assistant":
		return s.message(n, l)
	case l.Type == "result":
		s.result(l)
	case ignoredTypes[l.Type]:
		s.ignored[l.Type]++
	case l.Type == "":
		return s.b.Problem(n, `line without a "type": skipped`)
	default:
		return s.b.Problem(n, fmt.Sprintf("unknown message type %q: skipped", l.Type))
	}
	return nil
}

// clock is the synthetic clock: stream-json carries no timestamps.
func (s *stream) clock() int64 { return s.b.Clock(time.Time{}, false) }

func (s *stream) system(l *line) {
	if l.Subtype == "compact_boundary" {
		// /compact: a compaction marker between turns (stream-json does
		// not carry the summary itself).
		t := s.clock()
		s.c.CloseTurn(t)
		s.c.Put(t, event.Event{Kind: event.KindCompact, Extra: claudecode.UUIDField(l.UUID)})
		return
	}
	if l.Subtype != "init" {
		s.ignored["system:"+l.Subtype]++
		return
	}
	set := func(k, v string) {
		if v != "" {
			s.meta[k] = v
		}
	}
	set("session_id", l.SessionID)
	set("model", l.Model)
	set("cwd", l.CWD)
	set("permission_mode", l.PermissionMode)
	set("claude_code_version", l.ClaudeCodeVersion)
	if len(l.Tools) > 0 {
		s.meta["tools"] = l.Tools
	}
}

func (s *stream) message(n int, l *line) error {
	rec, issues := toRecord(n, l)
	for _, is := range issues {
		if err := s.b.Problem(n, is); err != nil {
			return err
		}
	}
	it := item{rec: rec}
	if p := l.ParentToolUseID; p != nil && *p != "" {
		it.side, it.parent = true, *p
	}
	t := s.clock()
	if l.Type == "user" {
		return s.c.user(t, rec, it)
	}
	return s.c.assistant(t, rec, it)
}

func (s *stream) result(l *line) {
	rest := s.c.runEnd(s.clock(), l)
	res := map[string]any{"subtype": l.Subtype}
	if l.IsError {
		res["is_error"] = true
	}
	if l.NumTurns != nil {
		res["num_turns"] = *l.NumTurns
	}
	if l.DurationMS != nil {
		res["duration_ms"] = *l.DurationMS
	}
	if l.TotalCostUSD != nil {
		res["total_cost_usd"] = *l.TotalCostUSD
	}
	if len(rest) > 0 {
		res["permission_denials"] = rest
	}
	if l.Subtype != "success" && l.Result != "" {
		res["result"] = l.Result
	}
	s.results = append(s.results, res)
}

// reportBad reports the pending malformed line; last says it was the last
// line of the file, where a cut-off message is a torn write.
func (s *stream) reportBad(last bool) error {
	if s.bad == nil {
		return nil
	}
	bad := s.bad
	s.bad = nil
	if last && strings.Contains(bad.err.Error(), "unexpected end of JSON input") {
		return s.b.Problem(bad.n, fmt.Sprintf("torn last line: the message is cut off (%v): skipped", bad.err))
	}
	return s.b.Problem(bad.n, fmt.Sprintf("malformed JSON: %v: skipped", bad.err))
}

func (s *stream) tooLong(n int) error {
	if err := s.reportBad(false); err != nil {
		return err
	}
	return s.b.Problem(n, fmt.Sprintf("line longer than %d bytes: skipped", importer.MaxLine))
}
