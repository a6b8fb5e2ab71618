package codexexec_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/codexexec"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/importer/importertest"
)

var seqRE = regexp.MustCompile(`^\{"seq":\d+,"t":\d+,`)

// imp imports lines and returns the events as canonical JSON without seq
// and t, the problems and the header meta.
func imp(t *testing.T, lines ...string) ([]string, []string, string) {
	t.Helper()
	res, err := codexexec.Importer{}.Import(strings.NewReader(strings.Join(lines, "\n")+"\n"), importer.Options{Name: "t"})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	var evs []string
	for i := range res.Events {
		ev := &res.Events[i]
		if err := event.Validate(ev); err != nil {
			t.Errorf("event %d invalid: %v", i+1, err)
		}
		if ev.Seq != int64(i+1) || ev.T != int64(i+1) {
			t.Errorf("event %d: seq %d t %d, want the synthetic clock (t = seq)", i+1, ev.Seq, ev.T)
		}
		evs = append(evs, seqRE.ReplaceAllString(string(event.AppendEvent(nil, ev)), "{"))
	}
	var probs []string
	for _, p := range res.Problems {
		probs = append(probs, p.String())
	}
	return evs, probs, string(res.Header.Meta)
}

const (
	thread   = `{"type":"thread.started","thread_id":"th1"}`
	started  = `{"type":"turn.started"}`
	complete = `{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":2}}`
	asst     = `{"kind":"turn_start","role":"assistant"}`
	end      = `{"kind":"turn_end"}`
	endUsage = `{"kind":"turn_end","usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":2}}`
	cmdStart = `{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"","status":"in_progress"}}`
	toolLs   = `{"kind":"tool_start","id":"item_1","name":"shell","args":{"command":"bash -lc ls"},"item_type":"command_execution"}`
)

func TestMapping(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  []string
	}{
		{
			name: "command started and completed share item.id",
			lines: []string{thread, started, cmdStart,
				`{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"a\n","exit_code":0,"status":"completed"}}`,
				complete},
			want: []string{asst, toolLs, `{"kind":"tool_done","id":"item_1","output":"a\n","ok":true,"exit_code":0,"status":"completed"}`, endUsage},
		},
		{
			name: "updates stream aggregated_output deltas",
			lines: []string{started, cmdStart,
				`{"type":"item.updated","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"a\n","status":"in_progress"}}`,
				`{"type":"item.updated","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"a\nb\n","status":"in_progress"}}`},
			want: []string{asst, toolLs,
				`{"kind":"tool_progress","id":"item_1","output":"a\n"}`,
				`{"kind":"tool_progress","id":"item_1","output":"b\n"}`},
		},
		{
			name: "non-zero exit_code fails",
			lines: []string{started, cmdStart,
				`{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"ls: x: No such file\n","exit_code":2,"status":"failed"}}`},
			want: []string{asst, toolLs,
				`{"kind":"tool_done","id":"item_1","output":"ls: x: No such file\n","ok":false,"error":"exit code 2: ls: x: No such file","exit_code":2,"status":"failed"}`},
		},
		{
			name: "status failed without exit code fails",
			lines: []string{started,
				`{"type":"item.completed","item":{"id":"item_3","type":"file_change","changes":[{"path":"a.go","kind":"update"}],"status":"failed"}}`},
			want: []string{asst,
				`{"kind":"tool_start","id":"item_3","name":"apply_patch","args":{"changes":[{"path":"a.go","kind":"update"}]},"item_type":"file_change"}`,
				`{"kind":"tool_done","id":"item_3","ok":false,"error":"failed","status":"failed"}`},
		},
		{
			name: "declined command is a denied permission",
			lines: []string{started, cmdStart,
				`{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"","exit_code":null,"status":"declined"}}`},
			want: []string{asst, toolLs, `{"kind":"permission","id":"item_1","state":"denied","status":"declined"}`},
		},
		{
			name: "mcp tool call: name, args, result text, error",
			lines: []string{started,
				`{"type":"item.started","item":{"id":"item_2","type":"mcp_tool_call","server":"docs","tool":"search","arguments":{"query":"x"},"status":"in_progress"}}`,
				`{"type":"item.completed","item":{"id":"item_2","type":"mcp_tool_call","server":"docs","tool":"search","arguments":{"query":"x"},"result":{"content":[{"type":"text","text":"hit"}],"structured_content":null},"status":"completed"}}`,
				`{"type":"item.started","item":{"id":"item_4","type":"mcp_tool_call","server":"docs","tool":"fetch","arguments":{"url":"u"},"status":"in_progress"}}`,
				`{"type":"item.completed","item":{"id":"item_4","type":"mcp_tool_call","server":"docs","tool":"fetch","arguments":{"url":"u"},"error":{"message":"timeout"},"status":"failed"}}`},
			want: []string{asst,
				`{"kind":"tool_start","id":"item_2","name":"search","args":{"query":"x","server":"docs"},"item_type":"mcp_tool_call"}`,
				`{"kind":"tool_done","id":"item_2","output":"hit","ok":true,"result":{"content":[{"type":"text","text":"hit"}],"structured_content":null},"status":"completed"}`,
				`{"kind":"tool_start","id":"item_4","name":"fetch","args":{"server":"docs","url":"u"},"item_type":"mcp_tool_call"}`,
				`{"kind":"tool_done","id":"item_4","ok":false,"error":"timeout","status":"failed"}`},
		},
		{
			name:  "agent_message is text, reasoning is thinking",
			lines: []string{started, `{"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"**Plan**"}}`, `{"type":"item.completed","item":{"id":"item_5","type":"agent_message","text":"Done."}}`, complete},
			want:  []string{asst, `{"kind":"thinking","text":"**Plan**"}`, `{"kind":"text","text":"Done."}`, endUsage},
		},
		{
			name: "a streamed agent_message emits only what it gained",
			lines: []string{started, `{"type":"item.started","item":{"id":"m","type":"agent_message","text":"Hel"}}`,
				`{"type":"item.completed","item":{"id":"m","type":"agent_message","text":"Hello"}}`},
			want: []string{asst, `{"kind":"text","text":"Hel"}`, `{"kind":"text","text":"lo"}`},
		},
		{
			name:  "older item shape: item_type and assistant_message",
			lines: []string{started, `{"type":"item.completed","item":{"id":"item_0","item_type":"assistant_message","text":"hi"}}`},
			want:  []string{asst, `{"kind":"text","text":"hi"}`},
		},
		{
			name:  "turn.failed is an error then turn_end",
			lines: []string{started, cmdStart, `{"type":"turn.failed","error":{"message":"stream disconnected"}}`},
			want:  []string{asst, toolLs, `{"kind":"error","message":"stream disconnected","event":"turn.failed"}`, end},
		},
		{
			name:  "a stream cut off mid-turn keeps the command running: no turn_end",
			lines: []string{thread, started, cmdStart},
			want:  []string{asst, toolLs},
		},
		{
			name:  "truncated run: only turn.started",
			lines: []string{thread, started},
			want:  []string{asst},
		},
		{
			name:  "error event and error item",
			lines: []string{started, `{"type":"error","message":"Reconnecting... 1/5"}`, `{"type":"item.completed","item":{"id":"e","type":"error","message":"model overloaded"}}`},
			want:  []string{asst, `{"kind":"error","message":"Reconnecting... 1/5"}`, `{"kind":"error","message":"model overloaded","item_id":"e"}`},
		},
		{
			name: "todo_list is update_plan with details on update",
			lines: []string{started,
				`{"type":"item.started","item":{"id":"p","type":"todo_list","items":[{"text":"a","completed":false}]}}`,
				`{"type":"item.updated","item":{"id":"p","type":"todo_list","items":[{"text":"a","completed":true}]}}`,
				`{"type":"item.completed","item":{"id":"p","type":"todo_list","items":[{"text":"a","completed":true}]}}`},
			want: []string{asst,
				`{"kind":"tool_start","id":"p","name":"update_plan","args":{"items":[{"text":"a","completed":false}]},"item_type":"todo_list"}`,
				`{"kind":"tool_progress","id":"p","details":{"items":[{"text":"a","completed":true}]}}`,
				`{"kind":"tool_done","id":"p","ok":true}`},
		},
		{
			name:  "web search",
			lines: []string{started, `{"type":"item.started","item":{"id":"w","type":"web_search","query":"go"}}`, `{"type":"item.completed","item":{"id":"w","type":"web_search","query":"go"}}`},
			want: []string{asst, `{"kind":"tool_start","id":"w","name":"web_search","args":{"query":"go"},"item_type":"web_search"}`,
				`{"kind":"tool_done","id":"w","ok":true}`},
		},
		{
			name:  "a second turn.started ends the open turn",
			lines: []string{started, cmdStart, started},
			want:  []string{asst, toolLs, `{"kind":"turn_end","ended_by":"turn.started"}`, asst},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, probs, _ := imp(t, tc.lines...)
			if len(probs) > 0 {
				t.Errorf("problems: %v", probs)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHeaderMeta(t *testing.T) {
	_, _, meta := imp(t, thread, started, `{"type":"item.plan.delta","item_id":"x","delta":"y"}`)
	want := `{"clock":"synthetic","format":"codex-exec-json","ignored":{"item.plan.delta":1,"thread.started":1},"thread_id":"th1"}`
	if meta != want {
		t.Errorf("meta\n got %s\nwant %s", meta, want)
	}
}

func TestProblems(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  []string
	}{
		{"not JSON", []string{started, "oops"}, []string{"line 2: not JSON: invalid character 'o' looking for beginning of value"}},
		{"unknown event type", []string{started, `{"type":"turn.paused"}`}, []string{`line 2: unknown event type "turn.paused"`}},
		{"unknown item type", []string{started, `{"type":"item.completed","item":{"id":"x","type":"hologram"}}`}, []string{`line 2: item.completed: unknown item type "hologram"`}},
		{"truncated last line", []string{started, cmdStart[:50]}, []string{"line 2: truncated JSON (unexpected end of input)"}},
		{"item without id", []string{started, `{"type":"item.started","item":{"type":"command_execution","command":"ls"}}`}, []string{"line 2: item.started: item without an id: cannot pair it"}},
		{"no type", []string{`{"thread_id":"x"}`}, []string{`line 1: no "type" member`}},
		{"not an object", []string{`["turn.started"]`}, []string{"line 1: not a JSON object: got array"}},
		{"member of the wrong type", []string{started, `{"type":"item.completed","item":{"id":"i","type":"agent_message","text":7}}`},
			[]string{`line 2: item.completed: member "text": unexpected JSON number: left out`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, probs, _ := imp(t, tc.lines...)
			if diff := cmp.Diff(tc.want, probs); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStrict(t *testing.T) {
	_, err := codexexec.Importer{}.Import(strings.NewReader(started+"\nnope\n"), importer.Options{Name: "x.jsonl", Strict: true})
	if !errors.Is(err, importer.ErrStrict) || !strings.Contains(err.Error(), "x.jsonl:line 2:") {
		t.Errorf("strict import: %v", err)
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name string
		head string
		want bool
	}{
		{"thread.started first", thread + "\n" + started + "\n", true},
		{"head cut inside the first line", cmdStart[:60], true},
		{"error then turn events", `{"type":"error","message":"x"}` + "\n" + started + "\n", true},
		{"lone error", `{"type":"error","message":"x"}` + "\n", false},
		{"codex rollout", `{"timestamp":"2025-11-17T21:30:28.664Z","type":"session_meta","payload":{}}` + "\n", false},
		{"claude stream-json", `{"type":"system","subtype":"init"}` + "\n", false},
		{"openai responses json", `{"type":"response.created","response":{}}` + "\n", false},
		{"empty", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := (codexexec.Importer{}).Detect([]byte(tc.head)); got != tc.want {
				t.Errorf("Detect = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDetectSharedTraces checks Detect against every real sample: it
// accepts its own format's files and no other.
func TestDetectSharedTraces(t *testing.T) {
	importertest.DetectSharedTraces(t, codexexec.Importer{}, "../../../shared/traces", "codex-exec-json")
}
