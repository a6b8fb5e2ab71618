package sse_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/formats/internal/sse"
	"github.com/toolsim/toolsim/importer"
)

// describe renders the events of a parse compactly for comparison.
func describe(t *testing.T, in string) ([]string, sse.Stats) {
	t.Helper()
	var out []string
	st, err := sse.Parse(strings.NewReader(in), func(ev *sse.Event) error {
		s := fmt.Sprintf("L%d-%d type=%q data=%q", ev.Line, ev.EndLine, ev.Type, ev.Data)
		if !ev.HasData {
			s += " nodata"
		} else if ev.DataLine != ev.Line {
			s += fmt.Sprintf(" dataline=%d", ev.DataLine)
		}
		if ev.HasID {
			s += fmt.Sprintf(" id=%q", ev.ID)
		}
		if ev.Retry != "" {
			s += " retry=" + ev.Retry
		}
		for _, f := range ev.Unknown {
			s += fmt.Sprintf(" unknown(L%d %s=%q)", f.Line, f.Name, f.Value)
		}
		if ev.Unterminated {
			s += " unterminated"
		}
		if ev.Done() {
			s += " DONE"
		}
		out = append(out, s)
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out, st
}

func TestParse(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		want  []string
		stats sse.Stats
	}{
		{
			name:  "event and data",
			in:    "event: ping\ndata: {\"type\":\"ping\"}\n\n",
			want:  []string{`L1-2 type="ping" data="{\"type\":\"ping\"}" dataline=2`},
			stats: sse.Stats{Lines: 3, Events: 1},
		},
		{
			name:  "blank lines dispatch; several blanks are one separator",
			in:    "data: a\n\n\n\ndata: b\n\n",
			want:  []string{`L1-1 type="" data="a"`, `L5-5 type="" data="b"`},
			stats: sse.Stats{Lines: 6, Events: 2},
		},
		{
			name:  "multi-line data joined with newline",
			in:    "data: one\ndata: two\ndata:\ndata: four\n\n",
			want:  []string{`L1-4 type="" data="one\ntwo\n\nfour"`},
			stats: sse.Stats{Lines: 5, Events: 1},
		},
		{
			name:  "only one space after the colon is removed; none is fine",
			in:    "data:x\n\ndata:  y\n\n",
			want:  []string{`L1-1 type="" data="x"`, `L3-3 type="" data=" y"`},
			stats: sse.Stats{Lines: 4, Events: 2},
		},
		{
			name:  "comments are counted, not dispatched",
			in:    ": keep-alive\n\n: hi\ndata: x\n: between\ndata: y\n\n",
			want:  []string{`L4-6 type="" data="x\ny"`},
			stats: sse.Stats{Lines: 7, Events: 1, Comments: 3},
		},
		{
			name:  "CRLF and lone CR end lines",
			in:    "event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\r",
			want:  []string{`L1-2 type="a" data="1" dataline=2`, `L4-4 type="b" data="2"`},
			stats: sse.Stats{Lines: 4, Events: 2},
		},
		{
			name:  "BOM skipped",
			in:    "\xEF\xBB\xBFdata: x\n\n",
			want:  []string{`L1-1 type="" data="x"`},
			stats: sse.Stats{Lines: 2, Events: 1},
		},
		{
			name:  "id and retry",
			in:    "id: 7\nretry: 3000\ndata: x\n\nid\n\n",
			want:  []string{`L1-3 type="" data="x" dataline=3 id="7" retry=3000`, `L5-5 type="" data="" nodata id=""`},
			stats: sse.Stats{Lines: 6, Events: 2},
		},
		{
			name:  "a field without a colon has an empty value",
			in:    "data\n\n",
			want:  []string{`L1-1 type="" data=""`},
			stats: sse.Stats{Lines: 2, Events: 1},
		},
		{
			name:  "unknown fields kept with their lines",
			in:    "event: x\nfoo: bar\ndata: 1\n\n",
			want:  []string{`L1-3 type="x" data="1" dataline=3 unknown(L2 foo="bar")`},
			stats: sse.Stats{Lines: 4, Events: 1},
		},
		{
			name:  "last event type wins",
			in:    "event: a\nevent: b\ndata: 1\n\n",
			want:  []string{`L1-3 type="b" data="1" dataline=3`},
			stats: sse.Stats{Lines: 4, Events: 1},
		},
		{
			name:  "event without data is dispatched, marked",
			in:    "event: message_stop\n\n",
			want:  []string{`L1-1 type="message_stop" data="" nodata`},
			stats: sse.Stats{Lines: 2, Events: 1},
		},
		{
			name:  "unterminated last block is dispatched, marked",
			in:    "data: 1\n\ndata: {\"cut",
			want:  []string{`L1-1 type="" data="1"`, `L3-3 type="" data="{\"cut" unterminated`},
			stats: sse.Stats{Lines: 3, Events: 2},
		},
		{
			name:  "[DONE]",
			in:    "data: [DONE]\n\n",
			want:  []string{`L1-1 type="" data="[DONE]" DONE`},
			stats: sse.Stats{Lines: 2, Events: 1},
		},
		{
			name:  "empty input",
			in:    "",
			want:  nil,
			stats: sse.Stats{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, st := describe(t, tt.in)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if st != tt.stats {
				t.Errorf("stats = %+v, want %+v", st, tt.stats)
			}
		})
	}
}

func TestParseStopsOnCallbackError(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	_, err := sse.ParseBytes([]byte("data: 1\n\ndata: 2\n\n"), func(*sse.Event) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Fatalf("err = %v after %d events, want stop after 1", err, n)
	}
}

func TestDetectDialect(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want sse.Dialect
	}{
		{"anthropic by event field", "event: message_start\ndata: {\"type\":\"message_start\"}\n\n", sse.Anthropic},
		{"anthropic after ping and comment", ": hi\n\nevent: ping\ndata: {}\n\nevent: content_block_delta\ndata: {}\n\n", sse.Anthropic},
		{"anthropic by data type only", "data: {\"type\":\"message_start\",\"message\":{}}\n\n", sse.Anthropic},
		{"responses by event field", "event: response.created\ndata: {}\n\n", sse.OpenAIResponses},
		{"responses by data type", "data: {\"type\":\"response.output_text.delta\"}\n\n", sse.OpenAIResponses},
		{"chat by object", "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"choices\":[]}\n\n", sse.OpenAIChat},
		{"chat without object", "data: {\"id\":\"x\",\"choices\":[{\"delta\":{}}]}\n\n", sse.OpenAIChat},
		{"head cut mid-event still decides", "event: message_start\ndata: {\"type\":\"message_st", sse.Anthropic},
		{"error only: undecided", "event: error\ndata: {\"type\":\"error\"}\n\n", sse.Unknown},
		{"JSONL is not SSE", "{\"type\":\"message_start\"}\n", sse.Unknown},
		{"YAML is not SSE", "version: 2\ninteractions:\n- request:\n    body: 'data: {\"object\":\"chat.completion.chunk\"}'\n", sse.Unknown},
		{"log line with data: later is not SSE", "2024 INFO start\ndata: {\"type\":\"message_start\"}\n", sse.Unknown},
		{"empty", "", sse.Unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sse.DetectDialect([]byte(tt.in)); got != tt.want {
				t.Errorf("DetectDialect = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestObjectArgs(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{``, `{}`, true},
		{`  `, `{}`, true},
		{`{"a": 1, "b": [1, 2]}`, `{"a":1,"b":[1,2]}`, true},
		{`{"a": 1`, `{"raw":"{\"a\": 1"}`, false},
		{`[1,2]`, `{"raw":"[1,2]"}`, false},
		{`"str"`, `{"raw":"\"str\""}`, false},
		{`{"a":1} trailing`, `{"raw":"{\"a\":1} trailing"}`, false},
	}
	for _, tt := range tests {
		got, ok := sse.ObjectArgs([]byte(tt.in))
		if string(got) != tt.want || ok != tt.ok {
			t.Errorf("ObjectArgs(%q) = %s, %v; want %s, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestResultText(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"plain"`, "plain"},
		{`[{"type":"text","text":"a"},{"type":"text","text":"b"}]`, "a\nb"},
		{`[{"type":"image","source":{}},{"type":"text","text":"caption"}]`, "[image]\ncaption"},
		{`null`, ""},
		{``, ""},
		{`{"odd":1}`, `{"odd":1}`},
	}
	for _, tt := range tests {
		if got := sse.ResultText([]byte(tt.in)); got != tt.want {
			t.Errorf("ResultText(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestTurnEndRule checks the one rule every dialect shares: the end marker
// closes the turn only when no tool call awaits its result.
func TestTurnEndRule(t *testing.T) {
	for _, calls := range []int{0, 1} {
		b := importer.NewBuilder("test", importer.Options{})
		turn := sse.NewTurn(b)
		if err := turn.Begin(1, "r1"); err != nil {
			t.Fatal(err)
		}
		for i := range calls {
			if err := turn.ToolCall(sse.Call{Line: 2, ID: fmt.Sprint("c", i), Name: "f"}); err != nil {
				t.Fatal(err)
			}
		}
		turn.End()
		evs := b.Result().Events
		last := evs[len(evs)-1].Kind
		if wantEnd := calls == 0; (last == "turn_end") != wantEnd {
			t.Errorf("%d calls: last event %s, want turn_end %v", calls, last, wantEnd)
		}
		if turn.TurnOpen() != (calls > 0) {
			t.Errorf("%d calls: TurnOpen = %v", calls, turn.TurnOpen())
		}
	}
}

func TestDecodeLineOffsetAndStrict(t *testing.T) {
	in := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\"}}\n\nevent: bogus\ndata: {}\n\n"
	b := importer.NewBuilder("test", importer.Options{})
	turn := sse.NewTurn(b)
	turn.LineOffset = 100
	if err := sse.DecodeBytes([]byte(in), sse.Anthropic, turn); err != nil {
		t.Fatal(err)
	}
	ps := b.Result().Problems
	if len(ps) != 2 || ps[0].Line != 104 || ps[1].Line != 105 {
		t.Errorf("problems = %v, want line 104 (unknown type) and 105 (cut off)", ps)
	}

	b = importer.NewBuilder("x.sse", importer.Options{Name: "x.sse", Strict: true})
	err := sse.DecodeBytes([]byte(in), sse.Anthropic, sse.NewTurn(b))
	if !errors.Is(err, importer.ErrStrict) || !strings.Contains(err.Error(), "line 4") {
		t.Errorf("strict: err = %v, want a StrictError at line 4", err)
	}
}
