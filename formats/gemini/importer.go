package gemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/importer"
)

// Importer imports the gemini-cli format.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return "gemini-cli" }

// Source is the header's source member.
const Source = "gemini-cli"

// Detect implements importer.Importer: the head is the start of one JSON
// object whose top-level members include a string "sessionId" followed, at
// some point, by a "messages" array. The members are read with a streaming
// decoder, so a document longer than the head is recognised from its
// start; a JSON Lines file whose first object ends without "messages" is
// not this format.
func (Importer) Detect(head []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	session := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		key, _ := tok.(string)
		switch key {
		case "messages":
			tok, err := dec.Token()
			return err == nil && tok == json.Delim('[') && session
		case "sessionId":
			var id string
			if dec.Decode(&id) != nil {
				return false
			}
			session = true
		default:
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return false
			}
		}
	}
	return false
}

// Import implements importer.Importer.
func (Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	s := &state{
		b:       importer.NewBuilder(Source, opts),
		data:    data,
		meta:    map[string]any{"format": "gemini-cli"},
		ignored: map[string]int{},
	}
	if err := s.document(); err != nil && err != errStop {
		return nil, err
	}
	if s.cancelled {
		s.closeTurn() // the cancel ended the turn
	}
	if len(s.ignored) > 0 {
		s.meta["ignored"] = s.ignored
	}
	s.b.SetMeta(s.meta)
	return s.b.Result(), nil
}

type state struct {
	b       *importer.Builder
	data    []byte
	meta    map[string]any
	ignored map[string]int

	asstOpen  bool
	cancelled bool // the open turn was cancelled
	genID     int
}

// lineAt is the 1-based line of a byte offset of the document, moved past
// the white space and commas that precede a value.
func (s *state) lineAt(off int64) int {
	o := int(min(max(off, 0), int64(len(s.data))))
	for o < len(s.data) && strings.IndexByte(" \t\r\n,", s.data[o]) >= 0 {
		o++
	}
	return bytes.Count(s.data[:o], []byte{'\n'}) + 1
}

// errStop ends the walk of a document that cannot be read further.
var errStop = errors.New("stop")

// syntaxProblem reports a decoding error at its line; the document cannot
// be read past it, so it returns errStop (or the strict error).
func (s *state) syntaxProblem(dec *json.Decoder, err error) error {
	if perr := s.syntaxProblemAt(dec, err); perr != nil {
		return perr
	}
	return errStop
}

// stop reports a problem after which the document cannot be walked.
func (s *state) stop(line int, reason string) error {
	if err := s.b.Problem(line, reason); err != nil {
		return err
	}
	return errStop
}

func (s *state) syntaxProblemAt(dec *json.Decoder, err error) error {
	off := dec.InputOffset()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	reason := "malformed JSON: " + err.Error()
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		reason = "truncated JSON document: the messages up to here were imported"
		off = int64(len(bytes.TrimRight(s.data, " \t\r\n")))
		if off > 0 {
			off-- // the last line, not the one after it
		}
		return s.b.Problem(bytes.Count(s.data[:off], []byte{'\n'})+1, reason)
	}
	return s.b.Problem(s.lineAt(off), reason)
}

// document walks the top-level object: metadata members go to the header,
// messages are mapped one at a time, so that a document torn in the middle
// still gives its first messages.
func (s *state) document() error {
	dec := json.NewDecoder(bytes.NewReader(s.data))
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return s.b.Problem(0, "empty document")
		}
		return s.syntaxProblem(dec, err)
	}
	if tok != json.Delim('{') {
		return s.stop(1, "not a Gemini CLI recording: the document is not a JSON object")
	}
	sawMessages := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return s.syntaxProblem(dec, err)
		}
		key, _ := tok.(string)
		if key == "messages" {
			sawMessages = true
			if err := s.messages(dec); err != nil {
				return err
			}
			continue
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return s.syntaxProblem(dec, err)
		}
		switch key {
		case "sessionId":
			s.meta["session_id"] = v
		case "projectHash":
			s.meta["project_hash"] = v
		case "startTime":
			s.meta["start_time"] = v
		case "lastUpdated":
			s.meta["last_updated"] = v
		case "summary", "kind", "directories":
			s.meta[key] = v
		default:
			s.meta["extra_"+key] = v
		}
	}
	if _, err := dec.Token(); err != nil {
		return s.syntaxProblem(dec, err)
	}
	if !sawMessages {
		return s.b.Problem(1, `no "messages" array`)
	}
	return nil
}

func (s *state) messages(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return s.syntaxProblem(dec, err)
	}
	if tok != json.Delim('[') {
		return s.stop(s.lineAt(dec.InputOffset()), `"messages" is not an array`)
	}
	for dec.More() {
		line := s.lineAt(dec.InputOffset())
		var m message
		if err := dec.Decode(&m); err != nil {
			var te *json.UnmarshalTypeError
			if !errors.As(err, &te) {
				return s.syntaxProblem(dec, err)
			}
			if te.Field == "" {
				if err := s.b.Problem(line, "message is not a JSON object: got "+te.Value); err != nil {
					return err
				}
				continue
			}
			// One member has an unexpected type: map what decoded.
			if err := s.b.Problem(line, fmt.Sprintf("message member %q: unexpected JSON %s: left out", te.Field, te.Value)); err != nil {
				return err
			}
		}
		if err := s.message(line, &m); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return s.syntaxProblem(dec, err)
	}
	return nil
}

// message is one record of messages[].
type message struct {
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	ToolCalls []toolCall      `json:"toolCalls"`
	Thoughts  []struct {
		Subject     string `json:"subject"`
		Description string `json:"description"`
		Timestamp   string `json:"timestamp"`
	} `json:"thoughts"`
	Model  string          `json:"model"`
	Tokens json.RawMessage `json:"tokens"`
}

// toolCall is one record of toolCalls[]: a call stored with its result.
type toolCall struct {
	ID            *string         `json:"id"`
	Name          string          `json:"name"`
	Args          json.RawMessage `json:"args"`
	Result        json.RawMessage `json:"result"`
	Status        string          `json:"status"`
	Timestamp     string          `json:"timestamp"`
	ResultDisplay json.RawMessage `json:"resultDisplay"`
	DisplayName   string          `json:"displayName"`
}

func (s *state) clock(ts string, line int) (time.Time, bool, error) {
	if ts == "" {
		return time.Time{}, false, nil
	}
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return time.Time{}, false, s.b.Problem(line, fmt.Sprintf("bad timestamp %q: synthetic time used", ts))
	}
	return t, true, nil
}

func (s *state) emitAt(ts time.Time, ok bool, ev event.Event) {
	s.b.Emit(s.b.Clock(ts, ok), ev)
}

func (s *state) message(line int, m *message) error {
	ts, ok, err := s.clock(m.Timestamp, line)
	if err != nil {
		return err
	}
	text := contentText(m.Content)
	switch m.Type {
	case "user":
		s.closeTurn()
		s.emitAt(ts, ok, event.Event{Kind: event.KindTurnStart, Role: event.RoleUser})
		s.emitAt(ts, ok, event.Event{Kind: event.KindUser, Text: text, Extra: []event.Field{field("message_id", m.ID)}})
		s.emitAt(ts, ok, event.Event{Kind: event.KindTurnEnd})
		return nil
	case "gemini":
		return s.gemini(line, ts, ok, m, text)
	case "error":
		s.openTurn(ts, ok)
		msg := text
		if msg == "" {
			msg = "error"
		}
		s.emitAt(ts, ok, event.Event{Kind: event.KindError, Message: msg, Extra: []event.Field{field("message_id", m.ID)}})
		return nil
	case "info", "warning":
		s.ignore(m.Type)
		return nil
	case "":
		return s.b.Problem(line, `message without a "type"`)
	}
	return s.b.Problem(line, fmt.Sprintf("unknown message type %q", m.Type))
}

func (s *state) ignore(what string) { s.ignored[what]++ }

func (s *state) openTurn(ts time.Time, ok bool) {
	if !s.asstOpen {
		s.emitAt(ts, ok, event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
		s.asstOpen, s.cancelled = true, false
	}
}

func (s *state) closeTurn() {
	if s.asstOpen {
		s.b.Emit(s.b.Now(), event.Event{Kind: event.KindTurnEnd})
		s.asstOpen, s.cancelled = false, false
	}
}

// gemini maps a model message: its thoughts, its text, then its calls.
func (s *state) gemini(line int, ts time.Time, ok bool, m *message, text string) error {
	for i, th := range m.Thoughts {
		tts, tok, err := s.clock(th.Timestamp, line)
		if err != nil {
			return err
		}
		if !tok {
			tts, tok = ts, ok
		}
		t := th.Description
		if th.Subject != "" {
			t = "**" + th.Subject + "**\n" + th.Description
		}
		if i > 0 {
			t = "\n\n" + t
		}
		s.openTurn(tts, tok)
		s.emitAt(tts, tok, event.Event{Kind: event.KindThinking, Text: t})
	}
	if text != "" {
		s.openTurn(ts, ok)
		var extra []event.Field
		if m.Model != "" {
			extra = append(extra, field("model", m.Model))
		}
		s.emitAt(ts, ok, event.Event{Kind: event.KindText, Text: text, Extra: extra})
	}
	if len(m.ToolCalls) == 0 {
		if text == "" && len(m.Thoughts) == 0 {
			s.ignore("empty_gemini_message")
		}
		return nil
	}
	s.openTurn(ts, ok)
	ids := make([]string, len(m.ToolCalls))
	for i := range m.ToolCalls {
		tc := &m.ToolCalls[i]
		extra := []event.Field{}
		id := str(tc.ID)
		if tc.ID == nil || id == "" {
			s.genID++
			id = fmt.Sprintf("gemini-call-%d", s.genID)
			extra = append(extra, field("generated_id", true))
		}
		ids[i] = id
		if tc.Status != "" {
			extra = append(extra, field("status", tc.Status))
		}
		if tc.DisplayName != "" && tc.DisplayName != tc.Name {
			extra = append(extra, field("display_name", tc.DisplayName))
		}
		args := tc.Args
		if !isObject(args) {
			if len(args) > 0 && string(args) != "null" {
				extra = append(extra, event.Field{Key: "raw_args", Value: compact(args)})
			}
			args = json.RawMessage(`{}`)
		}
		name := tc.Name
		if name == "" {
			name = "unknown"
			if err := s.b.Problem(line, fmt.Sprintf("tool call %s without a name", id)); err != nil {
				return err
			}
		}
		s.emitAt(ts, ok, event.Event{Kind: event.KindToolStart, ID: id, Name: name, Args: compact(args),
			Batch: m.ID, Extra: extra})
	}
	var cancelled []json.RawMessage
	reason := ""
	cancelTS, cancelOK := time.Time{}, false // when the last cancelled call was resolved
	for i := range m.ToolCalls {
		tc := &m.ToolCalls[i]
		cts, cok, err := s.clock(tc.Timestamp, line)
		if err != nil {
			return err
		}
		if !cok {
			cts, cok = ts, ok
		}
		res := readResult(tc)
		switch tc.Status {
		case "success":
			s.emitAt(cts, cok, event.Event{Kind: event.KindToolDone, ID: ids[i], OK: true, Output: res.output,
				Extra: res.extra})
		case "error":
			msg := res.err
			if msg == "" {
				msg = "error"
			}
			s.emitAt(cts, cok, event.Event{Kind: event.KindToolDone, ID: ids[i], OK: false, Error: msg,
				Output: res.output, Extra: res.extra})
		case "cancelled":
			// Interrupted, not failed: the cancel below resolves it.
			entry := map[string]json.RawMessage{"id": mustJSON(ids[i])}
			if len(tc.Result) > 0 && string(tc.Result) != "null" {
				entry["result"] = compact(tc.Result)
			}
			cancelled = append(cancelled, mustJSON(entry))
			if reason == "" {
				reason = res.err
			}
			if cok && (!cancelOK || cts.After(cancelTS)) {
				cancelTS, cancelOK = cts, true
			}
		case "validating", "scheduled", "executing":
			// Recorded before it finished: still running.
		case "awaiting_approval":
			s.emitAt(cts, cok, event.Event{Kind: event.KindPermission, ID: ids[i], State: event.PermissionAsked})
		default:
			if err := s.b.Problem(line, fmt.Sprintf("tool call %s: unknown status %q: left running", ids[i], tc.Status)); err != nil {
				return err
			}
		}
	}
	if len(cancelled) > 0 {
		if reason == "" {
			reason = "cancelled"
		}
		t := s.b.Now()
		if cancelOK {
			t = max(t, s.b.Clock(cancelTS, true))
		}
		s.b.Emit(t, event.Event{Kind: event.KindCancel, Reason: reason,
			Extra: []event.Field{{Key: "cancelled_calls", Value: mustJSON(cancelled)}}})
		s.cancelled = true
	}
	return nil
}

// result is what a call's stored result says.
type result struct {
	output string
	err    string
	extra  []event.Field
}

// readResult reads result[].functionResponse.response ({output} or
// {error}) and resultDisplay.
func readResult(tc *toolCall) result {
	var res result
	var parts []struct {
		FunctionResponse *struct {
			Response json.RawMessage `json:"response"`
		} `json:"functionResponse"`
		Text *string `json:"text"`
	}
	var other int
	if len(tc.Result) > 0 && json.Unmarshal(tc.Result, &parts) == nil {
		var outs []string
		for _, p := range parts {
			switch {
			case p.FunctionResponse != nil:
				var r struct {
					Output json.RawMessage `json:"output"`
					Error  json.RawMessage `json:"error"`
				}
				if json.Unmarshal(p.FunctionResponse.Response, &r) == nil {
					if s := textOf(r.Output); s != "" {
						outs = append(outs, s)
					}
					if s := textOf(r.Error); s != "" && res.err == "" {
						res.err = s
					}
					if len(r.Output) == 0 && len(r.Error) == 0 && len(p.FunctionResponse.Response) > 0 {
						outs = append(outs, string(compact(p.FunctionResponse.Response)))
					}
				}
			case p.Text != nil:
				outs = append(outs, *p.Text)
			default:
				other++ // inline data (images, files): kept in Extra below
			}
		}
		res.output = strings.Join(outs, "\n")
	}
	display := textOf(tc.ResultDisplay)
	if res.err == "" && tc.Status == "error" {
		res.err = display
	}
	if res.output == "" && tc.Status == "success" {
		res.output = display
	}
	if other > 0 {
		res.extra = append(res.extra, event.Field{Key: "result", Value: compact(tc.Result)})
	}
	if len(tc.ResultDisplay) > 0 && string(tc.ResultDisplay) != "null" && display == "" {
		res.extra = append(res.extra, event.Field{Key: "result_display", Value: compact(tc.ResultDisplay)})
	}
	return res
}

// textOf is a JSON string's value, or the compact JSON of anything else
// but null.
func textOf(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if raw[0] == '{' || raw[0] == '[' {
		return ""
	}
	return string(raw)
}

// contentText is a message's text: a string, or the text parts of a part
// list.
func contentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text *string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var texts []string
		for _, p := range parts {
			if p.Text != nil {
				texts = append(texts, *p.Text)
			}
		}
		return strings.Join(texts, "")
	}
	var one struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &one)
	return one.Text
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

func compact(b []byte) json.RawMessage {
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

func field(key string, v any) event.Field { return event.Field{Key: key, Value: mustJSON(v)} }

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
