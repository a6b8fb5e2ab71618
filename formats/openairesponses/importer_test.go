package openairesponses_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/formats/openairesponses"
	"github.com/toolsim/toolsim/importer/importertest"
)

// run imports in and returns its events without seq and t, its problems,
// and its header meta; every import must also pass the oracles.
func run(t *testing.T, in string) (evs, problems []string, meta string) {
	t.Helper()
	return importertest.Run(t, openairesponses.Importer{}, in)
}

// stream builds events from data objects: the event field is the data's
// type, so each event takes two lines and a blank.
func stream(datas ...string) string {
	var b strings.Builder
	typ := regexp.MustCompile(`"type":"([^"]*)"`)
	for _, d := range datas {
		m := typ.FindStringSubmatch(d)
		name := "unknown"
		if m != nil {
			name = m[1]
		}
		b.WriteString("event: " + name + "\ndata: " + d + "\n\n")
	}
	return b.String()
}

const (
	created   = `{"type":"response.created","response":{"id":"resp_1","status":"in_progress"}}`
	completed = `{"type":"response.completed","response":{"id":"resp_1","status":"completed"}}`
	turnSA    = `{"kind":"turn_start","role":"assistant"}`
	turnE     = `{"kind":"turn_end"}`
)

func added(id, callID, name string) string {
	return `{"type":"response.output_item.added","item":{"id":"` + id + `","type":"function_call","status":"in_progress","arguments":"","call_id":"` + callID + `","name":"` + name + `"}}`
}

func argDelta(id, delta string) string {
	return `{"type":"response.function_call_arguments.delta","item_id":"` + id + `","delta":"` + delta + `"}`
}

func argDone(id, args string) string {
	return `{"type":"response.function_call_arguments.done","item_id":"` + id + `","arguments":"` + args + `"}`
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
			name: "text and reasoning deltas; completed ends the turn",
			in: stream(created, `{"type":"response.in_progress","response":{}}`,
				`{"type":"response.output_item.added","item":{"id":"rs_1","type":"reasoning","summary":[]}}`,
				`{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","delta":"plan"}`,
				`{"type":"response.output_item.added","item":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`,
				`{"type":"response.content_part.added","item_id":"msg_1"}`,
				`{"type":"response.output_text.delta","item_id":"msg_1","delta":"Hel"}`,
				`{"type":"response.output_text.delta","item_id":"msg_1","delta":"lo"}`,
				`{"type":"response.output_text.done","item_id":"msg_1","text":"Hello"}`,
				completed),
			want: []string{turnSA, `{"kind":"thinking","text":"plan"}`, `{"kind":"text","text":"Hel"}`, `{"kind":"text","text":"lo"}`, turnE},
			meta: `{"ignored":{"response.content_part.added":1,"response.in_progress":1,"response.output_item.added":2,"response.output_text.done":1}}`,
		},
		{
			name: "arguments joined by item_id; id = call_id, item_id kept",
			in: stream(created, added("fc_1", "call_1", "read"),
				argDelta("fc_1", `{\"pa`), argDelta("fc_1", `th\":\"a.go\"}`),
				argDone("fc_1", `{\"path\":\"a.go\"}`), completed),
			want: []string{turnSA, `{"kind":"tool_start","id":"call_1","name":"read","args":{"path":"a.go"},"batch":"resp_1","item_id":"fc_1"}`},
		},
		{
			name: "two parallel calls, deltas interleaved by item_id",
			in: stream(created, added("fc_1", "call_1", "grep"), added("fc_2", "call_2", "grep"),
				argDelta("fc_2", `{\"pattern\":`), argDelta("fc_1", `{\"pattern\":`),
				argDelta("fc_1", `\"a\"}`), argDelta("fc_2", `\"b\"}`),
				argDone("fc_1", `{\"pattern\":\"a\"}`), argDone("fc_2", `{\"pattern\":\"b\"}`), completed),
			want: []string{turnSA,
				`{"kind":"tool_start","id":"call_1","name":"grep","args":{"pattern":"a"},"batch":"resp_1","item_id":"fc_1"}`,
				`{"kind":"tool_start","id":"call_2","name":"grep","args":{"pattern":"b"},"batch":"resp_1","item_id":"fc_2"}`},
		},
		{
			name: "output_item.done completes a call without arguments.done",
			in: stream(created, added("fc_1", "call_1", "ls"), argDelta("fc_1", `{}`),
				`{"type":"response.output_item.done","item":{"id":"fc_1","type":"function_call","status":"completed","arguments":"{}","call_id":"call_1","name":"ls"}}`,
				completed),
			want: []string{turnSA, `{"kind":"tool_start","id":"call_1","name":"ls","args":{},"batch":"resp_1","item_id":"fc_1"}`},
		},
		{
			name: "custom tool call: free-text input",
			in: stream(created,
				`{"type":"response.output_item.added","item":{"id":"ctc_1","type":"custom_tool_call","call_id":"call_9","name":"apply_patch","input":""}}`,
				`{"type":"response.custom_tool_call_input.delta","item_id":"ctc_1","delta":"*** Begin"}`,
				`{"type":"response.custom_tool_call_input.done","item_id":"ctc_1","input":"*** Begin Patch"}`,
				completed),
			want: []string{turnSA, `{"kind":"tool_start","id":"call_9","name":"apply_patch","args":{"input":"*** Begin Patch"},"batch":"resp_1","item_id":"ctc_1"}`},
		},
		{
			name: "hosted web search: started and finished in the stream; the turn ends",
			in: stream(created,
				`{"type":"response.output_item.added","item":{"id":"ws_1","type":"web_search_call","status":"in_progress","action":{"type":"search","query":"go 1.26"}}}`,
				`{"type":"response.web_search_call.searching","item_id":"ws_1"}`,
				`{"type":"response.output_item.done","item":{"id":"ws_1","type":"web_search_call","status":"completed","action":{"type":"search","query":"go 1.26"}}}`,
				completed),
			want: []string{turnSA,
				`{"kind":"tool_start","id":"ws_1","name":"web_search","args":{"type":"search","query":"go 1.26"},"batch":"resp_1"}`,
				`{"kind":"tool_done","id":"ws_1","ok":true}`, turnE},
			meta: `{"ignored":{"response.web_search_call.searching":1}}`,
		},
		{
			name: "error then response.failed with the same message: one error event",
			in: stream(created, `{"type":"error","code":"server_error","message":"boom"}`,
				`{"type":"response.failed","response":{"id":"resp_1","status":"failed","error":{"code":"server_error","message":"boom"}}}`),
			want: []string{turnSA, `{"kind":"error","message":"server_error: boom"}`},
			meta: `{"ignored":{"repeated error":1}}`,
		},
		{
			name: "response.incomplete: a notice, then turn_end",
			in: stream(created, `{"type":"response.output_text.delta","delta":"par"}`,
				`{"type":"response.incomplete","response":{"id":"resp_1","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}}`),
			want: []string{turnSA, `{"kind":"text","text":"par"}`, `{"kind":"error","message":"response incomplete: max_output_tokens"}`, turnE},
		},
		// Bad input.
		{
			name:     "data line that is not JSON",
			in:       stream(created) + "event: response.output_text.delta\ndata: {\"type\":\n\n" + stream(completed),
			want:     []string{turnSA, turnE},
			problems: []string{`line 5: data is not valid JSON (unexpected end of JSON input): skipped: "{\"type\":"`},
		},
		{
			name:     "unknown event type",
			in:       stream(created, `{"type":"response.teleport.delta"}`, completed),
			want:     []string{turnSA, turnE},
			problems: []string{`line 4: unknown event type "response.teleport.delta": skipped`},
		},
		{
			name: "stream cut mid-arguments",
			in:   stream(created, added("fc_1", "call_1", "read"), argDelta("fc_1", `{\"path\": \"/et`)),
			want: []string{turnSA, `{"kind":"tool_start","id":"call_1","name":"read","args":{"raw":"{\"path\": \"/et"},"batch":"resp_1","item_id":"fc_1"}`},
			problems: []string{
				`line 4: the stream ended in the middle of the arguments of call "call_1" (read): kept raw: "{\"path\": \"/et"`,
				`line 8: the stream ended before the end of the response begun at line 1: cut off`,
			},
		},
		{
			name:     "arguments for an item never announced",
			in:       stream(created, argDelta("fc_9", `{}`), completed),
			want:     []string{turnSA, turnE},
			problems: []string{`line 4: arguments for item "fc_9", which no output_item.added announced as a tool call: skipped`},
		},
		{
			name:     "event field disagrees with the data's type",
			in:       stream(created) + "event: response.output_text.delta\ndata: {\"type\":\"response.refusal.delta\",\"delta\":\"no\"}\n\n" + stream(completed),
			want:     []string{turnSA, `{"kind":"text","text":"no"}`, turnE},
			problems: []string{`line 4: event field "response.output_text.delta" disagrees with the data's type "response.refusal.delta": using the data's`},
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
		{"responses stream", stream(created), true},
		{"data only", "data: " + created + "\n\n", true},
		{"anthropic stream", "event: message_start\ndata: {\"type\":\"message_start\"}\n\n", false},
		{"chat stream", "data: {\"object\":\"chat.completion.chunk\",\"choices\":[]}\n\n", false},
		{"codex exec JSONL", `{"type":"response.created"}` + "\n", false},
	}
	for _, tt := range tests {
		if got := (openairesponses.Importer{}).Detect([]byte(tt.in)); got != tt.want {
			t.Errorf("%s: Detect = %v, want %v", tt.name, got, tt.want)
		}
	}
}
