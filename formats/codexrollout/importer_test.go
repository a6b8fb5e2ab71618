package codexrollout_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/codexrollout"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/importer/importertest"
)

// rl builds one rollout line at second sec of a fixed minute.
func rl(sec, typ, payload string) string {
	return `{"timestamp":"2025-11-17T21:30:` + sec + `Z","type":"` + typ + `","payload":` + payload + "}"
}

func item(sec, payload string) string  { return rl(sec, "response_item", payload) }
func evmsg(sec, payload string) string { return rl(sec, "event_msg", payload) }

const (
	prompt    = `{"type":"message","role":"user","content":[{"type":"input_text","text":"list files"}]}`
	envCtx    = `{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"}]}`
	callLs    = `{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"ls\"]}","call_id":"c1"}`
	outLsOK   = `{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"a\\nb\\n\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":0.25}}"}`
	tokenCnt  = `{"type":"token_count","info":null}`
	summary   = `{"type":"reasoning","summary":[{"type":"summary_text","text":"**Looking**"}],"content":null,"encrypted_content":"gAAA"}`
	encrypted = `{"type":"reasoning","summary":[],"content":null,"encrypted_content":"gAAA"}`
)

// imp imports lines and returns the events as canonical JSON without seq
// (and without t unless withT), the problems, and the header meta.
func imp(t *testing.T, withT bool, lines ...string) ([]string, []string, string) {
	t.Helper()
	res, err := codexrollout.Importer{}.Import(strings.NewReader(strings.Join(lines, "\n")+"\n"), importer.Options{Name: "t"})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	var evs []string
	for i := range res.Events {
		if err := event.Validate(&res.Events[i]); err != nil {
			t.Errorf("event %d invalid: %v", i+1, err)
		}
		evs = append(evs, strip(string(event.AppendEvent(nil, &res.Events[i])), withT))
	}
	var probs []string
	for _, p := range res.Problems {
		probs = append(probs, p.String())
	}
	return evs, probs, string(res.Header.Meta)
}

var seqRE = regexp.MustCompile(`^\{"seq":\d+,`)
var tRE = regexp.MustCompile(`^\{"t":\d+,`)

func strip(line string, withT bool) string {
	line = seqRE.ReplaceAllString(line, "{")
	if !withT {
		line = tRE.ReplaceAllString(line, "{")
	}
	return line
}

const (
	userTurn = `{"kind":"turn_start","role":"user"}`
	asst     = `{"kind":"turn_start","role":"assistant"}`
	end      = `{"kind":"turn_end"}`
)

func TestMapping(t *testing.T) {
	startLs := `{"kind":"tool_start","id":"c1","name":"shell","args":{"command":["bash","-lc","ls"]},"batch":"resp-1","call_type":"function_call"}`
	callPatch := `{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch\n*** Update File: a.go\n*** End Patch","call_id":"p1"}`
	startPatch := `{"kind":"tool_start","id":"p1","name":"apply_patch","args":{"input":"*** Begin Patch\n*** Update File: a.go\n*** End Patch"},"batch":"resp-1","args_wrapped":true,"call_type":"custom_tool_call"}`
	tests := []struct {
		name  string
		lines []string
		want  []string
	}{
		{
			name:  "prompt is a user turn; injected context is not",
			lines: []string{item("01", envCtx), item("02", prompt)},
			want:  []string{userTurn, `{"kind":"user","text":"list files"}`, end},
		},
		{
			name:  "function_call and its output pair by call_id",
			lines: []string{item("02", callLs), item("03", outLsOK)},
			want: []string{asst, startLs,
				`{"kind":"tool_done","id":"c1","output":"a\nb\n","ok":true,"duration_ms":250,"exit_code":0}`},
		},
		{
			name: "non-zero exit_code in metadata fails with the first output line",
			lines: []string{item("02", callLs), item("03",
				`{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"Total output lines: 2\\n\\nls: x: No such file\\nmore\\n\",\"metadata\":{\"exit_code\":2,\"duration_seconds\":0.0}}"}`)},
			want: []string{asst, startLs,
				`{"kind":"tool_done","id":"c1","output":"Total output lines: 2\n\nls: x: No such file\nmore\n","ok":false,"error":"exit code 2: ls: x: No such file","duration_ms":0,"exit_code":2}`},
		},
		{
			name:  "top-level exit_code in the output JSON",
			lines: []string{item("02", callLs), item("03", `{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"\",\"exit_code\":1}"}`)},
			want:  []string{asst, startLs, `{"kind":"tool_done","id":"c1","ok":false,"error":"exit code 1","exit_code":1}`},
		},
		{
			name:  "plain-text output without exit code is ok",
			lines: []string{item("02", callLs), item("03", `{"type":"function_call_output","call_id":"c1","output":"Plan updated"}`)},
			want:  []string{asst, startLs, `{"kind":"tool_done","id":"c1","output":"Plan updated","ok":true}`},
		},
		{
			name: "freeform shell output: Exit code and Wall time lines",
			lines: []string{item("02", callLs), item("03",
				`{"type":"function_call_output","call_id":"c1","output":"Exit code: 1\nWall time: 0.5 seconds\nOutput:\nboom\n"}`)},
			want: []string{asst, startLs,
				`{"kind":"tool_done","id":"c1","output":"Exit code: 1\nWall time: 0.5 seconds\nOutput:\nboom\n","ok":false,"error":"exit code 1: boom","duration_ms":500,"exit_code":1}`},
		},
		{
			name:  "output as a list of content items",
			lines: []string{item("02", callLs), item("03", `{"type":"function_call_output","call_id":"c1","output":[{"type":"input_text","text":"one"},{"type":"input_text","text":"two"}]}`)},
			want:  []string{asst, startLs, `{"kind":"tool_done","id":"c1","output":"one\ntwo","ok":true}`},
		},
		{
			name:  "arguments that are not a JSON object are wrapped as input",
			lines: []string{item("02", `{"type":"function_call","name":"echo","arguments":"hello","call_id":"c9"}`)},
			want:  []string{asst, `{"kind":"tool_start","id":"c9","name":"echo","args":{"input":"hello"},"batch":"resp-1","args_wrapped":true,"call_type":"function_call"}`},
		},
		{
			name: "custom_tool_call input and custom_tool_call_output",
			lines: []string{
				item("02", `{"type":"custom_tool_call","status":"completed","call_id":"p1","name":"apply_patch","input":"*** Begin Patch\n*** End Patch"}`),
				item("03", `{"type":"custom_tool_call_output","call_id":"p1","output":"{\"output\":\"Success.\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":0.1}}"}`)},
			want: []string{asst,
				`{"kind":"tool_start","id":"p1","name":"apply_patch","args":{"input":"*** Begin Patch\n*** End Patch"},"batch":"resp-1","args_wrapped":true,"call_type":"custom_tool_call","status":"completed"}`,
				`{"kind":"tool_done","id":"p1","output":"Success.","ok":true,"duration_ms":100,"exit_code":0}`},
		},
		{
			name: "local_shell_call: args are the action",
			lines: []string{
				item("02", `{"type":"local_shell_call","id":"lsh_1","call_id":"s1","status":"completed","action":{"type":"exec","command":["ls","-la"],"working_directory":"/w"}}`),
				item("03", `{"type":"function_call_output","call_id":"s1","output":"{\"output\":\"x\",\"metadata\":{\"exit_code\":0}}"}`)},
			want: []string{asst,
				`{"kind":"tool_start","id":"s1","name":"local_shell","args":{"type":"exec","command":["ls","-la"],"working_directory":"/w"},"batch":"resp-1","call_type":"local_shell_call","status":"completed"}`,
				`{"kind":"tool_done","id":"s1","output":"x","ok":true,"exit_code":0}`},
		},
		{
			name:  "local_shell_call without call_id uses its item id",
			lines: []string{item("02", `{"type":"local_shell_call","id":"lsh_1","call_id":null,"status":"in_progress","action":{"type":"exec","command":["pwd"]}}`)},
			want: []string{asst,
				`{"kind":"tool_start","id":"lsh_1","name":"local_shell","args":{"type":"exec","command":["pwd"]},"batch":"resp-1","call_type":"local_shell_call","status":"in_progress"}`},
		},
		{
			name:  "a call with no id at all gets a generated one",
			lines: []string{item("02", `{"type":"local_shell_call","status":"completed","action":{"type":"exec","command":["pwd"]}}`)},
			want: []string{asst,
				`{"kind":"tool_start","id":"codex-call-1","name":"local_shell","args":{"type":"exec","command":["pwd"]},"batch":"resp-1","call_type":"local_shell_call","generated_id":true,"status":"completed"}`},
		},
		{
			name: "an empty call_id is kept, for the engine to report",
			lines: []string{item("02", `{"type":"function_call","name":"shell","arguments":"{}","call_id":""}`),
				item("03", `{"type":"function_call_output","call_id":"","output":"x"}`)},
			want: []string{asst,
				`{"kind":"tool_start","id":"","name":"shell","args":{},"batch":"resp-1","call_type":"function_call"}`,
				`{"kind":"tool_done","id":"","output":"x","ok":true}`},
		},
		{
			name:  "a function_call without call_id gets a generated id",
			lines: []string{item("02", `{"type":"function_call","name":"shell","arguments":"{}"}`)},
			want: []string{asst,
				`{"kind":"tool_start","id":"codex-call-1","name":"shell","args":{},"batch":"resp-1","call_type":"function_call","generated_id":true}`},
		},
		{
			name:  "web_search_call starts and ends at once",
			lines: []string{item("02", `{"type":"web_search_call","id":"ws_1","status":"completed","action":{"type":"search","query":"go 1.26"}}`)},
			want: []string{asst,
				`{"kind":"tool_start","id":"ws_1","name":"web_search","args":{"type":"search","query":"go 1.26"},"batch":"resp-1","call_type":"web_search_call","status":"completed"}`,
				`{"kind":"tool_done","id":"ws_1","ok":true}`},
		},
		{
			name: "calls of one response share a batch, outputs in between or not",
			lines: []string{
				item("02", callLs),
				item("02", `{"type":"function_call_output","call_id":"c1","output":"x"}`),
				item("02", `{"type":"function_call","name":"shell","arguments":"{\"command\":\"pwd\"}","call_id":"c2"}`),
				item("02", `{"type":"function_call_output","call_id":"c2","output":"y"}`),
				evmsg("03", tokenCnt),
				item("04", `{"type":"function_call","name":"shell","arguments":"{\"command\":\"id\"}","call_id":"c3"}`)},
			want: []string{asst, startLs,
				`{"kind":"tool_done","id":"c1","output":"x","ok":true}`,
				`{"kind":"tool_start","id":"c2","name":"shell","args":{"command":"pwd"},"batch":"resp-1","call_type":"function_call"}`,
				`{"kind":"tool_done","id":"c2","output":"y","ok":true}`,
				`{"kind":"tool_start","id":"c3","name":"shell","args":{"command":"id"},"batch":"resp-2","call_type":"function_call"}`},
		},
		{
			name: "turn_context starts a new response",
			lines: []string{item("02", callLs), rl("03", "turn_context", `{"cwd":"/w","model":"gpt-5"}`),
				item("04", `{"type":"function_call","name":"shell","arguments":"{}","call_id":"c2"}`)},
			want: []string{asst, startLs,
				`{"kind":"tool_start","id":"c2","name":"shell","args":{},"batch":"resp-2","call_type":"function_call"}`},
		},
		{
			name:  "reasoning with a summary is thinking; encrypted-only is skipped",
			lines: []string{item("02", encrypted), item("03", summary)},
			want:  []string{asst, `{"kind":"thinking","text":"**Looking**"}`},
		},
		{
			name:  "reasoning raw content when there is no summary",
			lines: []string{item("02", `{"type":"reasoning","summary":[],"content":[{"type":"reasoning_text","text":"raw"}]}`)},
			want:  []string{asst, `{"kind":"thinking","text":"raw"}`},
		},
		{
			name:  "assistant message is text",
			lines: []string{item("02", `{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}],"phase":"final_answer"}`)},
			want:  []string{asst, `{"kind":"text","text":"Done.","phase":"final_answer"}`},
		},
		{
			name: "output after turn_aborted comes after the cancel; the aborted turn ends at EOF",
			lines: []string{item("02", callLs), evmsg("03", `{"type":"turn_aborted","reason":"interrupted"}`),
				item("04", `{"type":"function_call_output","call_id":"c1","output":"aborted"}`)},
			want: []string{asst, startLs, `{"kind":"cancel","reason":"interrupted"}`,
				`{"kind":"tool_done","id":"c1","output":"aborted","ok":false,"error":"aborted"}`, end},
		},
		{
			name: "an aborted output before turn_aborted is the call's progress: the cancel interrupts it",
			lines: []string{item("02", callLs), item("03", `{"type":"function_call_output","call_id":"c1","output":"aborted by user after 0.3s"}`),
				evmsg("04", `{"type":"turn_aborted","reason":"interrupted"}`)},
			want: []string{asst, startLs, `{"kind":"tool_progress","id":"c1","output":"aborted by user after 0.3s"}`,
				`{"kind":"cancel","reason":"interrupted"}`, end},
		},
		{
			name:  "an aborted output with no turn_aborted after it: the turn's end interrupts the call",
			lines: []string{item("02", callLs), item("03", `{"type":"function_call_output","call_id":"c1","output":"aborted"}`)},
			want:  []string{asst, startLs, `{"kind":"tool_progress","id":"c1","output":"aborted"}`},
		},
		{
			name: "Codex 0.169.0: an MCP call's failure is told by its item_completed, its output bare content items",
			lines: []string{item("02", `{"type":"function_call","name":"read","namespace":"mcp__toolsim","arguments":"{}","call_id":"m1"}`),
				evmsg("03", `{"type":"item_completed","item":{"type":"McpToolCall","id":"m1","status":"failed","result":{"content":[{"type":"text","text":"exit status 1"}],"isError":true}}}`),
				item("03", `{"type":"function_call_output","call_id":"m1","output":[{"type":"input_text","text":"Wall time: 0.1 seconds\nOutput:"},{"type":"input_text","text":"exit status 1"}]}`),
				evmsg("04", `{"type":"item_completed","item":{"type":"McpToolCall","id":"m2","status":"completed","result":{"content":[],"isError":false}}}`),
				evmsg("04", `{"type":"thread_settings_applied","thread_id":"x"}`),
				rl("04", "world_state", `{"full":true}`), rl("04", "token_usage_record", `{"thread_id":"x"}`)},
			want: []string{asst, `{"kind":"tool_start","id":"m1","name":"read","args":{},"batch":"resp-1","call_type":"function_call"}`,
				`{"kind":"tool_done","id":"m1","output":"Wall time: 0.1 seconds\nOutput:\nexit status 1","ok":false,"error":"exit status 1"}`},
		},
		{
			name: "the next prompt ends a turn (no lifecycle records)",
			lines: []string{item("01", prompt), item("02", `{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]}`),
				item("05", prompt)},
			want: []string{userTurn, `{"kind":"user","text":"list files"}`, end, asst, `{"kind":"text","text":"ok"}`, end,
				userTurn, `{"kind":"user","text":"list files"}`, end},
		},
		{
			name: "task_complete ends the turn; a prompt inside a running task stays in it",
			lines: []string{evmsg("01", `{"type":"task_started","turn_id":"t1"}`), item("01", prompt), item("02", callLs),
				item("03", prompt), item("04", outLsOK), evmsg("05", `{"type":"task_complete","turn_id":"t1","duration_ms":4000}`)},
			want: []string{userTurn, `{"kind":"user","text":"list files"}`, end, asst, startLs,
				`{"kind":"user","text":"list files","mid_turn":true}`,
				`{"kind":"tool_done","id":"c1","output":"a\nb\n","ok":true,"duration_ms":250,"exit_code":0}`,
				`{"kind":"turn_end","duration_ms":4000,"turn_id":"t1"}`},
		},
		{
			name: "a prompt after an unanswered call (killed, then resumed) ends the turn",
			lines: []string{item("01", prompt), item("02", callLs),
				rl("09", "session_meta", `{"id":"s"}`), item("10", prompt)},
			want: []string{userTurn, `{"kind":"user","text":"list files"}`, end, asst, startLs, end,
				userTurn, `{"kind":"user","text":"list files"}`, end},
		},
		{
			name: "encrypted content with escapes is decoded normally",
			lines: []string{item("02", `{"type":"reasoning","summary":[{"type":"summary_text","text":"s"}],"encrypted_content":"a\u0041\"b"}`),
				item("03", `{"type":"reasoning","summary":[],"encrypted_content":""}`)},
			want: []string{asst, `{"kind":"thinking","text":"s"}`},
		},
		{
			name: "task_started closes a turn that never completed",
			lines: []string{evmsg("01", `{"type":"task_started","turn_id":"t1"}`), item("02", callLs),
				evmsg("09", `{"type":"task_started","turn_id":"t2"}`), item("10", prompt)},
			want: []string{asst, startLs, `{"kind":"turn_end","ended_by":"task_started"}`,
				userTurn, `{"kind":"user","text":"list files"}`, end},
		},
		{
			name: "model output after an abort opens a new turn",
			lines: []string{item("02", callLs), evmsg("03", `{"type":"turn_aborted","reason":"interrupted"}`),
				item("04", `{"type":"message","role":"assistant","content":[{"type":"output_text","text":"stopped"}]}`)},
			want: []string{asst, startLs, `{"kind":"cancel","reason":"interrupted"}`, end, asst, `{"kind":"text","text":"stopped"}`},
		},
		{
			name:  "a patch the user rejected is denied, not a result",
			lines: []string{item("02", callPatch), item("03", `{"type":"custom_tool_call_output","call_id":"p1","output":"patch rejected by user"}`)},
			want: []string{asst, startPatch,
				`{"kind":"permission","id":"p1","state":"denied","result":"patch rejected by user"}`},
		},
		{
			name:  "a plain-text sandbox denial with a non-zero exit code fails",
			lines: []string{item("02", callLs), item("03", `{"type":"function_call_output","call_id":"c1","output":"failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error, exit code: 2, stdout: , stderr: ls: /etc/x: Operation not permitted"}`)},
			want: []string{asst, startLs,
				`{"kind":"tool_done","id":"c1","output":"failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error, exit code: 2, stdout: , stderr: ls: /etc/x: Operation not permitted","ok":false,"error":"failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error, exit code: 2, stdout: , stderr: ls: /etc/x: Operation not permitted","exit_code":2}`},
		},
		{
			name:  "exit code: 0 in plain text is not a failure",
			lines: []string{item("02", callLs), item("03", `{"type":"function_call_output","call_id":"c1","output":"done, exit code: 0"}`)},
			want:  []string{asst, startLs, `{"kind":"tool_done","id":"c1","output":"done, exit code: 0","ok":true}`},
		},
		{
			name: "a rejected call written after turn_aborted belongs to the aborted turn, before the cancel",
			lines: []string{item("01", prompt), evmsg("02", `{"type":"turn_aborted","reason":"interrupted"}`),
				item("03", summary), item("03", callPatch), item("03", `{"type":"custom_tool_call_output","call_id":"p1","output":"patch rejected by user"}`),
				item("05", prompt)},
			want: []string{userTurn, `{"kind":"user","text":"list files"}`, end, asst,
				`{"kind":"thinking","text":"**Looking**"}`, startPatch,
				`{"kind":"permission","id":"p1","state":"denied","result":"patch rejected by user"}`,
				`{"kind":"cancel","reason":"interrupted","src_t":1000}`, end,
				userTurn, `{"kind":"user","text":"list files"}`, end},
		},
		{
			name: "exec_command_end's own duration is the call's when its output gives none",
			lines: []string{item("02", callLs), evmsg("05", `{"type":"exec_command_end","call_id":"c1","exit_code":0,"duration":{"secs":0,"nanos":750000000}}`),
				item("05", `{"type":"function_call_output","call_id":"c1","output":"a\nb\n"}`)},
			want: []string{asst, startLs, `{"kind":"tool_done","id":"c1","output":"a\nb\n","ok":true,"duration_ms":750}`},
		},
		{
			name:  "a cut-off turn gets no turn_end",
			lines: []string{item("01", prompt), item("02", callLs)},
			want:  []string{userTurn, `{"kind":"user","text":"list files"}`, end, asst, startLs},
		},
		{
			name:  "event_msg error",
			lines: []string{evmsg("02", `{"type":"error","message":"stream disconnected"}`)},
			want:  []string{`{"kind":"error","message":"stream disconnected"}`},
		},
		{
			name: "ignored records emit nothing",
			lines: []string{rl("00", "session_meta", `{"id":"s","cwd":"/w"}`), item("01", `{"type":"ghost_snapshot","ghost_commit":{}}`),
				evmsg("02", `{"type":"user_message","message":"hi"}`), evmsg("02", `{"type":"agent_reasoning","text":"x"}`),
				rl("03", "compacted", `{"message":""}`)},
			want: nil,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, probs, _ := imp(t, false, tc.lines...)
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
	_, _, meta := imp(t, false,
		rl("00", "session_meta", `{"id":"s1","cwd":"/w","originator":"codex_cli_rs","cli_version":"0.58.0","instructions":null,"model_provider":"openai"}`),
		rl("01", "turn_context", `{"cwd":"/w","model":"gpt-5.1-codex"}`),
		rl("02", "turn_context", `{"cwd":"/w","model":"other"}`),
		evmsg("03", tokenCnt), evmsg("03", tokenCnt), item("04", encrypted), item("05", envCtx))
	want := `{"cli_version":"0.58.0","cwd":"/w","format":"codex-rollout","ignored":{"context_message":1,"reasoning_without_text":1,"session_meta":1,"token_count":2,"turn_context":2},"model":"gpt-5.1-codex","model_provider":"openai","originator":"codex_cli_rs","session_id":"s1"}`
	if meta != want {
		t.Errorf("meta\n got %s\nwant %s", meta, want)
	}
}

func TestClock(t *testing.T) {
	got, _, _ := imp(t, true,
		item("10.000", prompt),
		item("10.250", callLs),
		item("10.100", outLsOK), // written out of time order
		`{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"no time"}]}}`,
	)
	want := []string{
		`{"t":0,"kind":"turn_start","role":"user"}`,
		`{"t":0,"kind":"user","text":"list files"}`,
		`{"t":0,"kind":"turn_end"}`,
		`{"t":250,"kind":"turn_start","role":"assistant"}`,
		`{"t":250,"kind":"tool_start","id":"c1","name":"shell","args":{"command":["bash","-lc","ls"]},"batch":"resp-1","call_type":"function_call"}`,
		`{"t":250,"kind":"tool_done","id":"c1","output":"a\nb\n","ok":true,"duration_ms":250,"exit_code":0,"src_t":100}`,
		`{"t":251,"kind":"text","text":"no time"}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func TestProblems(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  []string
	}{
		{"not JSON", []string{item("01", prompt), "hello there"}, []string{"line 2: not JSON: invalid character 'h' looking for beginning of value"}},
		{"unknown line type", []string{rl("01", "mystery", `{}`)}, []string{`line 1: unknown line type "mystery"`}},
		{"unknown response_item type", []string{item("01", `{"type":"hologram"}`)}, []string{`line 1: unknown response_item type "hologram"`}},
		{"unknown event_msg type", []string{evmsg("01", `{"type":"quake"}`)}, []string{`line 1: unknown event_msg type "quake"`}},
		{"truncated last line", []string{item("01", prompt), item("02", callLs)[:40]}, []string{"line 2: truncated JSON (unexpected end of input)"}},
		{"no payload", []string{`{"timestamp":"2025-11-17T21:30:01Z","type":"event_msg"}`}, []string{"line 1: event_msg line without a payload"}},
		{"bad timestamp", []string{`{"timestamp":"yesterday","type":"event_msg","payload":{"type":"token_count"}}`}, []string{`line 1: bad timestamp "yesterday": synthetic time used`}},
		{"output without call_id", []string{item("01", `{"type":"function_call_output","output":"x"}`)}, []string{"line 1: function_call_output without a call_id: cannot pair it"}},
		{"unknown role", []string{item("01", `{"type":"message","role":"robot","content":[]}`)}, []string{`line 1: message with unknown role "robot"`}},
		{"member of the wrong type", []string{item("01", `{"type":"function_call","name":"shell","arguments":"{}","call_id":7}`)},
			[]string{`line 1: member "payload.call_id": want a JSON string, got number: left out`}},
		{"payload of the wrong type", []string{item("01", `"message"`)}, []string{`line 1: member "payload": want a JSON object, got string`}},
		{"broken line with an encrypted blob", []string{item("01", `{"type":"reasoning","encrypted_content":"abc"`)}, []string{"line 1: truncated JSON (unexpected end of input)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, probs, _ := imp(t, false, tc.lines...)
			if diff := cmp.Diff(tc.want, probs); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestProblemKeepsGoing(t *testing.T) {
	got, probs, _ := imp(t, false, item("01", prompt), "{not json", item("03", callLs))
	if len(probs) != 1 || !strings.HasPrefix(probs[0], "line 2:") {
		t.Errorf("problems: %v", probs)
	}
	if len(got) != 5 {
		t.Errorf("want the lines around the bad one imported, got %v", got)
	}
}

func TestStrict(t *testing.T) {
	_, err := codexrollout.Importer{}.Import(strings.NewReader(item("01", prompt)+"\nnope\n"), importer.Options{Name: "x.jsonl", Strict: true})
	if !errors.Is(err, importer.ErrStrict) || !strings.Contains(err.Error(), "x.jsonl:line 2:") {
		t.Errorf("strict import: %v", err)
	}
}

func TestDetect(t *testing.T) {
	long := rl("00", "session_meta", `{"id":"s","instructions":"`+strings.Repeat("x", 70000)+`"}`)
	tests := []struct {
		name string
		head string
		want bool
	}{
		{"session_meta line", rl("00", "session_meta", `{"id":"s"}`) + "\n", true},
		{"response_item first", "\n" + item("01", prompt) + "\n", true},
		{"an ordinal member (Codex 0.169.0)", `{"timestamp":"2026-11-29T16:50:59.154Z","ordinal":0,"type":"session_meta","payload":{"id":"s"}}` + "\n", true},
		{"first line longer than the head", long[:1000], true},
		{"codex exec json", `{"type":"thread.started","thread_id":"x"}` + "\n", false},
		{"claude transcript", `{"parentUuid":null,"type":"user","timestamp":"2025-01-01T00:00:00Z","message":{}}` + "\n", false},
		{"canonical", `{"trace":"toolsim/v1"}` + "\n", false},
		{"wrong type", rl("00", "session", `{}`) + "\n", false},
		{"empty", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := (codexrollout.Importer{}).Detect([]byte(tc.head)); got != tc.want {
				t.Errorf("Detect = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDetectSharedTraces checks Detect against every real sample: it
// accepts its own format's files and no other.
func TestDetectSharedTraces(t *testing.T) {
	importertest.DetectSharedTraces(t, codexrollout.Importer{}, "../../../shared/traces", "codex-rollout")
}
