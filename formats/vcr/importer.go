package vcr

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/internal/sse"
	"github.com/toolsim/toolsim/importer"
)

// Name is the format's name.
const Name = "vcr-cassette"

// Importer imports the vcr-cassette format.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return Name }

var (
	interactionsLine = regexp.MustCompile(`(?m)^interactions:[ \t]*(\r?$|\[)`)
	requestKey       = regexp.MustCompile(`(?m)^[ \t-]*request:[ \t]*\r?$`)
)

// Detect implements importer.Importer: a YAML document with a top-level
// "interactions:" list whose entries hold a "request:" mapping (go-vcr's
// cassette shape; "version:" is not required).
func (Importer) Detect(head []byte) bool {
	return interactionsLine.Match(head) && requestKey.Match(head)
}

// cassette is a go-vcr cassette (versions 1 to 4 share these members).
type cassette struct {
	Version      int         `yaml:"version"`
	Interactions []yaml.Node `yaml:"interactions"`
}

type interaction struct {
	ID         *int   `yaml:"id"`
	RecordedAt string `yaml:"recorded_at"`
	Request    struct {
		Body   string `yaml:"body"`
		URL    string `yaml:"url"`
		Method string `yaml:"method"`
	} `yaml:"request"`
	Response struct {
		Body    string              `yaml:"body"`
		Headers map[string][]string `yaml:"headers"`
		Status  string              `yaml:"status"`
		Code    int                 `yaml:"code"`
	} `yaml:"response"`
}

// Import implements importer.Importer. It reads the cassette in two
// passes: the first parses every request and sorts the requests into
// conversations (see conversation.go); the second maps the main
// conversation's interactions in order (and, with Options.All, the side
// conversations after it).
func (Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	data, err := importer.ReadDocument(r)
	if err != nil {
		return nil, fmt.Errorf("%s: read: %w", Name, err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: not a YAML cassette: %w", Name, err)
	}
	var c cassette
	if err := root.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: not a go-vcr cassette: %w", Name, err)
	}
	b := importer.NewBuilder(Name, opts)
	s := &state{t: sse.NewTurn(b)}
	items := make([]*parsed, len(c.Interactions))
	for i := range c.Interactions {
		items[i] = parseInteraction(&c.Interactions[i], i)
	}
	main := assignConversations(items)
	if err := s.mapAll(items, main, opts.All); err != nil {
		return nil, err
	}
	if len(c.Interactions) == 0 {
		if err := b.Problem(0, "the cassette has no interactions"); err != nil {
			return nil, err
		}
	}
	meta := map[string]any{"interactions": len(c.Interactions)}
	if c.Version != 0 {
		meta["cassette_version"] = c.Version
	}
	if len(s.t.Ignored) > 0 {
		meta["ignored"] = s.t.Ignored
	}
	b.SetMeta(meta)
	return b.Result(), nil
}

// state carries what one interaction needs from the ones before.
type state struct {
	t    *sse.Turn
	conv *conversation // the conversation of the interaction being mapped
}

// mapAll maps the interactions of the main conversation (and those that
// are not model requests) in order; side conversations are counted as
// ignored, or with all appended after it, marked.
func (s *state) mapAll(items []*parsed, main int, all bool) error {
	var side []*parsed
	for _, p := range items {
		if p.conv != nil && p.conv.n != main {
			s.t.Ignore("side conversation request")
			side = append(side, p)
			continue
		}
		if err := s.interaction(p); err != nil {
			return err
		}
	}
	if !all || len(side) == 0 {
		return nil
	}
	s.t.Ignored["side conversation request"] -= len(side)
	if s.t.Ignored["side conversation request"] == 0 {
		delete(s.t.Ignored, "side conversation request")
	}
	slices.SortStableFunc(side, func(a, b *parsed) int { return cmp.Compare(a.conv.n, b.conv.n) })
	for _, p := range side {
		s.t.Mark = []event.Field{{Key: "side_conversation", Value: json.RawMessage(strconv.Itoa(p.conv.n))}}
		err := s.interaction(p)
		s.t.Mark = nil
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *state) interaction(p *parsed) error {
	t := s.t
	if p.decodeErr != nil {
		return t.B.Problem(p.line, fmt.Sprintf("interaction %d: %v: skipped", p.index, p.decodeErr))
	}
	in := &p.in
	ts, haveTS := in.timestamp()
	if haveTS {
		t.Clock = func() int64 { return t.B.Clock(ts, true) }
	} else {
		t.Clock = nil
	}
	s.conv = p.conv
	if err := s.request(p); err != nil {
		return err
	}
	return s.response(p)
}

// timestamp is the interaction's recording time: "recorded_at" (Ruby VCR
// style, RFC 3339 or RFC 1123), else the response's Date header (second
// resolution). go-vcr itself records none: then the synthetic clock runs.
func (in *interaction) timestamp() (time.Time, bool) {
	layouts := []string{time.RFC3339Nano, time.RFC1123, time.RFC1123Z, "2006-01-02 15:04:05.999999999 -0700 MST", "2006-01-02 15:04:05 -0700"}
	try := func(s string) (time.Time, bool) {
		s = strings.TrimSpace(s)
		for _, l := range layouts {
			if ts, err := time.Parse(l, s); err == nil {
				return ts, true
			}
		}
		return time.Time{}, false
	}
	if in.RecordedAt != "" {
		if ts, ok := try(in.RecordedAt); ok {
			return ts, true
		}
	}
	for k, v := range in.Response.Headers {
		if strings.EqualFold(k, "Date") && len(v) > 0 {
			return try(v[0])
		}
	}
	return time.Time{}, false
}

// findKey walks mapping keys from node.
func findKey(node *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		if node == nil || node.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for j := 0; j+1 < len(node.Content); j += 2 {
			if node.Content[j].Value == k {
				next = node.Content[j+1]
			}
		}
		node = next
	}
	return node
}

// bodyOffset is what to add to a line of a body to get its cassette line:
// a block scalar's first line follows its indicator; a flow scalar starts
// on its own line (later lines of a multi-line flow scalar are
// approximate).
func bodyOffset(n *yaml.Node, fallback int) int {
	switch {
	case n == nil:
		return fallback - 1
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return n.Line
	}
	return n.Line - 1
}

// request maps the messages a request adds to its conversation: the
// problems and ignored messages its parse found, then its new messages.
func (s *state) request(p *parsed) error {
	t := s.t
	for k, n := range p.ignored {
		t.Ignored[k] += n
	}
	for _, reason := range p.problems {
		if err := t.B.Problem(p.line, fmt.Sprintf("interaction %d: %s: skipped", p.index, reason)); err != nil {
			return err
		}
	}
	if p.req == nil {
		reason := "no messages, input or contents"
		if p.reqErr != nil {
			reason = p.reqErr.Error()
		}
		return t.B.Problem(p.line, fmt.Sprintf("interaction %d: the request is not a model request (%s): its messages are not mapped", p.index, reason))
	}
	if p.rewritten {
		if err := t.B.Problem(p.line, fmt.Sprintf("interaction %d: the request rewrites the conversation from message %d on (the previous one held %d): taking those after the last assistant message as new", p.index, p.lcp+1, p.prevLen)); err != nil {
			return err
		}
	}
	start := p.start
	if s.conv.produced { // the previous response, echoed back
		for start < len(p.req.msgs) && p.req.msgs[start].model {
			start++
		}
	}
	if s.conv.requests == 0 {
		start = 0 // a conversation's first request: all of it is new
	}
	s.conv.requests++
	return s.apply(p.req.msgs[start:], p.reqOffset)
}

// apply emits the new messages of a request: model messages (history the
// cassette did not record) as assistant turns, tool results as tool_done,
// user text as a user turn — or, next to tool results, as a user message
// inside the open assistant turn.
func (s *state) apply(msgs []message, offset int) error {
	results := false
	for _, m := range msgs {
		if len(m.results) > 0 {
			results = true
		}
	}
	for i := 0; i < len(msgs); i++ {
		m := &msgs[i]
		if m.model {
			end, err := s.modelRun(msgs, i, offset)
			if err != nil {
				return err
			}
			i = end - 1
			continue
		}
		s.userMessage(m, results)
	}
	return nil
}

// modelRun emits the run of model messages that starts at msgs[i] as one
// assistant turn, and returns the index after the run.
func (s *state) modelRun(msgs []message, i, offset int) (int, error) {
	t := s.t
	// One assistant turn from a run of model messages (a Responses
	// turn is several items: reasoning, function_call, ...).
	if err := t.Begin(0, ""); err != nil {
		return i, err
	}
	for ; i < len(msgs) && msgs[i].model; i++ {
		for _, txt := range msgs[i].texts {
			t.Text(txt)
		}
		for _, c := range msgs[i].calls {
			c.Line = offset + 1
			if err := t.ToolCall(c); err != nil {
				return i, err
			}
		}
	}
	t.End()
	return i, nil
}

// userMessage emits a message of the client's: its tool results as
// tool_done, then its text — as a user message inside the open assistant
// turn when the request carries tool results, else as a user turn.
func (s *state) userMessage(m *message, results bool) {
	t := s.t
	if m.system {
		return
	}
	for _, r := range m.results {
		ev := event.Event{Kind: event.KindToolDone, ID: r.id, OK: r.ok}
		if r.ok {
			ev.Output = r.output
		} else {
			ev.Error = r.output
		}
		t.Emit(ev)
	}
	text := strings.Join(m.texts, "\n")
	if text == "" {
		return
	}
	if s.t.Mark != nil && s.conv != nil {
		text = fmt.Sprintf("[side conversation %d] %s", s.conv.n, text)
	}
	if t.TurnOpen() && results {
		t.Emit(event.Event{Kind: event.KindUser, Text: text})
		return
	}
	t.CloseTurn()
	t.Emit(event.Event{Kind: event.KindTurnStart, Role: event.RoleUser})
	t.Emit(event.Event{Kind: event.KindUser, Text: text})
	t.Emit(event.Event{Kind: event.KindTurnEnd})
}

// response maps a response body: an SSE stream of one of the three
// dialects, a whole JSON response, or an HTTP error.
func (s *state) response(p *parsed) error {
	t := s.t
	in, line, offset := &p.in, p.line, p.respOffset
	index := p.index
	if s.conv != nil {
		s.conv.produced = false
	}
	body := []byte(in.Response.Body)
	code := in.Response.Code
	if code == 0 {
		code, _ = strconv.Atoi(strings.SplitN(strings.TrimSpace(in.Response.Status), " ", 2)[0])
	}
	if code >= 400 {
		msg := fmt.Sprintf("HTTP %d", code)
		if e := errorMessage(body); e != "" {
			msg += ": " + e
		}
		t.Emit(event.Event{Kind: event.KindError, Message: msg})
		return nil
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return t.B.Problem(line, fmt.Sprintf("interaction %d: empty response body", index))
	}
	if p.req != nil && p.req.gemini || isGeminiURL(in.Request.URL) {
		ok, err := s.geminiResponse(p, body, offset)
		if ok || err != nil {
			if err == nil {
				s.setProduced()
			}
			return err
		}
	}
	d := sse.DetectDialect(body)
	if d == sse.Unknown && bytes.HasPrefix(bytes.TrimSpace(body), []byte("event:")) {
		d = urlDialect(in.Request.URL) // e.g. a stream holding only an error event
	}
	if d != sse.Unknown {
		t.LineOffset = offset
		err := sse.DecodeBytes(body, d, t)
		t.LineOffset = 0
		s.setProduced()
		return err
	}
	ok, err := s.jsonResponse(body, offset+1)
	if err != nil {
		return err
	}
	if !ok {
		return t.B.Problem(offset+1, fmt.Sprintf("interaction %d: the response body is neither an SSE stream nor a model response: not mapped", index))
	}
	s.setProduced()
	return nil
}

// setProduced notes that the response was a model response: the next
// request of its conversation echoes it back.
func (s *state) setProduced() {
	if s.conv != nil {
		s.conv.produced = true
	}
}

// urlDialect names the dialect of an API endpoint, for streams whose
// events do not tell (one "error" event).
func urlDialect(url string) sse.Dialect {
	switch {
	case strings.Contains(url, "/messages"):
		return sse.Anthropic
	case strings.Contains(url, "/chat/completions"):
		return sse.OpenAIChat
	case strings.Contains(url, "/responses"):
		return sse.OpenAIResponses
	}
	return sse.Unknown
}
