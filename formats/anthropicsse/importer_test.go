package anthropicsse_test

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/formats/anthropicsse"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/importer/importertest"
)

// run imports in and returns its events without seq and t, its problems,
// and its header meta; every import must also pass the oracles.
func run(t *testing.T, in string) (evs, problems []string, meta string) {
	t.Helper()
	return importertest.Run(t, anthropicsse.Importer{}, in)
}

// sse builds a stream from "type data" pairs.
func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		typ, data, _ := strings.Cut(e, " ")
		b.WriteString("event: " + typ + "\ndata: " + data + "\n\n")
	}
	return b.String()
}

const (
	start  = `message_start {"type":"message_start","message":{"id":"msg_1","role":"assistant","content":[]}}`
	stop   = `message_stop {"type":"message_stop"}`
	turnSA = `{"kind":"turn_start","role":"assistant"}`
	turnE  = `{"kind":"turn_end"}`
)

func TestImport(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     []string
		problems []string
		meta     string
	}{
		{
			name: "text deltas, then turn_end at message_stop",
			in: sse(start,
				`content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
				`content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}`,
				`content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" world"}}`,
				`content_block_stop {"type":"content_block_stop","index":0}`,
				`message_delta {"type":"message_delta","delta":{"stop_reason":"end_turn"}}`,
				stop),
			want: []string{turnSA, `{"kind":"text","text":"Hello"}`, `{"kind":"text","text":" world"}`, turnE},
			meta: `{"ignored":{"content_block_stop":1,"message_delta":1}}`,
		},
		{
			name: "thinking deltas; signature ignored",
			in: sse(start,
				`content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`,
				`content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hmm"}}`,
				`content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"abc"}}`,
				`content_block_stop {"type":"content_block_stop","index":0}`,
				stop),
			want: []string{turnSA, `{"kind":"thinking","text":"hmm"}`, turnE},
			meta: `{"ignored":{"content_block_stop":1,"signature_delta":1}}`,
		},
		{
			name: "input_json_delta joined by block index, interleaved; tool_start at content_block_stop; no turn_end",
			in: sse(start,
				`content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_A","name":"grep","input":{}}}`,
				`content_block_start {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_B","name":"read","input":{}}}`,
				`content_block_delta {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"path\":"}}`,
				`content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"pattern\""}}`,
				`content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":": \"TODO\"}"}}`,
				`content_block_delta {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" \"a.go\"}"}}`,
				`content_block_stop {"type":"content_block_stop","index":1}`,
				`content_block_stop {"type":"content_block_stop","index":0}`,
				`message_delta {"type":"message_delta","delta":{"stop_reason":"tool_use"}}`,
				stop),
			want: []string{turnSA,
				`{"kind":"tool_start","id":"toolu_B","name":"read","args":{"path":"a.go"},"batch":"msg_1"}`,
				`{"kind":"tool_start","id":"toolu_A","name":"grep","args":{"pattern":"TODO"},"batch":"msg_1"}`},
			meta: `{"ignored":{"message_delta":1}}`,
		},
		{
			name: "text then two parallel calls with the same name",
			in: sse(start,
				`content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Checking."}}`,
				`content_block_stop {"type":"content_block_stop","index":0}`,
				`content_block_start {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"bash","input":{}}}`,
				`content_block_delta {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"command\":\"ls\"}"}}`,
				`content_block_stop {"type":"content_block_stop","index":1}`,
				`content_block_start {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_2","name":"bash","input":{}}}`,
				`content_block_delta {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"command\":\"pwd\"}"}}`,
				`content_block_stop {"type":"content_block_stop","index":2}`,
				stop),
			want: []string{turnSA, `{"kind":"text","text":"Checking."}`,
				`{"kind":"tool_start","id":"toolu_1","name":"bash","args":{"command":"ls"},"batch":"msg_1"}`,
				`{"kind":"tool_start","id":"toolu_2","name":"bash","args":{"command":"pwd"},"batch":"msg_1"}`},
			meta: `{"ignored":{"content_block_stop":1}}`,
		},
		{
			name: "a call without deltas takes the start's input",
			in: sse(start,
				`content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"now","input":{}}}`,
				`content_block_stop {"type":"content_block_stop","index":0}`,
				stop),
			want: []string{turnSA, `{"kind":"tool_start","id":"toolu_1","name":"now","args":{},"batch":"msg_1"}`},
		},
		{
			name: "server tool: call and result in the stream; the turn ends",
			in: sse(start,
				`content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}`,
				`content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\":\"go 1.26\"}"}}`,
				`content_block_stop {"type":"content_block_stop","index":0}`,
				`content_block_start {"type":"content_block_start","index":1,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[]}}`,
				`content_block_stop {"type":"content_block_stop","index":1}`,
				stop),
			want: []string{turnSA,
				`{"kind":"tool_start","id":"srvtoolu_1","name":"web_search","args":{"query":"go 1.26"},"batch":"msg_1"}`,
				`{"kind":"tool_done","id":"srvtoolu_1","ok":true}`, turnE},
			meta: `{"ignored":{"content_block_stop":1}}`,
		},
		{
			name: "ping ignored and counted",
			in:   sse(start, `ping {"type": "ping"}`, `ping {"type": "ping"}`, stop),
			want: []string{turnSA, turnE},
			meta: `{"ignored":{"ping":2}}`,
		},
		{
			name: "error event: error, the turn stays open, no cut-off problem",
			in: sse(start,
				`content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Let"}}`,
				`error {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`),
			want: []string{turnSA, `{"kind":"text","text":"Let"}`, `{"kind":"error","message":"overloaded_error: Overloaded"}`},
		},
		{
			name: "max_tokens: a notice, then turn_end",
			in: sse(start,
				`message_delta {"type":"message_delta","delta":{"stop_reason":"max_tokens"}}`, stop),
			want: []string{turnSA, `{"kind":"error","message":"stop_reason max_tokens: the response was cut short"}`, turnE},
		},
		// Bad input.
		{
			name:     "data line that is not JSON: problem at the data line",
			in:       sse(start) + "event: content_block_delta\ndata: {not json\n\n" + sse(stop),
			want:     []string{turnSA, turnE},
			problems: []string{`line 5: data is not valid JSON (invalid character 'n' looking for beginning of object key string): skipped: "{not json"`},
		},
		{
			name:     "unknown event type: problem at the event's first line",
			in:       sse(start, `mystery_event {"type":"mystery_event"}`, stop),
			want:     []string{turnSA, turnE},
			problems: []string{`line 4: unknown event type "mystery_event": skipped`},
		},
		{
			name: "stream cut mid-arguments: the call is emitted raw, the cut reported",
			in: sse(start,
				`content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"read","input":{}}}`,
				`content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"path\": \"/et"}}`),
			want: []string{turnSA, `{"kind":"tool_start","id":"toolu_1","name":"read","args":{"raw":"{\"path\": \"/et"},"batch":"msg_1"}`},
			problems: []string{
				`line 4: the stream ended in the middle of the arguments of call "toolu_1" (read): kept raw: "{\"path\": \"/et"`,
				`line 8: the stream ended before the end of the response begun at line 1: cut off`,
			},
		},
		{
			name: "arguments that are not an object are kept raw",
			in: sse(start,
				`content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{}}}`,
				`content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"[1,2]"}}`,
				`content_block_stop {"type":"content_block_stop","index":0}`, stop),
			want:     []string{turnSA, `{"kind":"tool_start","id":"toolu_1","name":"f","args":{"raw":"[1,2]"},"batch":"msg_1"}`},
			problems: []string{`line 4: the arguments of call "toolu_1" (f) are not a JSON object: kept raw: "[1,2]"`},
		},
		{
			name: "input_json_delta for a block never started",
			in: sse(start,
				`content_block_delta {"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{}"}}`, stop),
			want:     []string{turnSA, turnE},
			problems: []string{`line 4: input_json_delta for content block 3, which is not an open tool_use block: skipped`},
		},
		{
			name: "unknown delta type and unknown SSE field",
			in:   sse(start) + "event: content_block_delta\nx-trace: 1\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"hologram_delta\"}}\n\n" + sse(stop),
			want: []string{turnSA, turnE},
			problems: []string{
				`line 4: unknown delta type "hologram_delta": skipped`,
				`line 5: unknown SSE field "x-trace": ignored`,
			},
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

func TestStrict(t *testing.T) {
	in := sse(start, `bogus {}`, stop)
	_, err := anthropicsse.Importer{}.Import(strings.NewReader(in), importer.Options{Name: "x.sse", Strict: true})
	var se *importer.StrictError
	if !errors.As(err, &se) || se.Problem.Line != 4 {
		t.Fatalf("err = %v, want a StrictError at line 4", err)
	}
}

func TestEmpty(t *testing.T) {
	res, err := anthropicsse.Importer{}.Import(strings.NewReader(""), importer.Options{})
	if err != nil || len(res.Problems) != 1 || len(res.Events) != 0 {
		t.Fatalf("empty input: %v, %+v", err, res)
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"anthropic stream", sse(start, stop), true},
		{"anthropic after ping", sse(`ping {"type":"ping"}`, start), true},
		{"responses stream", "event: response.created\ndata: {\"type\":\"response.created\"}\n\n", false},
		{"chat stream", "data: {\"object\":\"chat.completion.chunk\",\"choices\":[]}\n\n", false},
		{"JSONL with the same types", `{"type":"message_start"}` + "\n", false},
		{"cassette", "version: 2\ninteractions:\n- request:\n    body: ''\n  response:\n    body: |\n      event: message_start\n", false},
	}
	for _, tt := range tests {
		if got := (anthropicsse.Importer{}).Detect([]byte(tt.in)); got != tt.want {
			t.Errorf("%s: Detect = %v, want %v", tt.name, got, tt.want)
		}
	}
}

const sample = "../../../shared/traces/anthropic-sse/two-parallel-tool-use.sse"

// BenchmarkImport imports the shared sample:
// go test ./formats/anthropicsse -run '^$' -bench Import -benchmem
func BenchmarkImport(b *testing.B) {
	data, err := os.ReadFile(sample)
	if err != nil {
		b.Skipf("sample not found: %v", err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := anthropicsse.Importer{}.Import(bytes.NewReader(data), importer.Options{})
		if err != nil || len(res.Problems) > 0 {
			b.Fatal(err, res.Problems)
		}
	}
}
