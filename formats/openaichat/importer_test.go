package openaichat_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/formats/openaichat"
	"github.com/toolsim/toolsim/importer/importertest"
)

// run imports in and returns its events without seq and t, its problems,
// and its header meta; every import must also pass the oracles.
func run(t *testing.T, in string) (evs, problems []string, meta string) {
	t.Helper()
	return importertest.Run(t, openaichat.Importer{}, in)
}

// chunks builds a stream of data lines: a choice (starting with
// {"index") is wrapped in a chunk of completion c1; anything else is the
// data verbatim.
func chunks(choices ...string) string {
	var b strings.Builder
	for _, c := range choices {
		if strings.HasPrefix(c, `{"index"`) {
			c = `{"id":"c1","object":"chat.completion.chunk","choices":[` + c + "]}"
		}
		b.WriteString("data: " + c + "\n\n")
	}
	return b.String()
}

const (
	turnSA = `{"kind":"turn_start","role":"assistant"}`
	turnE  = `{"kind":"turn_end"}`
	usage  = `{"id":"c1","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":1}}`
)

func tc(index int, rest string) string {
	return `{"index":0,"delta":{"tool_calls":[{"index":` + string(rune('0'+index)) + rest + `}]},"finish_reason":null}`
}

func TestImport(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     []string
		problems []string
		meta     string
	}{
		{
			name: "content deltas, finish stop: turn_end; usage and [DONE] ignored",
			in: chunks(`{"index":0,"delta":{"role":"assistant","content":""}}`,
				`{"index":0,"delta":{"content":"Hi"}}`, `{"index":0,"delta":{"content":" there"}}`,
				`{"index":0,"delta":{},"finish_reason":"stop"}`, usage, "[DONE]"),
			want: []string{turnSA, `{"kind":"text","text":"Hi"}`, `{"kind":"text","text":" there"}`, turnE},
			meta: `{"ignored":{"[DONE]":1,"usage":1}}`,
		},
		{
			name: "reasoning_content is thinking",
			in: chunks(`{"index":0,"delta":{"reasoning_content":"think"}}`, `{"index":0,"delta":{"content":"ok"}}`,
				`{"index":0,"delta":{},"finish_reason":"stop"}`, "[DONE]"),
			want: []string{turnSA, `{"kind":"thinking","text":"think"}`, `{"kind":"text","text":"ok"}`, turnE},
		},
		{
			name: "arguments joined by index; id and name only in the first delta",
			in: chunks(tc(0, `,"id":"call_1","type":"function","function":{"name":"read","arguments":""}`),
				tc(0, `,"function":{"arguments":"{\"pa"}`), tc(0, `,"function":{"arguments":"th\": \"a.go\"}"}`),
				`{"index":0,"delta":{},"finish_reason":"tool_calls"}`, "[DONE]"),
			want: []string{turnSA, `{"kind":"tool_start","id":"call_1","name":"read","args":{"path":"a.go"},"batch":"c1"}`},
		},
		{
			name: "two parallel calls with interleaved deltas, emitted in index order at finish_reason",
			in: chunks(tc(0, `,"id":"call_A","function":{"name":"grep","arguments":"{\"pattern\":"}`),
				tc(1, `,"id":"call_B","function":{"name":"grep","arguments":"{\"pattern\":"}`),
				tc(1, `,"function":{"arguments":"\"b\"}"}`), tc(0, `,"function":{"arguments":"\"a\"}"}`),
				`{"index":0,"delta":{},"finish_reason":"tool_calls"}`, usage, "[DONE]"),
			want: []string{turnSA,
				`{"kind":"tool_start","id":"call_A","name":"grep","args":{"pattern":"a"},"batch":"c1"}`,
				`{"kind":"tool_start","id":"call_B","name":"grep","args":{"pattern":"b"},"batch":"c1"}`},
			meta: `{"ignored":{"[DONE]":1,"usage":1}}`,
		},
		{
			name: "the same id repeated in every delta (some providers) is fine",
			in: chunks(tc(0, `,"id":"call_1","function":{"name":"ls","arguments":"{"}`), tc(0, `,"id":"call_1","function":{"arguments":"}"}`),
				`{"index":0,"delta":{},"finish_reason":"tool_calls"}`),
			want: []string{turnSA, `{"kind":"tool_start","id":"call_1","name":"ls","args":{},"batch":"c1"}`},
		},
		{
			name: "[DONE] without finish_reason ends the response",
			in:   chunks(tc(0, `,"id":"call_1","function":{"name":"ls","arguments":"{}"}`), "[DONE]"),
			want: []string{turnSA, `{"kind":"tool_start","id":"call_1","name":"ls","args":{},"batch":"c1"}`},
		},
		{
			name: "error chunk",
			in:   chunks(`{"index":0,"delta":{"content":"Par"}}`, `{"error":{"message":"server overloaded","type":"server_error"}}`),
			want: []string{turnSA, `{"kind":"text","text":"Par"}`, `{"kind":"error","message":"server_error: server overloaded"}`},
		},
		{
			name: "finish_reason length: a notice, then turn_end",
			in:   chunks(`{"index":0,"delta":{"content":"long"}}`, `{"index":0,"delta":{},"finish_reason":"length"}`, "[DONE]"),
			want: []string{turnSA, `{"kind":"text","text":"long"}`, `{"kind":"error","message":"finish_reason length: the response was cut short"}`, turnE},
		},
		{
			name: "a repeated finish chunk with usage, and the same finish again: accepted quietly",
			in: chunks(`{"index":0,"delta":{"content":"done"}}`, `{"index":0,"delta":{},"finish_reason":"stop"}`,
				`{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":3}}`,
				`{"index":0,"delta":{"content":""},"finish_reason":null}`, "[DONE]"),
			want: []string{turnSA, `{"kind":"text","text":"done"}`, turnE},
			meta: `{"ignored":{"[DONE]":1,"chunk after finish_reason":2}}`,
		},
		{
			name: "a chunk after the finish that carries new content is reported",
			in: chunks(`{"index":0,"delta":{"content":"a"}}`, `{"index":0,"delta":{},"finish_reason":"stop"}`,
				`{"index":0,"delta":{"content":"late"},"finish_reason":"stop"}`, `{"index":0,"delta":{},"finish_reason":"length"}`),
			want: []string{turnSA, `{"kind":"text","text":"a"}`, turnE},
			problems: []string{
				`line 5: a chunk for choice 0 after its finish_reason carries new content: skipped`,
				`line 7: a chunk for choice 0 after its finish_reason "stop" gives another, "length": skipped`,
			},
		},
		// Bad input.
		{
			name:     "data line that is not JSON",
			in:       chunks(`{"index":0,"delta":{"content":"a"}}`, "{not json}", `{"index":0,"delta":{},"finish_reason":"stop"}`),
			want:     []string{turnSA, `{"kind":"text","text":"a"}`, turnE},
			problems: []string{`line 3: data is not valid JSON (invalid character 'n' looking for beginning of object key string): skipped: "{not json}"`},
		},
		{
			name:     "unknown event type",
			in:       "event: surprise\ndata: {}\n\n" + chunks(`{"index":0,"delta":{},"finish_reason":"stop"}`),
			want:     []string{turnSA, turnE},
			problems: []string{`line 1: unknown event type "surprise": skipped`},
		},
		{
			name: "stream cut mid-arguments",
			in:   chunks(tc(0, `,"id":"call_1","function":{"name":"read","arguments":"{\"path\": \"/et"}`)),
			want: []string{turnSA, `{"kind":"tool_start","id":"call_1","name":"read","args":{"raw":"{\"path\": \"/et"},"batch":"c1"}`},
			problems: []string{
				`line 1: the stream ended in the middle of the arguments of call "call_1" (read): kept raw: "{\"path\": \"/et"`,
				`line 1: the stream ended before the end of the response begun at line 1: cut off`,
			},
		},
		{
			name: "choice 1 (n > 1) reported once; a second id for one index",
			in: chunks(`{"index":1,"delta":{"content":"x"}}`, `{"index":1,"delta":{"content":"y"}}`,
				tc(0, `,"id":"call_1","function":{"name":"ls","arguments":"{}"}`), tc(0, `,"id":"call_2"`),
				`{"index":0,"delta":{},"finish_reason":"tool_calls"}`),
			want: []string{turnSA, `{"kind":"tool_start","id":"call_1","name":"ls","args":{},"batch":"c1"}`},
			problems: []string{
				`line 1: choice 1 not mapped: only choice 0 is (n > 1)`,
				`line 7: tool call index 0: a second id "call_2" (first "call_1"): keeping the first`,
			},
		},
		{
			name:     "a call that never got an id",
			in:       chunks(tc(0, `,"function":{"name":"ls","arguments":"{}"}`), `{"index":0,"delta":{},"finish_reason":"tool_calls"}`),
			want:     []string{turnSA, `{"kind":"tool_start","id":"","name":"ls","args":{},"batch":"c1"}`},
			problems: []string{`line 1: call ls has no id`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs, problems, meta := run(t, tt.in)
			if diff := cmp.Diff(tt.want, evs); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if tt.meta != "" && meta != tt.meta {
				t.Errorf("meta = %s, want %s", meta, tt.meta)
			}
		})
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"chat stream", chunks(`{"index":0,"delta":{}}`), true},
		{"chat after a comment", ": OPENROUTER PROCESSING\n\n" + chunks(`{"index":0,"delta":{}}`), true},
		{"anthropic stream", "event: message_start\ndata: {\"type\":\"message_start\"}\n\n", false},
		{"responses stream", "event: response.created\ndata: {\"type\":\"response.created\"}\n\n", false},
		{"JSONL chunk", `{"object":"chat.completion.chunk","choices":[]}` + "\n", false},
	}
	for _, tt := range tests {
		if got := (openaichat.Importer{}).Detect([]byte(tt.in)); got != tt.want {
			t.Errorf("%s: Detect = %v, want %v", tt.name, got, tt.want)
		}
	}
}
